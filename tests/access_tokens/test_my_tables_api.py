"""`/api/my-tables/`: the token's user's tournament and practice tables; a clear 401 otherwise."""

import pytest
from django.test import Client

from access_tokens.services import create_token, revoke_token
from games.services.lifecycle import start_practice_game
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_user

pytestmark = pytest.mark.django_db
URL = "/api/my-tables/"


def get(token=None, header=None, **extra):
    if token is not None:
        header = f"Bearer {token}"
    if header is not None:
        extra["HTTP_AUTHORIZATION"] = header
    return Client().get(URL, **extra)


def test_without_a_good_token_the_answer_is_401_json_with_the_reason():
    user = make_user("api1")
    made = create_token(user, "bot")
    cases = {
        None: "no access token",
        "Basic abc": "malformed",
        "Bearer": "malformed",
        "Bearer a b": "malformed",
        "Bearer uno_not-a-token": "unknown or revoked",
        "Bearer " + "x" * 10_000: "unknown or revoked",
    }
    for header, reason in cases.items():
        response = get(header=header)
        assert response.status_code == 401, header
        assert reason in response.json()["error"], header
        assert response["WWW-Authenticate"].startswith("Bearer")
    revoke_token(user, made.token.pk)
    response = get(made.secret)
    assert response.status_code == 401 and "revoked" in response.json()["error"]


def test_a_browser_session_is_not_a_token():
    client = Client()
    client.force_login(make_user("api2"))
    assert client.get(URL).status_code == 401


def test_the_tables_of_the_token_user_only():
    game, users = make_tournament_game(players=3)
    student = users[1]
    secret = create_token(student, "bot").secret
    practice = start_practice_game(student, "uno-official", 2, with_my_bot=True)
    start_practice_game(users[0], "uno-official", 2)  # someone else's
    response = get(secret)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["user"] == student.username
    tables = body["tables"]
    assert len(tables) == 2
    tournament, mine = tables
    assert tournament["kind"] == "tournament" and tournament["seat"] == 1 and tournament["status"] == "running"
    assert tournament["rules"] == "uno-official" and tournament["event"] == game.table.round.event.slug
    assert tournament["ws_path"] == f"/ws/games/{game.live.pk}/" and tournament["bot_seat"] is False
    assert (tournament["round"], tournament["stage"], tournament["table"]) == (1, None, 1)
    assert mine == {"game": practice.pk, "kind": "practice", "title": practice.title, "seat": 0,
                    "status": "running", "rules": "uno-official", "bot_seat": True, "event": None,
                    "round": None, "stage": None, "table": None,
                    "ws_path": f"/ws/games/{practice.pk}/", "url": f"/play/tables/{practice.pk}/"}
    assert Client().post(URL, HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 405  # no CSRF: a clear 405


def test_finished_tournament_games_are_not_listed():
    game, users = make_tournament_game(players=3)
    game.status = "finished"
    game.save()
    assert get(create_token(users[0], "bot").secret).json()["tables"] == []


def test_a_token_that_may_not_read_tables_gets_403():
    user = make_user("api9")
    play_only = create_token(user, "player", ["tables:play"])
    response = get(play_only.secret)
    assert response.status_code == 403 and "tables:read" in response.json()["error"]
    assert get(create_token(user, "reader", ["tables:read"]).secret).status_code == 200
