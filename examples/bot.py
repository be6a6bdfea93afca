"""An example bot: hears of its tables on the bots' stream and plays whole games over their websockets.

    UNO_TOKEN=uno_... python examples/bot.py --server http://127.0.0.1:8000 [--event SLUG]

It needs a personal access token (made on /account/tokens/). The stream (`/ws/bots/stream/`) tells it
when a table is ready for it (a practice game started with "I'll play with my bot", a bot-league game)
and when an event it is registered for opens check-in (with `--event`, it checks itself in for that
event and plays only its tables). Standard library plus `websockets`. docs/bots.md walks through it;
`act(view)` is the strategy to change; the arena (`python -m games.arena examples/bot.py`) plays it offline.
"""

import argparse
import asyncio
import itertools
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
import uuid

import websockets

# A player's socket may send 30 messages in 5 seconds (docs/protocol.md); two bots playing each other can
# go faster than that. Past it the server answers `rate_limited`: wait this long before looking again.
RATE_LIMITED_PAUSE = 1.0


def act(view: dict) -> dict | None:
    """The action to send, from the seat's view (None: nothing to do now). Change this to win more."""
    legal = view.get("legal_actions") or []
    for kind in ("call_uno", "catch"):  # say UNO when we must; catch whoever forgot to
        for action in legal:
            if action["type"] == kind:
                return action
    plays = [a for a in legal if a["type"] == "play"]
    if plays:
        return random.choice(plays)  # any card we may play (a wild is listed once per colour)
    return legal[0] if legal else None  # draw, pass, accept, choose a colour...


def merge(picture: dict, update: dict) -> dict:
    """The picture with an `update` merged in: an update carries only what moved (docs/protocol.md): the
    view's and the game's fields that changed, and `hand_seat` and `deadline` when they did. A changed
    field replaces the one held, except an object for a list (`{"2": {...}}`): the items at those indexes."""
    out = {**picture, "version": update["version"]}
    for key in ("hand_seat", "deadline"):
        if key in update:
            out[key] = update[key]
    for key in ("view", "game"):
        if key not in update:
            continue
        if update[key] is None:
            out[key] = None
            continue
        held = picture[key] or {}
        out[key] = {**held, **update[key]}
        for field, value in update[key].items():
            if isinstance(value, dict) and isinstance(held.get(field), list):
                items = list(held[field])
                for index, item in value.items():
                    items[int(index)] = item
                out[key][field] = items
    return out


def post(server: str, token: str, path: str) -> dict:
    """POST to the site's API with the token; the answer's JSON (an error's too)."""
    request = urllib.request.Request(server.rstrip("/") + path, data=b"", method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            if error.code != 429:  # 429: asked too often; wait as long as the server says
                return json.load(error)
            time.sleep(int(error.headers.get("Retry-After", "10")))


async def play(server: str, token: str, table: dict) -> dict:
    """Play the game at `table` until it is finished; its last `game` (totals, winners)."""
    url = server.replace("http", "ws", 1).rstrip("/") + table["ws_path"]
    run = uuid.uuid4().hex[:8]  # move ids never repeat, even when this program is restarted mid-game
    ids = itertools.count(1)
    async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        acted = None  # the version we last sent a move for: one move per version
        picture = None  # the last `state` with every later `update` merged into it
        async for text in socket:
            message = json.loads(text)
            kind = message["type"]
            if kind == "error":
                print(f"  refused: {message['code']}: {message['message']}")
                if message["code"] == "rate_limited":  # past the socket's rate: wait before looking again
                    await asyncio.sleep(RATE_LIMITED_PAUSE)
                if message["code"] not in ("stale", "already_played"):  # a stale move is followed by a state
                    acted = None
                    await socket.send(json.dumps({"type": "sync"}))  # look again, then choose again
                continue
            if kind == "state":  # the whole picture: on connect, after a sync or a stale move
                picture = message
            elif kind == "update" and picture is not None and message["version"] == picture["version"] + 1:
                picture = merge(picture, message)
            elif kind == "update":  # a version missed (or none seen yet): ask for the whole picture
                if picture is not None and message["version"] > picture["version"]:
                    picture = None
                    await socket.send(json.dumps({"type": "sync"}))
                continue
            else:
                continue  # ack, pong, presence
            game, view, version = picture["game"], picture["view"], picture["version"]
            if kind == "update" and message["by"]["actor"] == "system":
                print(f"  hand {game['hand_number']} dealt; totals {game['totals']}")
            if game["status"] == "finished":
                return game
            action = act(view) if view and acted != version else None
            if action is not None:
                acted = version
                await socket.send(json.dumps({"type": "move", "version": version, "action": action,
                                              "id": f"{run}-{next(ids)}"}))
    raise SystemExit(f"the server closed the socket: {socket.close_code} {socket.close_reason}")


async def main() -> None:
    parser = argparse.ArgumentParser(description="Play your tables with a bot.")
    parser.add_argument("--server", default=os.environ.get("UNO_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("UNO_TOKEN"), help="or set UNO_TOKEN")
    parser.add_argument("--event", help="check in for this event (its slug) and play only its tables")
    parser.add_argument("--games", type=int, default=1, help="how many games to play (0: until none is left)")
    parser.add_argument("--wait", type=float, default=30, help="seconds to wait for a table to be ready")
    args = parser.parse_args()
    if not args.token:
        sys.exit("give a token: --token or UNO_TOKEN (make one on /account/tokens/)")
    url = args.server.replace("http", "ws", 1).rstrip("/") + "/ws/bots/stream/"
    played = 0
    async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {args.token}"}) as stream:
        while args.games == 0 or played < args.games:
            try:
                message = json.loads(await asyncio.wait_for(stream.recv(), args.wait))
            except TimeoutError:
                break  # nothing ready for that long
            except websockets.ConnectionClosed:
                sys.exit(f"the server closed the stream: {stream.close_code} {stream.close_reason}")
            if args.event and message.get("event") not in (None, args.event):
                continue  # another event's
            if message["type"] == "checkin_open" and args.event:
                answer = post(args.server, args.token, message["check_in"])
                print(f"check-in for {args.event}: {answer.get('status') or answer.get('error')}")
            elif message["type"] == "table_ready" and (not args.event or message["event"] == args.event):
                where = f"{message['event']} round {message['round']} table {message['table']}" \
                    if message["event"] else message["title"]
                print(f"playing game {message['game']} ({where}), seat {message['seat']}")
                game = await play(args.server, args.token, message)
                played += 1
                print(f"game {message['game']} over: totals {game['totals']}, winners {game['winners']}")
    print(f"played {played} game(s)")


if __name__ == "__main__":
    asyncio.run(main())
