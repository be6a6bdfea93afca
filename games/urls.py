from django.urls import path

from games import replay_views, views

app_name = "games"
urlpatterns = [
    path("", views.play_home, name="play"),
    path("practice/", views.practice, name="practice"),
    path("tables/<int:live_game_id>/", views.table, name="table"),
    path("tables/<int:live_game_id>/replay/", replay_views.replay, name="replay"),
    path("tables/<int:live_game_id>/replay.json", replay_views.replay_json, name="replay_json"),
    path("tournament-games/<int:game_id>/replay/", replay_views.tournament_game_replay,
         name="tournament_game_replay"),
    path("verify/", views.verify, name="verify"),
]
