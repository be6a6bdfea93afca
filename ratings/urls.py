from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("", views.ladders, name="ladders"),
    path("<slug:family>/", views.family_ladder, name="ladder"),
    path("players/<int:user_id>/", views.player, name="player"),
]
