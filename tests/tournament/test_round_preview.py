"""Round 1's seating kept on the server between preview and confirm: swaps, versions, changed players,
and a round of 1,000 players confirmed through the organizer's page with a handful of form fields."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.tournament.organizer_factories import bulk_players, make_event, make_players, make_user
from tournament.models import AuditEntry, Player, Round, RoundDraft, Seat
from tournament.services import round_drafts
from tournament.services.rounds import RoundError

pytestmark = pytest.mark.django_db


def test_confirm_applies_exactly_the_previewed_and_swapped_seating():
    event = make_event(min_table_size=3, max_table_size=4)
    make_players(event, 11, status=Player.Status.CHECKED_IN)
    organizer = make_user()
    draft = round_drafts.preview(event, organizer, seed=5)
    first, second = draft.tables[0][0], draft.tables[2][1]
    _, _, draft = round_drafts.swap(event, draft.version, first, second, organizer)
    shown = [list(t) for t in draft.tables]
    round_ = round_drafts.confirm(event, draft.version, organizer)
    seated = [[s.player_id for s in Seat.objects.filter(table__round=round_, table__number=n).order_by("number")]
              for n in range(1, len(shown) + 1)]
    assert seated == shown and round_.seed == 5
    assert AuditEntry.objects.get(action="round.create").changes["moved_players"] == sorted([first, second])
    assert not RoundDraft.objects.exists()


def test_a_page_of_an_older_version_changes_nothing():
    event = make_event(min_table_size=3, max_table_size=4)
    make_players(event, 8)
    organizer = make_user()
    old = round_drafts.preview(event, organizer, seed=1)
    newer = round_drafts.preview(event, organizer, seed=2)  # another tab, or another organizer
    assert newer.version == old.version + 1
    with pytest.raises(RoundError, match="seating changed since this page was shown"):
        round_drafts.swap(event, old.version, old.tables[0][0], old.tables[1][0], organizer)
    with pytest.raises(RoundError, match="seating changed since this page was shown"):
        round_drafts.confirm(event, old.version, organizer)
    assert not Round.objects.exists() and RoundDraft.objects.get().tables == newer.tables


def test_a_draft_whose_players_changed_is_refused_and_says_so():
    event = make_event(min_table_size=3, max_table_size=4)
    players = make_players(event, 8)
    organizer = make_user()
    draft = round_drafts.preview(event, organizer, seed=1)
    Player.objects.filter(pk=players[0].pk).update(status=Player.Status.WITHDRAWN)
    make_players(event, 1)
    assert round_drafts.players_changed(event, draft) == (
        "The players changed since this preview: 1 seated player can no longer play and 1 player to seat is "
        "not in it. Preview the seating again.")
    with pytest.raises(RoundError, match="changed since the preview"):
        round_drafts.confirm(event, draft.version, organizer)
    assert not Round.objects.exists()


def test_swap_and_confirm_errors_reach_the_organizer_as_messages(organizer_client, event):
    make_players(event, 8)
    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    page = organizer_client.post(url, {"version": "1", "confirm": "Confirm"}, follow=True).content.decode()
    assert "There is no seating to change" in page
    organizer_client.post(url, {"seed": "3", "source": "registered", "preview": "Preview"})
    draft = RoundDraft.objects.get(event=event)
    a, b = draft.tables[0][:2]
    for post, message in [
        ({"first": a, "second": b}, "Both already sit at table 1"),
        ({"first": a, "second": a}, "Choose two different players"),
        ({"first": a, "second": "nobody"}, "Enter a whole number"),
        ({"first": a}, "Choose the second player"),
        ({"first": a, "second": 10**9}, "two players who are seated"),
    ]:
        response = organizer_client.post(url, {"version": draft.version, "swap": "Swap", **post}, follow=True)
        assert response.status_code == 200 and message in response.content.decode()
    page = organizer_client.post(url, {"version": "x", "confirm": "Confirm"}, follow=True).content.decode()
    assert "seating changed since this page was shown" in page
    assert RoundDraft.objects.get(event=event).version == draft.version and not Round.objects.exists()


def test_a_thousand_players_preview_in_a_small_page_and_confirm_with_a_few_fields(organizer_client, event):
    assert settings.DATA_UPLOAD_MAX_NUMBER_FIELDS <= 1000  # Django's limit, which a field per player broke
    bulk_players(event, 1000)
    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    response = organizer_client.post(url, {"seed": "7", "source": "checked_in", "preview": "Preview"})
    assert response.status_code == 302
    page = organizer_client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and len(page.content) < 500_000
    assert "1000 players at 250 tables" in html
    confirm_form = re.search(r'<form method="post" id="confirm-form">(.*?)</form>', html, re.S).group(1)
    fields = re.findall(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"', confirm_form)
    assert sorted(fields) == ["confirm", "csrfmiddlewaretoken", "version"]
    swap_form = re.search(r'<form method="post" id="swap-form">(.*?)</form>', html, re.S).group(1)
    assert sorted(re.findall(r'\bname="([^"]+)"', swap_form)) == [
        "csrfmiddlewaretoken", "first", "second", "swap", "version"]
    draft = RoundDraft.objects.get(event=event)
    response = organizer_client.post(url, {"version": draft.version, "confirm": "Confirm"})
    round_ = Round.objects.get(event=event, number=1)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournament_round_overview", args=[round_.pk])
    assert Seat.objects.filter(table__round=round_, player__isnull=False).count() == 1000
    assert round_.tables.count() == 250


def test_the_page_says_when_the_players_changed_since_the_preview(organizer_client, event):
    players = make_players(event, 8)
    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    organizer_client.post(url, {"seed": "3", "source": "registered", "preview": "Preview"})
    assert 'value="Confirm: create round 1 with this seating" >' in organizer_client.get(url).content.decode()
    Player.objects.filter(pk=players[0].pk).update(status=Player.Status.WITHDRAWN)
    html = organizer_client.get(url).content.decode()
    assert "The players changed since this preview: 1 seated player can no longer play." in html
    assert 'value="Confirm: create round 1 with this seating" disabled>' in html
