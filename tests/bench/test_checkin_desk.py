"""bench/checkin_desk.py at a small scale: it searches, checks in and loads the control room through the
organizer's pages and prints its figures."""

import pytest

from bench import checkin_desk
from tournament.models import Player

pytestmark = [pytest.mark.django_db]


def test_searches_checks_in_and_prints_the_figures(capsys):
    checkin_desk.run(players=60, repeat=2)
    out = capsys.readouterr().out
    assert "60 registered players; 60 checked in at the end" in out
    assert "desk page: " in out and "search as you type: " in out and "check in all registered: " in out
    assert "control room: " in out
    assert Player.objects.filter(event__slug="desk-bench", status="checked_in").count() == 60
