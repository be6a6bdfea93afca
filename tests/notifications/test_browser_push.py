"""Web Push for real, without the internet: the test plays the push service (tests/notifications/push_service.py).

On a phone-sized page, a student's "My event" (which never asks for permission on load, only on a tap) stores a subscription whose endpoint is the test's server with
keys the test made (headless Chromium cannot reach a push service of its own, so the test sends, from the
page, the JSON the page's code sends after `pushManager.subscribe`). When the organizer starts the round the
site encrypts "your table is ready" to it, signs it with its VAPID key and posts it there; the test decrypts
it. Then the test hands that payload to the page's service worker through Chromium's DevTools protocol
(`ServiceWorker.deliverPushMessage`), sees the notification shown, and a click on it opens the table.

The site's other page: the manifest that makes the site installable passes Chromium's own checks, and with
the network gone a page shows the offline page the service worker kept."""

from __future__ import annotations

import json
import time

import pytest
from django.conf import settings

from notifications.models import PushSubscription
from tests.notifications.push_service import BrowserKeys, PushService
from tournament.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def live_asgi_settings() -> dict:
    return {"LIVE_NEXT_HAND_SECONDS": 30, "PUSH_ENDPOINT_SCHEMES": ["https", "http"]}


def registration_id(cdp, page) -> str:
    """The id DevTools gives the site's service worker registration."""
    found: list[str] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: found.extend(r["registrationId"] for r in event["registrations"] if not r["isDeleted"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not found and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert found, "the service worker's registration was reported"
    return found[-1]


def shown_notifications(page) -> list[dict]:
    """The notifications the site's service worker shows (waiting up to 10 s for one)."""
    deadline = time.monotonic() + 10
    while True:
        shown = page.evaluate("""async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .map(n => ({title: n.title, body: n.body}))""")
        if shown or time.monotonic() > deadline:
            return shown
        page.wait_for_timeout(50)


def test_table_ready_is_pushed_shown_and_opens_the_table(live_asgi, seated_round, chromium, page):
    event, round_, student_cookie, organizer_cookie = seated_round
    student = Player.objects.filter(event=event).order_by("pk").first()  # the one the cookie logs in
    # Every call of Notification.requestPermission is counted: opening the page must not ask.
    page.add_init_script("""(() => {
        const ask = Notification.requestPermission.bind(Notification);
        window.permissionAsked = 0;
        Notification.requestPermission = (...args) => { window.permissionAsked += 1; return ask(...args); };
    })()""")
    page.context.add_cookies([student_cookie])
    page.goto(f"{live_asgi.url}/events/{event.slug}/me/")
    card = page.locator("#notifications")
    assert card.get_by_role("button", name="Notify me on this phone").is_visible()
    assert card.get_by_label("Your table is ready", exact=True).is_checked(), "each kind may be turned off"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # the site's worker runs the page
    page.wait_for_load_state("networkidle")
    assert page.evaluate("[window.permissionAsked, Notification.permission]") == [0, "default"], "no prompt on load"
    page.context.grant_permissions(["notifications"], origin=live_asgi.url)  # what the student's tap will allow
    # The tap asks for permission and subscribes; headless Chromium has no push service, so the page says it
    # falls back to e-mail (a browser with one says it is on), and the test then stores its own subscription.
    card.get_by_role("button", name="Notify me on this phone").click()
    page.wait_for_function("() => !document.querySelector('#push-state').textContent.startsWith('Get told')")
    assert page.evaluate("window.permissionAsked") == 1, "asked once, on the tap"
    said = card.locator("#push-state").inner_text()
    assert said.startswith("This browser could not turn notifications on (") or said.startswith("This phone is told")

    keys, gone = BrowserKeys(), BrowserKeys()
    with PushService() as push:
        for subscription in (keys.subscription(f"{push.url}/push/{student.pk}"),
                             gone.subscription(f"{push.url}/gone/old-phone")):
            answer = page.evaluate("""async ([url, subscription]) => {
                const {postJSON} = await import("/static/js/notifications.js");
                return postJSON(url, subscription);
            }""", ["/notifications/subscription/", subscription])
            assert answer == {"ok": True}
        assert PushSubscription.objects.filter(user=student.user).count() == 2

        desk = chromium.new_context().new_page()  # the organizer starts the round in the admin
        desk.context.add_cookies([organizer_cookie])
        desk.goto(f"{live_asgi.url}/admin/tournament/round/{round_.pk}/tables/")
        desk.get_by_role("button", name="Start round 1").click()
        desk.get_by_text("Round 1 started.").wait_for()
        desk.context.close()
        received = sorted((push.next(), push.next()), key=lambda r: r.path)

    stale, sent = received
    assert stale.path == "/gone/old-phone"
    deadline = time.monotonic() + 10
    while PushSubscription.objects.filter(user=student.user).count() > 1 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert list(PushSubscription.objects.filter(user=student.user).values_list("endpoint", flat=True)) == [
        f"{push.url}/push/{student.pk}"], "the subscription its push service called gone is deleted"
    assert sent.path == f"/push/{student.pk}"
    assert sent.headers["content-encoding"] == "aes128gcm"
    assert f"k={settings.VAPID_PUBLIC_KEY}" in sent.headers["authorization"], "signed with the site's VAPID key"
    payload = json.loads(keys.decrypt(sent.body))
    seat = student.seats.select_related("table").get()
    game = seat.table.games.get()
    assert payload["title"] == "Your table is ready"
    assert payload["body"] == (f"Ocho night, round 1: table {seat.table.number}, seat {seat.number + 1}. "
                               "Tap to open your table.")
    assert payload["url"] == f"/play/games/{game.pk}/"

    cdp = page.context.new_cdp_session(page)
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_asgi.url, "registrationId": registration_id(cdp, page),
                                                  "data": json.dumps(payload)})
    shown = shown_notifications(page)
    assert shown == [{"title": payload["title"], "body": payload["body"]}]

    [worker] = page.context.service_workers
    # The click a person makes on the notification: its notificationclick event in the worker.
    worker.evaluate("""async () => {
        const [shown] = await self.registration.getNotifications();
        self.dispatchEvent(new NotificationEvent("notificationclick", {notification: shown}));
    }""")
    page.wait_for_url(f"{live_asgi.url}/play/tables/{game.live.pk}/")  # where the game's link leads
    page.locator("#table").wait_for()
    assert page.locator("#role-badge").inner_text().strip() == "Playing"


def test_the_site_is_installable_and_offline_shows_its_page(live_asgi, page):
    page.goto(f"{live_asgi.url}/events/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_asgi.url}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = json.loads(manifest["data"])
    assert {(i["sizes"], i["purpose"]) for i in parsed["icons"]} >= {("192x192", "any"), ("512x512", "any"),
                                                                      ("192x192", "maskable"), ("512x512", "maskable")}
    # Playwright's contexts are incognito profiles, where Chromium installs nothing: every other check passes.
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert errors == ["in-incognito"]

    page.context.set_offline(True)
    page.goto(f"{live_asgi.url}/leaderboards/")
    assert page.get_by_role("heading", name="You are offline").is_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(33, 37, 41)", "its style too"
