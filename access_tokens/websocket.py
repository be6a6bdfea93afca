"""Websocket handshakes with a personal access token: a bot's socket needs no session and no Origin.

`TokenOrBrowser` looks at the handshake: with a token (the header `Authorization: Bearer <token>`) it
authenticates the token and hands the socket, as its user, to the token application; the scope then
names the token (`access_token_id`), what it may do (`access_token_scopes`) and the group that ends the
socket when the token stops being valid (`access_token_group`, `access_tokens.revocation`). Without a
token the socket goes to the browser application (the Origin check and the session, as before).

Refused at once (accepted and closed, so the client can read the code and the reason): an unknown or
revoked token or a malformed header (4401); a token in the URL (`?token=`: URLs end up in proxies' and
servers' access logs, so a token there is refused, 4401, and the header is the only way); a token on
any socket but a table's or the bots' stream (4403: organizer and admin sockets need a login, never a
token).

A token authenticates the socket by itself: no cross-site page can send it without knowing it, so the
Origin check (which protects session cookies) is not needed for it.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from access_tokens.http import bearer_secret
from access_tokens.revocation import CLOSE_BAD_TOKEN, token_group
from access_tokens.services import authenticate
from config.socket_refusal import refuse

CLOSE_NOT_FOR_TOKENS = 4403
BAD_TOKEN_REASON = "unknown or revoked access token"
MALFORMED_REASON = "malformed Authorization header: send 'Bearer <token>'"
IN_URL_REASON = "send the access token in the header 'Authorization: Bearer <token>', never in the URL"
NOT_FOR_TOKENS_REASON = "an access token opens only table sockets (/ws/games/<id>/) and the bots' stream (/ws/bots/stream/)"


def presented_token(scope) -> tuple[bool, str | None]:
    """(a token was presented, the token or None if malformed), from the Authorization header."""
    for name, value in scope.get("headers", []):
        # Only a Bearer header is a token: a browser may send its HTTP Basic credentials to a site behind
        # a password (a staging server), and that socket is a browser's like any other.
        text = value.decode("latin-1").strip()
        if name.lower() == b"authorization" and text[:7].lower() in ("bearer", "bearer "):
            return True, bearer_secret(text)
    return False, None


def token_in_url(scope) -> bool:
    return "token" in parse_qs(scope.get("query_string", b"").decode("latin-1"))


class TokenOrBrowser:
    """ASGI websocket router: token-authenticated sockets to `token_app` (which serves `token_routes`
    only), the rest to `browser_app`."""

    def __init__(self, token_app, browser_app, token_routes) -> None:
        self.token_app = token_app
        self.browser_app = browser_app
        self.token_routes = list(token_routes)

    def opens_with_token(self, scope) -> bool:
        path = scope.get("path", "").lstrip("/")
        return any(route.pattern.match(path) for route in self.token_routes)

    async def __call__(self, scope, receive, send):
        if token_in_url(scope):
            return await refuse(receive, send, CLOSE_BAD_TOKEN, IN_URL_REASON)
        presented, secret = presented_token(scope)
        if not presented:
            return await self.browser_app(scope, receive, send)
        if secret is None:
            return await refuse(receive, send, CLOSE_BAD_TOKEN, MALFORMED_REASON)
        if not self.opens_with_token(scope):
            return await refuse(receive, send, CLOSE_NOT_FOR_TOKENS, NOT_FOR_TOKENS_REASON)
        token = await database_sync_to_async(authenticate)(secret)
        if token is None:
            return await refuse(receive, send, CLOSE_BAD_TOKEN, BAD_TOKEN_REASON)
        scope = dict(scope, user=token.user, access_token_id=token.pk, access_token_scopes=token.scope_list,
                     access_token_group=token_group(token.pk))
        return await self.token_app(scope, receive, send)
