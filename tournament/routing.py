"""Websocket routes of the tournament app (gathered in config/websocket_urls.py)."""

from django.urls import path

from tournament import bot_stream, consumers, live_round_consumer, my_event_socket

websocket_urlpatterns = [
    path("ws/events/<slug:slug>/", consumers.LeaderboardConsumer.as_asgi()),
    path("ws/events/<slug:slug>/me/", my_event_socket.MyEventConsumer.as_asgi()),
    path("ws/organizer/rounds/<int:round_id>/", live_round_consumer.LiveRoundConsumer.as_asgi()),
]
# The bots' stream tells a bot when a table is ready for it (tournament.bot_stream). It serves an access
# token only (access_tokens.websocket); a browser's socket there is closed with the reason.
stream_route = path("ws/bots/stream/", bot_stream.BotStreamConsumer.as_asgi())
websocket_urlpatterns.append(stream_route)
token_websocket_urlpatterns = [stream_route]
