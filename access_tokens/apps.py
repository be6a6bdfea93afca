from django.apps import AppConfig


class AccessTokensConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "access_tokens"
    verbose_name = "Personal access tokens"
