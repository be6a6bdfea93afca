"""Websockets through the real ASGI application: origin check, session auth, a consumer answering."""

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


async def test_websocket_connects_and_answers():
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from() == {"type": "hello", "user": None}
    await communicator.send_json_to({"type": "ping", "echo": 7})
    assert await communicator.receive_json_from() == {"type": "pong", "echo": 7}
    await communicator.send_to(text_data="not json")
    assert (await communicator.receive_json_from())["type"] == "error"
    await communicator.disconnect()


async def test_websocket_from_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected


async def connects(headers, scheme="ws") -> bool:
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=headers)
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:1",  # another port of the same host
    "https://127.0.0.1:8000",  # another scheme
    "http://127.0.0.1",  # port 80
    "http://localhost:8000",  # another allowed host than the one the socket reached
    "null", "http://127.0.0.1:8000/page", "http://127.0.0.1:99999", "",
])
async def test_an_origin_other_than_the_sites_own_is_refused(origin):
    assert await connects([(b"origin", origin.encode()), (b"host", b"127.0.0.1:8000")]) is False


async def test_the_same_origin_connects_also_behind_tls_and_on_default_ports(settings):
    assert await connects([(b"origin", b"http://localhost"), (b"host", b"localhost:80")])
    # behind a TLS proxy uvicorn (--proxy-headers) gives the socket the scheme wss
    settings.ALLOWED_HOSTS = ["ocho.example.org"]
    assert await connects([(b"origin", b"https://ocho.example.org"), (b"host", b"ocho.example.org")], scheme="wss")
    assert not await connects([(b"origin", b"http://ocho.example.org"), (b"host", b"ocho.example.org")], scheme="wss")
    # a host outside ALLOWED_HOSTS is refused even when Origin and Host agree
    assert not await connects([(b"origin", b"http://evil.example"), (b"host", b"evil.example")])
    # a trusted origin (CSRF_TRUSTED_ORIGINS) is accepted as for forms
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    assert await connects([(b"origin", b"https://play.example.org"), (b"host", b"ocho.example.org")], scheme="wss")


async def test_websocket_sees_the_logged_in_user(client, django_user_model):
    from channels.db import database_sync_to_async
    from django.conf import settings

    await database_sync_to_async(django_user_model.objects.create_user)("asha", password="pw-for-tests-1")
    await database_sync_to_async(client.login)(username="asha", password="pw-for-tests-1")
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    communicator = WebsocketCommunicator(
        application, "/ws/health/", headers=[*ORIGIN, (b"cookie", cookie.encode())]
    )
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from() == {"type": "hello", "user": "asha"}
    await communicator.disconnect()


async def test_the_health_socket_refuses_numbers_json_does_not_have():
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ORIGIN)
    await communicator.connect()
    await communicator.receive_json_from()
    for frame in ('{"type": "ping", "echo": NaN}', '{"type": "ping", "echo": 1e999}', "[" * 900):
        await communicator.send_to(text_data=frame)
        assert (await communicator.receive_json_from())["type"] == "error", frame
    await communicator.send_json_to({"type": "ping", "echo": 1.5})
    assert await communicator.receive_json_from() == {"type": "pong", "echo": 1.5}
    await communicator.disconnect()
