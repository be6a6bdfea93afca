"""Websocket routes of the tournament app (gathered in config/websocket_urls.py)."""

from django.urls import path

from tournament import consumers, live_round_consumer, my_event_socket

websocket_urlpatterns = [
    path("ws/events/<slug:slug>/", consumers.LeaderboardConsumer.as_asgi()),
    path("ws/events/<slug:slug>/me/", my_event_socket.MyEventConsumer.as_asgi()),
    path("ws/organizer/rounds/<int:round_id>/", live_round_consumer.LiveRoundConsumer.as_asgi()),
]
