"""An example bot: finds its table through the JSON API and plays whole games over the websocket.

    UNO_TOKEN=uno_... python examples/bot.py --server http://127.0.0.1:8000

It needs a personal access token (made on /account/tokens/) and a table: a practice game started with
"I'll play with my bot", or a bot-league game. Standard library plus `websockets`. docs/bots.md walks
through it; `choose` is the strategy to change.
"""

import argparse
import asyncio
import itertools
import json
import os
import random
import sys
import urllib.error
import urllib.request

import websockets


def choose(view: dict) -> dict | None:
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


def my_tables(server: str, token: str) -> list[dict]:
    request = urllib.request.Request(server.rstrip("/") + "/api/my-tables/",
                                     headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)["tables"]
    except urllib.error.HTTPError as error:
        sys.exit(f"the API refused: {error.code} {json.load(error).get('error')}")


async def play(server: str, token: str, table: dict) -> dict:
    """Play the game at `table` until it is finished; its last `game` (totals, winners)."""
    url = server.replace("http", "ws", 1).rstrip("/") + table["ws_path"]
    ids = itertools.count(1)
    async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        acted = None  # the version we last sent a move for: one move per version
        async for text in socket:
            message = json.loads(text)
            kind = message["type"]
            if kind == "error":
                print(f"  refused: {message['code']}: {message['message']}")
                if message["code"] not in ("stale", "already_played"):  # a stale move is followed by a state
                    acted = None
                    await socket.send(json.dumps({"type": "sync"}))  # look again, then choose again
                continue
            if kind not in ("state", "update"):
                continue  # ack, pong, presence
            game, view, version = message["game"], message["view"], message["version"]
            if kind == "update" and message["by"]["actor"] == "system":
                print(f"  hand {game['hand_number']} dealt; totals {game['totals']}")
            if game["status"] == "finished":
                return game
            action = choose(view) if view and acted != version else None
            if action is not None:
                acted = version
                await socket.send(json.dumps({"type": "move", "version": version, "action": action,
                                              "id": f"bot-{next(ids)}"}))
    raise SystemExit(f"the server closed the socket: {socket.close_code} {socket.close_reason}")


async def main() -> None:
    parser = argparse.ArgumentParser(description="Play your tables with a bot.")
    parser.add_argument("--server", default=os.environ.get("UNO_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("UNO_TOKEN"), help="or set UNO_TOKEN")
    parser.add_argument("--games", type=int, default=1, help="how many games to play (0: until none is left)")
    parser.add_argument("--wait", type=float, default=30, help="seconds to wait for a table to appear")
    args = parser.parse_args()
    if not args.token:
        sys.exit("give a token: --token or UNO_TOKEN (make one on /account/tokens/)")
    played, waited = 0, 0.0
    while args.games == 0 or played < args.games:
        tables = [t for t in my_tables(args.server, args.token) if t["status"] == "running" and t["seat"] is not None]
        if not tables:
            if waited >= args.wait:
                break
            await asyncio.sleep(1)
            waited += 1
            continue
        table, waited = tables[0], 0.0
        print(f"playing game {table['game']} ({table['title']}), seat {table['seat']}")
        game = await play(args.server, args.token, table)
        played += 1
        print(f"game {table['game']} over: totals {game['totals']}, winners {game['winners']}")
    print(f"played {played} game(s)")


if __name__ == "__main__":
    asyncio.run(main())
