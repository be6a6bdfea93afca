from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("subscription/", views.subscribe, name="subscribe"),
    path("subscription/remove/", views.unsubscribe, name="unsubscribe"),
    path("choices/", views.choices, name="choices"),
    path("mail-off/<str:token>/", views.mail_off, name="mail_off"),
]
