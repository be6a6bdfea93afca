"""The installable site: its web manifest (name, icons, start page), its service worker (Web Push: show a
notification, open its page on a click; and the offline page when the network is gone) and that offline
page. Served from the site's root, so that the worker's scope is the whole site."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

NAME = "Ocho & UNO tournaments"
THEME = "#212529"  # the navbar's colour (Bootstrap's bg-dark)
ICONS = (("img/icon-192.png", 192, "any"), ("img/icon-512.png", 512, "any"),
         ("img/icon-maskable-192.png", 192, "maskable"), ("img/icon-maskable-512.png", 512, "maskable"))


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    data = {
        "id": "/",
        "name": NAME,
        "short_name": "Ocho",
        "description": "Your table, your games and the leaderboards of Ocho & UNO tournaments.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [{"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
                  for path, size, purpose in ICONS],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_GET
@cache_control(no_cache=True)  # browsers look for a new worker at every visit; never a stale one
def service_worker(request):
    body = render(request, "notifications/sw.js", {"icon": static("img/icon-192.png"),
                                                    "offline_css": static("css/offline.css")}).content
    return HttpResponse(body, content_type="text/javascript; charset=utf-8")


@require_GET
def offline(request):
    return render(request, "notifications/offline.html", {"name": NAME, "theme": THEME})
