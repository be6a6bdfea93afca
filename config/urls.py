from django.contrib import admin
from django.urls import include, path

from tournament.views import signup
from tournament.views.email_verification import account_email, verify_email_confirm

admin.site.site_header = "Tournament administration"
admin.site.site_title = "Tournaments"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/email/", account_email, name="account_email"),
    path("accounts/email/verify/<str:uidb64>/<str:token>/", verify_email_confirm, name="verify_email_confirm"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/tokens/", include("access_tokens.urls")),
    path("play/", include("games.urls")),
    path("", include("tournament.urls")),
]
