"""The site's Content-Security-Policy holds in a real Chromium, and the browser tests' watch over it (the
`chromium` fixture in tests/conftest.py, which fails any browser test whose pages broke the policy) sees
a violation: the home page as the site serves it, headers and all, with an inline script, an inline
event handler and a style attribute slipped into its body."""

import json

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLIPPED_IN = ('<script>window.inlineRan = true;</script>'
              '<button id="slipped" onclick="window.handlerRan = true">tap</button>'
              '<p id="styled" style="color: rgb(255, 0, 0)">red?</p>')


def test_the_policy_stops_inline_code_and_the_fixture_sees_it(live_server, page, csp_violations):
    def with_inline_code(route):
        response = route.fetch()  # the site's own answer, its Content-Security-Policy header included
        route.fulfill(response=response, body=response.text().replace("</main>", SLIPPED_IN + "</main>"))

    page.route(live_server.url + "/", with_inline_code)
    page.goto(live_server.url + "/")
    page.locator("#slipped").click()

    assert page.evaluate("window.inlineRan") is None
    assert page.evaluate("window.handlerRan") is None
    assert page.locator("#styled").evaluate("e => getComputedStyle(e).color") != "rgb(255, 0, 0)"
    seen = [json.loads(text) for text in csp_violations]
    directives = sorted(v["directive"] for v in seen)
    assert directives == ["script-src-attr", "script-src-elem", "style-src-attr"], seen
    assert all(v["page"] == live_server.url + "/" for v in seen)
    csp_violations.clear()  # seen and expected here: the fixture would fail the test on them

