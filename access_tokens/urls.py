from django.urls import path

from access_tokens import views

app_name = "access_tokens"
urlpatterns = [
    path("", views.tokens, name="tokens"),
    path("<int:token_id>/revoke/", views.revoke, name="revoke"),
]
