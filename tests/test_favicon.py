"""The site's icon: an SVG in static/, named by every page of the site and of the admin, and /favicon.ico
(which browsers ask for on their own) leads to it."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

ICON = "img/favicon.svg"


def icon_links(html: str) -> list[str]:
    import re

    return re.findall(r'<link rel="icon" href="([^"]+)"', html)


def test_the_icon_is_a_small_svg():
    path = Path(settings.BASE_DIR) / "static" / ICON
    root = ET.fromstring(path.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox")
    assert path.stat().st_size < 2000


def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == settings.STATIC_URL + ICON


def test_site_pages_name_the_icon(client):
    for url in ("/", "/play/"):
        response = client.get(url)
        assert response.status_code == 200
        assert icon_links(response.content.decode()) == [settings.STATIC_URL + ICON], url


def test_admin_pages_name_the_icon(client, admin_user):
    response = client.get("/admin/login/")
    assert icon_links(response.content.decode()) == [settings.STATIC_URL + ICON]
    client.force_login(admin_user)
    response = client.get("/admin/")
    assert response.status_code == 200
    assert icon_links(response.content.decode()) == [settings.STATIC_URL + ICON]
    assert "Tournament administration" in response.content.decode()  # the admin's own branding is kept
