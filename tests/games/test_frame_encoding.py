"""Frames are compact JSON with non-ASCII text as UTF-8, as the standard library writes it with the same
settings (games/frame_encoding.py encodes them with orjson)."""

import json

from games.frame_encoding import encode


def test_a_frame_is_the_compact_json_the_standard_library_writes():
    frame = {"type": "update", "version": 12, "by": {"seat": 1, "actor": "player"},
             "events": [{"kind": "played", "data": {"seat": 1, "card": "R5", "colour": None}}],
             "view": {"players": {"1": {"seat": 1, "cards": 6, "uno": False}}, "legal_actions": [],
                      "reveals": [{"of": 2, "cards": ["W4"], "reason": "xray"}]},
             "game": {"seats": [{"name": "Ananya Dás ✓ 🎉", "total": -3}], "hand_seats": (0, 1, 2)},
             "deadline": "2026-11-25T01:00:00+00:00", "now": None}
    text = encode(frame)
    assert text == json.dumps(frame, separators=(",", ":"), ensure_ascii=False)
    assert "Dás ✓ 🎉" in text and json.loads(text)["game"]["hand_seats"] == [0, 1, 2]


def test_keys_that_are_not_strings_become_strings_as_the_standard_library_makes_them():
    assert encode({"items": {1: "a", 3: None}}) == '{"items":{"1":"a","3":null}}'
