from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.play_home, name="play"),
]
