from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/health/", consumers.HealthConsumer.as_asgi()),
    path("ws/games/<int:live_game_id>/", consumers.GameConsumer.as_asgi()),
]
