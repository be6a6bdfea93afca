"""The example bot (examples/bot.py) against the real server: a Daphne process serving config.asgi, the bot
run as its own process with nothing but a token and the server's URL. It finds its practice tables
through /api/my-tables/ and plays them to their end."""

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


@pytest.fixture
def live_asgi_settings(live_asgi_settings):
    return {**live_asgi_settings, "LIVE_NEXT_HAND_SECONDS": 0.1}


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
