import pytest

from tests.live_asgi import live_asgi, live_asgi_database_cleanup, live_asgi_settings  # noqa: F401 (fixtures)
from tests.tournament.organizer_factories import PASSWORD, make_event, make_organizer_of
from tournament import public_pages, scores_version, standings_cache


@pytest.fixture
def cold_caches():
    """No version, standings or page kept from another test (these caches live in the process)."""
    scores_version.clear()
    standings_cache.clear()
    public_pages.clear()
    yield
    scores_version.clear()
    standings_cache.clear()
    public_pages.clear()


@pytest.fixture
def event():
    """An event with tables of 3 to 4 and games to 100 (a module may define its own `event`)."""
    return make_event(min_table_size=3, max_table_size=4, target_score=100)


@pytest.fixture
def organizer_client(client, event):
    """The test client logged in as an organizer of `event` (the user as `client.user`)."""
    user = make_organizer_of(event)
    client.login(username=user.username, password=PASSWORD)
    client.user = user
    return client
