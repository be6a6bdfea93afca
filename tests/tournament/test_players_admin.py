"""Organizer actions on players: check in, withdraw, disqualify — each audited, reasons required."""

import pytest

from tests.tournament.organizer_factories import make_event, make_players, make_user
from tournament.models import AuditEntry, Player
from tournament.services.players import PlayerActionError, check_in, disqualify, withdraw

pytestmark = pytest.mark.django_db


def test_check_in_by_hand():
    event = make_event()
    (player,) = make_players(event, 1)
    organizer = make_user()
    check_in(player, organizer)
    player.refresh_from_db()
    assert player.status == Player.Status.CHECKED_IN and player.checked_in_at
    assert AuditEntry.objects.get(action="player.check_in").actor == organizer
    with pytest.raises(PlayerActionError, match="not registered"):
        check_in(player, organizer)


@pytest.mark.parametrize(("action", "status"), [(withdraw, "withdrawn"), (disqualify, "disqualified")])
def test_withdraw_and_disqualify_need_a_reason(action, status):
    event = make_event()
    (player,) = make_players(event, 1, status=Player.Status.CHECKED_IN)
    with pytest.raises(PlayerActionError, match="Give a reason"):
        action(player, None, "  ")
    player.refresh_from_db()
    assert player.status == "checked_in"
    action(player, None, "Left the hall")
    player.refresh_from_db()
    assert player.status == status
    entry = AuditEntry.objects.get(event=event)
    assert entry.reason == "Left the hall" and entry.changes == {"status": ["checked_in", status]}
    with pytest.raises(PlayerActionError, match="already"):
        action(player, None, "again")
