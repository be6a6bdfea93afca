import pytest

from games.services import snapshots
from tests.live_asgi import live_asgi, live_asgi_database_cleanup, live_asgi_settings  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def live_settings(settings):
    """Bots answer at once, the next hand is dealt at once, tests drive the sweeper themselves."""
    settings.LIVE_BOT_THINK_SECONDS = (0, 0)
    settings.LIVE_NEXT_HAND_SECONDS = 0
    settings.LIVE_SWEEPER_IN_PROCESS = False
    settings.LIVE_SOCKET_RATE_LIMIT = (10_000, 1.0)  # test clients play much faster than people
    snapshots.forget_all()
    yield settings
    snapshots.forget_all()
