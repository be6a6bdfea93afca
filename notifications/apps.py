from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The models are ready now; importing these sooner fails. `checks` registers by being imported.
        from notifications import checks, receivers  # noqa: F401

        receivers.connect()
