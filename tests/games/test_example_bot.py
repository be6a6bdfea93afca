"""The example bot (examples/bot.py) against the real server: a Daphne process serving config.asgi, the bot
run as its own process with nothing but a token and the server's URL. It hears of its tables on the bots'
stream and plays them to their end; restarted mid-game, it takes its seat back at its first move."""

import subprocess
import sys
from pathlib import Path

import pytest

from access_tokens.services import create_token
from games.models import LiveGame, LiveMove
from games.services.lifecycle import start_practice_game
from tests.tournament.organizer_factories import make_user

pytestmark = [pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
BOT_TIMEOUT_S = 180
SHORT_GAME_TARGET = 1  # the first hand's winner wins the game: short games, still whole ones


# Server settings per test, beyond the next hand dealt at once.
SERVER_SETTINGS = {
    "test_two_example_bots_check_in_for_a_league_and_play_its_table": {"BOT_STREAM_RECHECK_SECONDS": 0.5},
    # The server's bot answers at once: the bot under test then sends several moves a second in any hand.
    "test_an_example_bot_past_the_rate_limit_waits_and_plays_on": {"LIVE_SOCKET_RATE_LIMIT": [3, 1.0],
                                                                   "LIVE_BOT_THINK_SECONDS": [0.0, 0.0]},
}


@pytest.fixture
def live_asgi_settings(live_asgi_settings, request):
    return {**live_asgi_settings, "LIVE_NEXT_HAND_SECONDS": 0.1,
            **SERVER_SETTINGS.get(request.node.originalname, {})}


def test_the_example_bot_plays_whole_practice_games(live_asgi):
    user = make_user("botwriter")
    games = [start_practice_game(user, preset, 2, with_my_bot=True, target=SHORT_GAME_TARGET)
             for preset in ("uno-official", "ocho-plato")]
    secret = create_token(user, "example bot").secret
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "bot.py"), "--server", live_asgi.url, "--games", "2",
         "--wait", "5"],
        env={"UNO_TOKEN": secret, "PATH": "/usr/bin:/bin"}, cwd=ROOT, capture_output=True, text=True,
        timeout=BOT_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stdout + done.stderr + live_asgi.output()
    assert "played 2 game(s)" in done.stdout, done.stdout
    for game in games:
        game.refresh_from_db()
        assert game.status == LiveGame.Status.FINISHED
        assert f"game {game.pk} over" in done.stdout
        seat0 = LiveMove.objects.filter(live_game=game, seat=0, actor=LiveMove.Actor.PLAYER)
        assert seat0.exists() and not seat0.filter(via_token=False).exists()  # every bot move came by its token
        assert not LiveMove.objects.filter(live_game=game, seat=0, actor=LiveMove.Actor.TIMER).exists()


def test_two_example_bots_check_in_for_a_league_and_play_its_table(live_asgi, monkeypatch):
    """A bot league as the demo makes it: two bots entered, check-in open. Each example bot, started with
    `--event`, hears on the stream that check-in is open and checks itself in; when the organizer starts
    round 1 it is told its table and plays the game to its end. (The organizer acts in this process; on the
    embedded default's in-memory layer the server's streams see it by their backstop look; its nudges are
    left out, as this process's channel layer is not always the server's.)"""
    import time

    from tournament.services import bot_stream_nudges

    monkeypatch.setattr(bot_stream_nudges, "send_after_commit", lambda messages, what: None)

    from tournament.demo_bot_league import load_bot_league
    from tournament.models import Event, Game, Player
    from tournament.services import rounds

    organizer = make_user("leagueorganizer")
    for login in ("asha", "ravi"):
        make_user(login)
    league, entries = load_bot_league(organizer)
    Event.objects.filter(pk=league.pk).update(target_score=SHORT_GAME_TARGET, arrival_grace_seconds=0)
    bots = [subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "bot.py"), "--server", live_asgi.url, "--event", league.slug,
         "--games", "1", "--wait", "60"],
        env={"UNO_TOKEN": entry.token, "PATH": "/usr/bin:/bin"}, cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True) for entry in entries]
    try:
        deadline = time.monotonic() + 60
        while Player.objects.filter(event=league, status=Player.Status.CHECKED_IN).count() < 2:
            assert time.monotonic() < deadline, "the bots did not check in"
            assert all(bot.poll() is None for bot in bots), [bot.stdout.read() for bot in bots]
            time.sleep(0.2)
        league.refresh_from_db()
        plan = rounds.plan_first_round(league, seed=1, source=rounds.CHECKED_IN)
        rounds.start_round(rounds.create_first_round(league, plan, organizer), organizer)
        outputs = [bot.communicate(timeout=BOT_TIMEOUT_S)[0] for bot in bots]
    finally:
        for bot in bots:
            bot.kill()
    assert all(bot.returncode == 0 for bot in bots), outputs + [live_asgi.output()]
    game = Game.objects.get(table__round__event=league)
    assert game.status == Game.Status.FINISHED, outputs
    for output in outputs:
        assert "check-in for chematoodlon-bot-league: checked_in" in output, output
        assert f"{league.slug} round 1 table 1" in output and "played 1 game(s)" in output, output
    moves = LiveMove.objects.filter(live_game__game=game, actor=LiveMove.Actor.PLAYER)
    assert moves.exists() and not moves.filter(via_token=False).exists()  # every move came by a token


