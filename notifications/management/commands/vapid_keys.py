"""`manage.py vapid_keys`: print a new VAPID key pair for the environment of a production site."""

from django.core.management.base import BaseCommand

from config.environment import new_vapid_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) for Web Push."

    def handle(self, *args, **options) -> None:
        public, private = new_vapid_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
