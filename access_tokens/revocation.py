"""Ending the sockets open with a token when it stops being valid (revoked, its account's password
changed or reset, its account deactivated), on every worker.

A socket opened with a token joins that token's channel-layer group (`token_group`, named in the socket's
scope by `access_tokens.websocket`); ending the sockets is one group message, sent after the change
commits, that each such socket answers by closing with 4401 and `REVOKED_REASON`. The layer is Redis in
production (every worker hears it) and the in-memory layer in the embedded default (one process).
"""

from __future__ import annotations

from collections.abc import Iterable

from config.group_notices import send_after_commit

CLOSE_BAD_TOKEN = 4401
REVOKED_REASON = "access token revoked, or its account's password changed or account deactivated"
TOKEN_REVOKED = "access_token.revoked"  # dispatched to the consumer's `access_token_revoked`


def token_group(token_id: int) -> str:
    return f"access-token-{token_id}"


def revoked_message() -> dict:
    return {"type": TOKEN_REVOKED, "code": CLOSE_BAD_TOKEN, "reason": REVOKED_REASON}


def end_sockets_on_commit(token_ids: Iterable[int]) -> None:
    """Once the current transaction commits, tell every socket open with one of `token_ids` to close (a
    message lost, Redis down say, still leaves the token unable to open a new socket)."""
    send_after_commit(((token_group(pk), revoked_message()) for pk in token_ids), what="an access token's end")
