"""Refusing a websocket before any consumer runs, so that the client can read why: the handshake is
accepted and the socket closed at once with a code and a reason (a refused handshake shows a browser
only "1006"). Used by the access-token router (`access_tokens.websocket`) and the socket caps
(`config.socket_caps`)."""

from __future__ import annotations


async def refuse(receive, send, code: int, reason: str) -> None:
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})
