"""The control room's steps, derived by a pure function from an event's facts at every stage of its life."""

from dataclasses import replace

from tournament import event_steps as es
from tournament.event_steps import EventFacts, RoundFacts, StageFacts, event_steps, next_action

DRAFT = EventFacts(status="draft", list_only=True, list_entries=0, registered=0, claims_pending=0, checked_in=0,
                   checkin_open=False)


def states(facts: EventFacts) -> dict[str, str]:
    return {step.key: step.state for step in event_steps(facts)}


def now_step(facts: EventFacts) -> es.Step:
    steps = event_steps(facts)
    current = [s for s in steps if s.state == es.NOW]
    assert len(current) <= 1
    return current[0] if current else None


def round_one(status: str, **kw) -> RoundFacts:
    values = {"number": 1, "status": status, "tables": 3, "seated": 11, "bots": 1, "tables_running": 0,
              "tables_finished": 0}
    values.update(kw)
    return RoundFacts(**values)


def test_a_list_only_draft_without_its_list_asks_for_the_list():
    step = now_step(DRAFT)
    assert step.key == "list" and step.action.target == es.UPLOAD_LIST
    assert states(DRAFT)["registration"] == es.TO_COME
    assert all(s.action is None for s in event_steps(DRAFT) if s.state != es.NOW)


def test_an_open_event_needs_no_list_and_opens_registration_first():
    facts = replace(DRAFT, list_only=False)
    assert states(facts)["list"] == es.DONE
    step = now_step(facts)
    assert step.key == "registration" and step.action.target == es.OPEN_REGISTRATION and step.action.is_post


def test_list_imported_then_open_registration():
    facts = replace(DRAFT, list_entries=120)
    step = now_step(facts)
    assert step.key == "registration" and next_action(event_steps(facts)).label == "Open registration"
    assert dict(event_steps(facts)[0].counts)["Entries on the list"] == 120


def test_registration_open_then_open_checkin_with_counts():
    facts = replace(DRAFT, list_entries=120, status="registration", registered=40, claims_pending=3)
    step = now_step(facts)
    assert step.key == "checkin" and step.action.target == es.OPEN_CHECKIN and step.action.is_post
    assert dict(step.counts) == {"Checked in": 0, "Not checked in": 40, "Claims pending": 3}
    assert [link.target for link in step.links] == [es.CHECKIN_DESK]
    registration = event_steps(facts)[1]
    assert registration.state == es.DONE and dict(registration.counts)["Registered"] == 40


def test_checkin_open_nobody_yet_goes_to_the_desk():
    facts = replace(DRAFT, list_entries=120, status="registration", registered=40, checkin_open=True)
    step = now_step(facts)
    assert step.key == "checkin" and step.action.target == es.CHECKIN_DESK and not step.action.is_post


def test_someone_checked_in_then_seat_round_one():
    facts = replace(DRAFT, list_entries=120, status="registration", registered=40, checkin_open=True, checked_in=12)
    step = now_step(facts)
    assert step.key == "seated" and step.action.target == es.SEAT_ROUND_ONE
    checkin = event_steps(facts)[2]
    assert checkin.state == es.DONE and checkin.links[0].target == es.CHECKIN_DESK and "Latecomers" in checkin.note


def test_round_one_seated_then_start_it():
    facts = replace(DRAFT, list_entries=120, status="registration", registered=40, checkin_open=True, checked_in=12,
                    round_one=round_one("planned"))
    step = now_step(facts)
    assert step.key == "started" and step.action.target == es.START_ROUND_ONE and step.action.is_post
    seated = next(s for s in event_steps(facts) if s.key == "seated")
    assert dict(seated.counts) == {"Tables": 3, "Players seated": 11, "Bots": 1}
    assert seated.links[0].target == es.SEAT_ROUND_ONE  # the seating can still be rebuilt


