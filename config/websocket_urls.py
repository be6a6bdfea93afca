"""Every websocket route of the site, gathered from the apps."""

from games.routing import websocket_urlpatterns as games_routes
from tournament.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [*games_routes, *tournament_routes]
