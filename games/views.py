from django.shortcuts import render


def play_home(request):
    """Where a student finds their live table or starts a practice game."""
    return render(request, "games/play_home.html")