def test_round_one_running_is_followed_on_its_page():
    facts = replace(DRAFT, list_entries=120, status="running", registered=40, checked_in=12,
                    round_one=round_one("running", tables_running=2, tables_finished=1, played=7, no_shows=4))
    step = now_step(facts)
    assert step.key == "finished" and step.action.target == es.ROUND_ONE_PAGE
    assert dict(step.counts) == {"Tables running": 2, "Tables finished": 1, "Played so far": 7, "No move yet": 4}
    assert next(s for s in event_steps(facts) if s.key == "next_round").counts == []  # no-shows once it ends
    assert states(facts)["started"] == es.DONE


def test_round_one_finished_then_plan_next_round_with_played_and_no_shows():
    facts = replace(DRAFT, list_entries=120, status="running", registered=40, checked_in=12,
                    round_one=round_one("finished", tables_finished=3, played=9, no_shows=2))
    step = now_step(facts)
    assert step.key == "next_round" and step.action.target == es.PLAN_NEXT_ROUND
    assert dict(step.counts) == {"Played round 1": 9, "No-shows": 2}


def bracket(status="planned", stages=(), **kw) -> RoundFacts:
    values = {"number": 2, "status": status, "tables": 2, "seated": 8, "bots": 0, "tables_running": 0,
              "tables_finished": 0, "stages": stages}
    values.update(kw)
    return RoundFacts(**values)


def after_round_one(**kw) -> EventFacts:
    return replace(DRAFT, list_entries=120, status="running", registered=40, checked_in=12,
                   round_one=round_one("finished", tables_finished=3, played=9, no_shows=2), **kw)


def test_next_round_planned_then_start_stage_one():
    stages = (StageFacts(1, tables=2, started=False, tables_finished=0),
              StageFacts(2, tables=0, started=False, tables_finished=0, is_final=True))
    facts = after_round_one(next_round=bracket(stages=stages))
    step = now_step(facts)
    assert step.key == "stages" and step.action.target == es.START_STAGE and step.action.arg == 1
    assert step.action.label == "Start stage 1"
    assert dict(step.counts) == {"Stage 1": "0 of 2 tables finished", "Stage 2 (final)": "waiting for the stage before"}
    assert states(facts)["next_round"] == es.DONE


def test_a_stage_playing_is_followed_then_the_final_is_started():
    playing = (StageFacts(1, tables=2, started=True, tables_finished=1),
               StageFacts(2, tables=0, started=False, tables_finished=0, is_final=True))
    step = now_step(after_round_one(next_round=bracket("running", playing)))
    assert step.action.target == es.BRACKET_PAGE and step.action.label == "Follow stage 1"
    final_built = (StageFacts(1, tables=2, started=True, tables_finished=2),
                   StageFacts(2, tables=1, started=False, tables_finished=0, is_final=True))
    step = now_step(after_round_one(next_round=bracket("running", final_built)))
    assert step.action.target == es.START_STAGE and step.action.arg == 2


def test_champion_known_then_finish_the_event_then_nothing_left():
    stages = (StageFacts(1, tables=2, started=True, tables_finished=2),
              StageFacts(2, tables=1, started=True, tables_finished=1, is_final=True))
    facts = after_round_one(next_round=bracket("finished", stages), champion="Asha")
    step = now_step(facts)
    assert step.key == "champion" and step.action.target == es.FINISH_EVENT
    assert dict(step.counts) == {"Champion": "Asha"}
    assert states(facts)["stages"] == es.DONE
    finished = replace(facts, status="finished")
    assert set(states(finished).values()) == {es.DONE}
    assert next_action(event_steps(finished)) is None


def test_every_step_is_listed_in_order_and_only_one_is_now():
    keys = [s.key for s in event_steps(DRAFT)]
    assert keys == ["list", "registration", "checkin", "seated", "started", "finished", "next_round", "stages",
                    "champion"]
    for facts in (DRAFT, replace(DRAFT, list_entries=3), after_round_one()):
        assert sum(s.state == es.NOW for s in event_steps(facts)) == 1


def test_registration_opened_before_the_list_stays_done():
    facts = replace(DRAFT, status="registration")
    assert states(facts)["registration"] == es.DONE and now_step(facts).key == "list"
