from django.urls import path

from tournament import views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/", views.event_list, name="event_list"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
]