def node_bot() -> list[str]:
    """`node examples/js/bot.js`, when Node and the example's `ws` (make install) are here: in CI they must be."""
    import os
    import shutil

    node = shutil.which("node")
    if node and (ROOT / "examples" / "js" / "node_modules" / "ws").is_dir():
        return [node, str(ROOT / "examples" / "js" / "bot.js")]
    message = "the JavaScript example bot needs node and its ws package: run make install (npm)"
    if os.environ.get("CI") or os.environ.get("REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


def test_the_javascript_example_bot_plays_whole_practice_games(live_asgi):
    """The Node starter kit (examples/js/bot.js, the `ws` package) does what the Python one does: told its
    tables by the stream, it plays them to their end through its token."""
    command = node_bot()
    user = make_user("jswriter")
    games = [start_practice_game(user, preset, 2, with_my_bot=True, target=SHORT_GAME_TARGET)
             for preset in ("uno-official", "ocho-cards")]
    secret = create_token(user, "js bot").secret
    done = subprocess.run([*command, "--server", live_asgi.url, "--games", "2", "--wait", "5"],
                          env={"UNO_TOKEN": secret, "PATH": "/usr/bin:/bin"}, cwd=ROOT, capture_output=True,
                          text=True, timeout=BOT_TIMEOUT_S)
    assert done.returncode == 0, done.stdout + done.stderr + live_asgi.output()
    assert "played 2 game(s)" in done.stdout, done.stdout
    for game in games:
        game.refresh_from_db()
        assert game.status == LiveGame.Status.FINISHED and f"game {game.pk} over" in done.stdout
        seat0 = LiveMove.objects.filter(live_game=game, seat=0, actor=LiveMove.Actor.PLAYER)
        assert seat0.exists() and not seat0.filter(via_token=False).exists()


def test_the_javascript_example_bot_refuses_bad_options():
    command = node_bot()
    done = subprocess.run([*command, "--colour", "red"], env={"UNO_TOKEN": "x", "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "unknown option --colour" in done.stderr


@pytest.mark.parametrize("kit", ["python", "javascript"])
def test_an_example_bot_past_the_rate_limit_waits_and_plays_on(live_asgi, kit):
    """A bot faster than its socket's rate limit (two bots playing each other are; here the limit is 3 a
    second) is answered `rate_limited`: the example waits a second and looks again, instead of asking at
    once and being closed for flooding (4429)."""
    command = [sys.executable, str(ROOT / "examples" / "bot.py")] if kit == "python" else node_bot()
    user = make_user(f"fast{kit}")
    game = start_practice_game(user, "uno-official", 1, with_my_bot=True, target=SHORT_GAME_TARGET)
    secret = create_token(user, "fast bot").secret
    done = subprocess.run([*command, "--server", live_asgi.url, "--games", "1", "--wait", "5"],
                          env={"UNO_TOKEN": secret, "PATH": "/usr/bin:/bin"}, cwd=ROOT, capture_output=True,
                          text=True, timeout=BOT_TIMEOUT_S)
    assert done.returncode == 0, done.stdout + done.stderr + live_asgi.output()
    assert "refused: rate_limited" in done.stdout and "4429" not in done.stdout + done.stderr
    game.refresh_from_db()
    assert game.status == LiveGame.Status.FINISHED and "played 1 game(s)" in done.stdout


def test_a_restarted_example_bot_takes_its_seat_back_at_its_first_move(live_asgi):
    """A student's bot plays its seat at a tournament table, dies mid-game and the server's takeover bot
    plays the seat; started again, the bot's first move is applied (its move ids never repeat those of its
    earlier run, so none is refused `already_played` or `id_reused`) and the seat is the bot's again."""
    import time

    from tests.games.factories import make_tournament_game
    from tournament.services.live_tables import live_game_for

    game, (user,) = make_tournament_game(players=1, bots=2, turn_seconds=1, missed_turns_before_bot=1)
    live = live_game_for(game, seed=5)
    secret = create_token(user, "restarted bot").secret
    seat0 = LiveMove.objects.filter(live_game=live, seat=0)

    def start_bot() -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "bot.py"), "--server", live_asgi.url, "--games", "1",
             "--wait", "60"],
            env={"UNO_TOKEN": secret, "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"},  # its output, killed
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def wait_for(moves, what: str, bot: subprocess.Popen | None = None) -> LiveMove:
        deadline = time.monotonic() + 60
        while not moves.exists():
            assert time.monotonic() < deadline, f"no {what}: " + live_asgi.output()
            assert bot is None or bot.poll() is None, bot.stdout.read()
            time.sleep(0.1)
        return moves.order_by("version").first()

    first_run = start_bot()
    try:
        wait_for(seat0.filter(actor=LiveMove.Actor.PLAYER, via_token=True), "move by the bot", first_run)
    finally:
        first_run.kill()
        first_run.communicate(timeout=30)
    killed_at = LiveMove.objects.filter(live_game=live).order_by("-version").values_list("version", flat=True)[0]
    took_over = wait_for(seat0.filter(actor=LiveMove.Actor.BOT, version__gt=killed_at), "takeover bot's move")
    live.refresh_from_db()
    assert live.bot_takeover[0] and live.status == LiveGame.Status.RUNNING

    second_run = start_bot()
    try:
        back = wait_for(seat0.filter(actor=LiveMove.Actor.PLAYER, version__gt=took_over.version),
                        "move by the restarted bot", second_run)
        live.refresh_from_db()
        assert not live.bot_takeover[0]  # the seat is the bot's again
    finally:
        second_run.kill()
        output = second_run.communicate(timeout=30)[0]
    assert back.via_token and back.client_move_id
    assert not seat0.filter(version__lte=killed_at, client_move_id=back.client_move_id).exists()
    assert "playing game" in output and "already_played" not in output and "id_reused" not in output, output
