"""The bot writers' documents on the site (games/docs_pages.py): the guide and the protocol as pages with
their links pointing at each other's pages, the schema and the example bot as files, linked from the
token page."""

import json
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_guide_and_the_protocol_are_pages_linking_to_each_other(client):
    protocol = client.get("/docs/protocol/")
    assert protocol.status_code == 200
    html = protocol.content.decode()
    assert '<table tabindex="0">' in html and "<h2 id=" in html  # tables and anchored headings, from the Markdown
    assert "<pre>" not in html and '<pre tabindex="0">' in html  # code that scrolls sideways takes the focus
    assert 'href="/docs/protocol.schema.json"' in html  # (protocol.schema.json) points at its file here
    assert "](" not in html  # no Markdown link left unconverted
    guide = client.get("/docs/bots/")
    assert guide.status_code == 200 and 'href="/docs/protocol/' in guide.content.decode()


def test_the_schema_and_the_example_bot_download(client):
    schema = client.get("/docs/protocol.schema.json")
    assert schema.status_code == 200 and schema["Content-Type"] == "application/json"
    assert "$defs" in json.loads(b"".join(schema.streaming_content))
    example = client.get("/docs/example_bot.py")
    assert example.status_code == 200 and example["Content-Type"].startswith("text/plain")
    assert b"websockets" in b"".join(example.streaming_content)
    js = client.get("/docs/example_bot.js")
    assert js.status_code == 200 and b'from "ws"' in b"".join(js.streaming_content)


def test_an_unknown_document_is_a_404(client):
    assert client.get("/docs/secrets/").status_code == 404
    assert client.get("/docs/..%2Fconfig/").status_code == 404


def test_the_token_page_links_to_the_documents(client, django_user_model):
    user = django_user_model.objects.create_user("botwriter", password="a-Long-pass-8421")
    client.force_login(user)
    page = client.get(reverse("access_tokens:tokens")).content.decode()
    links = set(re.findall(r'href="(/docs/[^"]*)"', page))
    assert links == {"/docs/bots/", "/docs/protocol/", "/docs/protocol.schema.json", "/docs/example_bot.py",
                     "/docs/example_bot.js"}
    for link in links:
        assert client.get(link).status_code == 200, link
    assert "/ws/bots/stream/" in page and "finds your tables through" not in page and "in the repository" not in page
