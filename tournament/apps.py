from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournament import receivers  # the models are ready now; importing them sooner fails

        receivers.connect()
