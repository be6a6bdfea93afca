"""`manage.py recompute_ratings`: every rating rebuilt from the stored games (ratings.rating_updates)."""

from django.core.management.base import BaseCommand

from ratings.rating_updates import recompute


class Command(BaseCommand):
    help = "Delete every rating and rate every finished game again, oldest first (deterministic)."

    def handle(self, *args, **options) -> None:
        rated = recompute()
        self.stdout.write(f"Rated {rated} game{'s' if rated != 1 else ''}.")
