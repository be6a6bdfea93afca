"""Websocket handshakes with a personal access token: a bot's socket needs no session and no Origin.

`TokenOrBrowser` looks at the handshake: with a token (the header `Authorization: Bearer <token>`, or
the query parameter `?token=<token>` for clients that cannot set headers, such as a browser's
`WebSocket`) it authenticates the token and hands the socket, as its user, to the token application;
an unknown or revoked token is accepted and closed at once with code 4401 and a reason. Without a token
the socket goes to the browser application (the Origin check and the session, as before).

A token authenticates the socket by itself: no cross-site page can send it without knowing it, so the
Origin check (which protects session cookies) is not needed for it.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from access_tokens.http import bearer_secret
from access_tokens.services import authenticate

CLOSE_BAD_TOKEN = 4401
BAD_TOKEN_REASON = "unknown or revoked access token"
MALFORMED_REASON = "malformed Authorization header: send 'Bearer <token>'"


def presented_token(scope) -> tuple[bool, str | None]:
    """(a token was presented, the token or None if malformed), from the header or the query string."""
    for name, value in scope.get("headers", []):
        # Only a Bearer header is a token: a browser may send its HTTP Basic credentials to a site behind
        # a password (a staging server), and that socket is a browser's like any other.
        text = value.decode("latin-1").strip()
        if name.lower() == b"authorization" and text[:7].lower() in ("bearer", "bearer "):
            return True, bearer_secret(text)
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if "token" in query:
        return True, query["token"][-1]
    return False, None


async def refuse(receive, send, reason: str) -> None:
    """Accept the handshake and close at once with 4401, so the client can read why."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CLOSE_BAD_TOKEN, "reason": reason})


class TokenOrBrowser:
    """ASGI websocket router: token-authenticated sockets to `token_app`, the rest to `browser_app`."""

    def __init__(self, token_app, browser_app) -> None:
        self.token_app = token_app
        self.browser_app = browser_app

    async def __call__(self, scope, receive, send):
        presented, secret = presented_token(scope)
        if not presented:
            return await self.browser_app(scope, receive, send)
        if secret is None:
            return await refuse(receive, send, MALFORMED_REASON)
        token = await database_sync_to_async(authenticate)(secret)
        if token is None:
            return await refuse(receive, send, BAD_TOKEN_REASON)
        scope = dict(scope, user=token.user, access_token_id=token.pk)
        return await self.token_app(scope, receive, send)
