from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and live matches"

    def ready(self) -> None:
        from games import checks  # noqa: F401 - registers the deploy checks
