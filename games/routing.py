from django.urls import path

from games import consumers
from games.health_consumer import HealthConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    path("ws/games/<int:live_game_id>/", consumers.GameConsumer.as_asgi()),
]
