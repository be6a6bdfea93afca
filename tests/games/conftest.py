import pytest

from tests.live_asgi import live_asgi, live_asgi_database_cleanup, live_asgi_settings  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def _live_play_at_test_speed(live_settings):
    """Every live-game test runs with `live_settings` (tests/conftest.py)."""
    return live_settings
