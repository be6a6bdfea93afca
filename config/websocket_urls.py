"""Every websocket route of the site, gathered from the apps (plus the benchmark's bare relay, only
when the setting or environment variable ``BENCH_RELAY`` asks for it: see bench/relay.py)."""

from django.conf import settings
from django.urls import path

from config.environment import yes_no
from games.routing import token_websocket_urlpatterns as games_token_routes
from games.routing import websocket_urlpatterns as games_routes
from tournament.routing import token_websocket_urlpatterns as tournament_token_routes
from tournament.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [*games_routes, *tournament_routes]
# The sockets a personal access token opens (access_tokens.websocket): a table's and the bots' stream.
token_websocket_urlpatterns = [*games_token_routes, *tournament_token_routes]
__all__ = ["token_websocket_urlpatterns", "websocket_urlpatterns"]

if getattr(settings, "BENCH_RELAY", False) or yes_no("BENCH_RELAY", False):
    from bench.relay import RelayConsumer

    websocket_urlpatterns.append(path("ws/bench/relay/<int:table>/", RelayConsumer.as_asgi()))
