from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from tournament.views.email_verification import account_email, verify_email_confirm
from tournament.views.students import signup

admin.site.site_header = "Tournament administration"
admin.site.site_title = "Tournaments"



class FaviconView(RedirectView):
    """Browsers ask for /favicon.ico on pages that name no icon (files, error pages): the site's SVG icon."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("img/favicon.svg")  # at request time: the static storage may rename the file


urlpatterns = [
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/email/", account_email, name="account_email"),
    path("accounts/email/verify/<str:uidb64>/<str:token>/", verify_email_confirm, name="verify_email_confirm"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/tokens/", include("access_tokens.urls")),
    path("play/", include("games.urls")),
    path("", include("tournament.urls")),
]
