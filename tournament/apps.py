from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournament.services import participation  # noqa: F401 - connects its signal receiver
