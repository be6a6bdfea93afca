from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.csp_reports import csp_report
from games.docs_pages import bot_docs, bot_docs_example, bot_docs_example_js, bot_docs_schema
from notifications import app_shell
from tournament.forms import PacedPasswordResetForm
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
    path("csp-report/", csp_report, name="csp_report"),  # settings.CSP_REPORT_PATH
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    path("offline/", app_shell.offline, name="offline"),
    path("notifications/", include("notifications.urls")),
    path("admin/", admin.site.urls),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/email/", account_email, name="account_email"),
    path("accounts/email/verify/<str:uidb64>/<str:token>/", verify_email_confirm, name="verify_email_confirm"),
    path("accounts/password_reset/", auth_views.PasswordResetView.as_view(form_class=PacedPasswordResetForm),
         name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/tokens/", include("access_tokens.urls")),
    path("play/", include("games.urls")),
    path("docs/protocol.schema.json", bot_docs_schema, name="bot_docs_schema"),
    path("docs/example_bot.py", bot_docs_example, name="bot_docs_example"),
    path("docs/example_bot.js", bot_docs_example_js, name="bot_docs_example_js"),
    path("docs/<slug:name>/", bot_docs, name="bot_docs"),
    path("ratings/", include("ratings.urls")),
    path("", include("tournament.urls")),
]
