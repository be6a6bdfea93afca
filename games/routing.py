from django.urls import path

from games import consumers
from games.health_consumer import HealthConsumer

table_route = path("ws/games/<int:live_game_id>/", consumers.GameConsumer.as_asgi())

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    table_route,
]
# The only socket a personal access token opens (access_tokens.websocket): a table's.
token_websocket_urlpatterns = [table_route]
