import pytest


@pytest.fixture(autouse=True)
def _live_play_at_test_speed(live_settings):
    """Bots answer at once and the next hand is dealt at once; the tests drive the sweeper themselves."""
    return live_settings


from tests.live_asgi import live_asgi, live_asgi_database_cleanup, live_asgi_settings  # noqa: E402, F401 (fixtures)
