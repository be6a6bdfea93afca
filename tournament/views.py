from django.shortcuts import render


def home(request):
    return render(request, "tournament/home.html")


def event_list(request):
    return render(request, "tournament/event_list.html", {"events": []})


def leaderboards(request):
    return render(request, "tournament/leaderboards.html", {"events": []})
