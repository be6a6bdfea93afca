"""The site in the Django process for the benchmarks of the organizer's pages (bench/checkin_desk.py,
bench/round_preview.py): a throwaway database created for the run and dropped after it, an event's students
made in bulk, a test client logged in as a superuser (no network), and a stopwatch.

DATABASE_URL from the environment, as for the site; the run uses its test database (``test_`` + the name),
never the site's own. Django is set up by ``on_a_throwaway_database``, after the programs import this
module: the functions import Django's models and test tools when they run.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime


def timed(call):
    """`call()`'s result and the seconds it took."""
    t0 = time.perf_counter()
    result = call()
    return result, time.perf_counter() - t0


def on_a_throwaway_database(header: str, run: Callable[[], None]) -> None:
    """Set Django up, create the test database, print `header` with the date, Python and database, call
    `run`, and drop the database again (also when `run` fails)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    site_database = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"{header} · {datetime.now(UTC):%Y-%m-%d} · Python {platform.python_version()} · {connection.vendor}")
        run()
    finally:
        connection.creation.destroy_test_db(site_database, verbosity=0)


def add_students(event, count: int, **player_fields) -> None:
    """`count` users (``bench-<i>``, no usable password), each a player of `event` ("Student <i>", roll
    number ``R<i>`` in five digits) with `player_fields` (a status, say)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tournament.models import Player

    User = get_user_model()
    password = make_password(None)
    users = User.objects.bulk_create([User(username=f"bench-{i}", password=password) for i in range(count)],
                                     batch_size=2000)
    Player.objects.bulk_create([Player(event=event, user=u, display_name=f"Student {i}", roll_number=f"R{i:05d}",
                                       **player_fields) for i, u in enumerate(users)], batch_size=2000)


def admin_client():
    """A test client logged in as a new superuser (``bench-admin``)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.test import Client

    admin = get_user_model().objects.create(username="bench-admin", is_staff=True, is_superuser=True,
                                            password=make_password(None))
    client = Client()
    client.force_login(admin)
    return client
