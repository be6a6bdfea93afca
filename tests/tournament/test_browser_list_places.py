"""A real headless Chromium in the admin: an organizer gives a roll number taken by the wrong account to
its student, confirms a claim, reinstates a withdrawn player and adds a walk-in without an account; each
with a reason kept in the audit log."""

import pytest

from tests.tournament.organizer_factories import PASSWORD, make_organizer_of, make_user, make_verified_user
from tournament.models import AuditEntry, EligibilityEntry, Event, Player
from tournament.services.registration import register_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk(live_server):
    event = Event.objects.create(name="Chematoodlon Ocho", slug="chematoodlon", rules_preset="ocho-plato",
                                 status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST)
    for roll, name, email in [("CHE01", "Asha Sen", ""), ("CHE02", "Ravi Das", "ravi@ju.example"),
                              ("CHE03", "Meera Iyer", "")]:
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=name, email=email,
                                        department="ChE", programme="UG", year=1)
    organizer = make_organizer_of(event, "olga")
    impostor = register_player(event, make_user("mallory"), "CHE01", "Mallory")  # the list has no e-mail
    claimant = register_player(event, make_user("meera"), "CHE03", "")
    ravi = register_player(event, make_verified_user("ravi", email="ravi@ju.example"), "CHE02", "")
    Player.objects.filter(pk=ravi.pk).update(status=Player.Status.WITHDRAWN)
    asha = make_verified_user("asha", email="asha@ju.example")
    return {"event": event, "organizer": organizer, "impostor": impostor, "claimant": claimant, "ravi": ravi,
            "asha": asha}


def choose(page, names, action):
    for name in names:
        page.get_by_role("row").filter(has_text=name).locator("input.action-select").check()
    page.select_option("select[name=action]", action)
    with page.expect_navigation():  # the action's page (or the list again), loaded before it is read
        page.get_by_role("button", name="Go").click()


def test_organizer_reassigns_confirms_reinstates_and_adds_a_walk_in(live_server, desk, chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    page.goto(f"{base}/admin/login/?next=/admin/tournament/player/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.url.endswith("/admin/tournament/player/")

    # Mallory holds Asha's roll number: give it to Asha's account, withdrawing Mallory.
    choose(page, ["Mallory"], "reassign_roll_number")
    assert "holds roll number CHE01" in page.content().replace("<strong>", "").replace("</strong>", "")
    page.fill("#id_to", "ASHA@ju.example")
    page.check("#id_withdraw")
    page.get_by_role("button", name="Reassign").click()
    assert page.locator("#id_reason:invalid").count() == 1  # no reason, no move
    assert Player.objects.get(pk=desk["impostor"].pk).roll_number == "CHE01"
    page.fill("#id_reason", "Asha showed her college ID; Mallory is not CHE01")
    page.get_by_role("button", name="Reassign").click()
    assert "Roll number CHE01 now belongs to Asha Sen." in page.locator(".messagelist").inner_text()
    asha = Player.objects.get(user=desk["asha"])
    assert (asha.roll_number, asha.claim) == ("CHE01", "confirmed")
    assert Player.objects.get(pk=desk["impostor"].pk).status == "withdrawn"

    # Meera's claim (her list entry has no e-mail): confirmed at the desk, then checked in.
    choose(page, ["Meera Iyer"], "check_in")
    assert "confirm the claim first" in page.locator(".messagelist").inner_text()
    choose(page, ["Meera Iyer"], "confirm_claim")
    page.fill("#id_reason", "ID seen at the desk")
    page.get_by_role("button", name="Confirm claim").click()
    assert "Claim confirmed (check them in next): Meera Iyer (CHE03)." in page.locator(".messagelist").inner_text()
    choose(page, ["Meera Iyer"], "check_in")
    assert "1 checked in." in page.locator(".messagelist").inner_text()

    # Ravi withdrew by mistake: reinstated.
    choose(page, ["Ravi Das"], "reinstate")
    page.fill("#id_reason", "Withdrew by mistake")
    page.get_by_role("button", name="Reinstate").click()
    assert "Reinstated (registered: they check in again): Ravi Das (CHE02)." in page.locator(
        ".messagelist").inner_text()
    assert Player.objects.get(pk=desk["ravi"].pk).status == "registered"

    # A walk-in without an account, and a refused second one with the same name.
    page.get_by_role("link", name="Add a walk-in").click()
    page.select_option("#id_event", label="Chematoodlon Ocho")
    page.fill("#id_display_name", "Kabir Khan")
    page.fill("#id_reason", "Came to the desk, not on the list")
    page.get_by_role("button", name="Add the walk-in").click()
    assert "Kabir Khan joined Chematoodlon Ocho as a walk-in and is checked in." in page.locator(
        ".messagelist").inner_text()
    page.get_by_role("link", name="Add a walk-in").click()
    page.select_option("#id_event", label="Chematoodlon Ocho")
    page.fill("#id_display_name", "kabir khan")
    page.fill("#id_reason", "again")
    page.get_by_role("button", name="Add the walk-in").click()
    assert 'already shows as "kabir khan"' in page.locator(".errorlist").inner_text()
    walk_in = Player.objects.get(display_name="Kabir Khan")
    assert (walk_in.user, walk_in.status) == (None, "checked_in")

    actions = dict(AuditEntry.objects.filter(actor=desk["organizer"]).values_list("action", "reason"))
    assert actions == {
        "player.reassign_roll_number": "Asha showed her college ID; Mallory is not CHE01",
        "player.confirm_claim": "ID seen at the desk",
        "player.check_in": "",
        "player.reinstate": "Withdrew by mistake",
        "player.walk_in": "Came to the desk, not on the list",
    }
    context.close()
