from tests.live_asgi import live_asgi, live_asgi_database_cleanup  # noqa: F401 (fixtures)

# Round 1 seated, not started, made before the browser starts: (event, round, student's cookie, organizer's).
from tests.tournament.test_browser_my_event import seated_round  # noqa: F401 (fixture)
