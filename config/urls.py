from django.contrib import admin
from django.urls import include, path

from tournament.views import signup

admin.site.site_header = "Tournament administration"
admin.site.site_title = "Tournaments"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/tokens/", include("access_tokens.urls")),
    path("play/", include("games.urls")),
    path("", include("tournament.urls")),
]
