"""bench/round_preview.py at a small scale: it previews, swaps and confirms through the organizer's page
and prints its figures."""

import pytest

from bench import round_preview
from tournament.models import Round, Seat

pytestmark = [pytest.mark.django_db]


def test_previews_swaps_confirms_and_prints_the_figures(capsys):
    round_preview.run(players=24, repeat=2, min_size=3, max_size=4)
    out = capsys.readouterr().out
    assert "24 checked-in players, tables of 3 to 4: 6 tables, 24 seated" in out
    assert "preview page: " in out and " bytes; server time median " in out and "confirm (round 1 created): " in out
    round_ = Round.objects.get(event__slug="preview-bench")
    assert Seat.objects.filter(table__round=round_, player__isnull=False).count() == 24
