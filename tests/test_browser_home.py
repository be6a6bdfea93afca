"""A real headless Chromium loads the site: Bootstrap is applied with no internet access."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_styled_offline_on_a_phone(live_server, page):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(live_server.url + "/")
    assert page.title().startswith("Home")
    # Bootstrap's navbar toggler shows on a phone-sized viewport only when the CSS loaded.
    assert page.locator(".navbar-toggler").is_visible()
    page.locator(".navbar-toggler").click()
    page.get_by_role("link", name="Events", exact=True).click()
    assert page.locator("h1").inner_text() == "Events"
    assert all(url.startswith(live_server.url) for url in requests), requests
