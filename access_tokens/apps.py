from django.apps import AppConfig


class AccessTokensConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "access_tokens"
    verbose_name = "Personal access tokens"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save, pre_save

        from access_tokens import receivers

        user_model = get_user_model()
        pre_save.connect(receivers.remember_account, sender=user_model, dispatch_uid="access_tokens_account_before")
        post_save.connect(receivers.account_saved, sender=user_model, dispatch_uid="access_tokens_account_after")
