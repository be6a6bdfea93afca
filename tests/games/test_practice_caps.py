"""Caps on practice games (games/services/practice_caps.py): running games per account, starts per client
address, with the page's message; and the sweeper serving tournament tables before practice tables."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.models import LiveGame
from games.services import timers
from games.services.lifecycle import start_practice_game
from games.services.practice_caps import PracticeCapReached
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db]
FORM = {"preset": "uno-official", "opponents": 1, "bot_kind": "random"}


def test_an_account_runs_at_most_its_cap_of_practice_games(client, settings):
    settings.LIVE_PRACTICE_MAX_RUNNING = 2
    user = make_user()
    client.force_login(user)
    url = reverse("games:practice")
    assert client.post(url, FORM).status_code == 302
    assert client.post(url, FORM).status_code == 302
    refused = client.post(url, FORM)
    assert refused.status_code == 429 and "You have 2 practice games running" in refused.content.decode()
    assert LiveGame.objects.filter(owner=user).count() == 2
    LiveGame.objects.filter(owner=user).update(status=LiveGame.Status.FINISHED)
    assert client.post(url, FORM).status_code == 302  # a finished game no longer counts
    with pytest.raises(PracticeCapReached):
        start_practice_game(user, "uno-official", 1)
        start_practice_game(user, "uno-official", 1)


def test_starts_from_one_address_are_capped_across_accounts(client, settings):
    settings.LIVE_PRACTICE_STARTS_PER_ADDRESS = (3, 60)
    cache.delete("window-count:practice-starts:10.9.8.7")
    url = reverse("games:practice")
    for _ in range(3):
        client.force_login(make_user())
        assert client.post(url, FORM, REMOTE_ADDR="10.9.8.7").status_code == 302
    client.force_login(make_user())
    refused = client.post(url, FORM, REMOTE_ADDR="10.9.8.7")
    assert refused.status_code == 429 and "from your network address" in refused.content.decode()
    assert client.post(url, FORM, REMOTE_ADDR="10.9.8.6").status_code == 302  # another address


def test_the_sweeper_serves_tournament_tables_before_practice_tables():
    now = timezone.now()
    practice = [start_practice_game(make_user(), "uno-official", 1, seed=n) for n in range(3)]
    game, _users = make_tournament_game(2)
    tournament = live_game_for(game, seed=1)
    LiveGame.objects.filter(pk__in=[p.pk for p in practice]).update(deadline=now - timedelta(seconds=30))
    LiveGame.objects.filter(pk=tournament.pk).update(deadline=now - timedelta(seconds=1))
    due = timers.due_games(now)
    assert due[0] == tournament.pk and set(due[1:]) == {p.pk for p in practice}  # though due last
    assert timers.due_games(now, limit=1) == [tournament.pk]
