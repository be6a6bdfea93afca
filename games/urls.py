from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.play_home, name="play"),
    path("practice/", views.practice, name="practice"),
    path("tables/<int:live_game_id>/", views.table, name="table"),
    path("verify/", views.verify, name="verify"),
]
