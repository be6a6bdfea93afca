"""An event's life as steps, derived from facts about it: what is done, what is now, what is to come.

Pure: no Django, no queries. ``tournament.services.event_facts`` reads the facts from the database; the
control room (``tournament.admin.control_room_views``) shows the steps and turns each action's ``target``
into a link or a form. Every step has its counts; the one step that is *now* carries the one action that
comes next. A step already done may keep a link (the check-in desk stays open for latecomers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

DONE, NOW, TO_COME = "done", "now", "to come"

# Action targets: the view maps each to a page (link) or a service call (post).
UPLOAD_LIST = "upload_list"
OPEN_REGISTRATION = "open_registration"
OPEN_CHECKIN = "open_checkin"
CHECKIN_DESK = "checkin_desk"
SEAT_ROUND_ONE = "seat_round_one"
START_ROUND_ONE = "start_round_one"
ROUND_ONE_PAGE = "round_one_page"
PLAN_NEXT_ROUND = "plan_next_round"
BRACKET_PAGE = "bracket_page"
START_STAGE = "start_stage"
FINISH_EVENT = "finish_event"
RESULTS_PAGE = "results_page"
CERTIFICATES = "certificates"
POSTS = frozenset({OPEN_REGISTRATION, OPEN_CHECKIN, START_ROUND_ONE, START_STAGE, FINISH_EVENT})


@dataclass(frozen=True)
class StageFacts:
    number: int
    tables: int  # 0 until it is built (its entrants known)
    started: bool
    tables_finished: int
    is_final: bool = False


@dataclass(frozen=True)
class RoundFacts:
    """Round one (tables) or the round after it (a bracket)."""

    number: int
    status: str  # planned / running / finished
    tables: int
    seated: int  # players (not bots) with a seat
    bots: int
    tables_running: int
    tables_finished: int
    played: int = 0  # players who took part by their own moves (or a hand recorded for them)
    no_shows: int = 0
    stages: tuple[StageFacts, ...] = ()


@dataclass(frozen=True)
class EventFacts:
    status: str  # draft / registration / running / finished
    list_only: bool
    list_entries: int
    registered: int  # active players: registered or checked in
    claims_pending: int
    checked_in: int
    checkin_open: bool
    round_one: RoundFacts | None = None
    next_round: RoundFacts | None = None
    champion: str = ""


@dataclass
class Action:
    label: str
    target: str
    arg: int | None = None  # the stage number of START_STAGE
    url: str = ""  # filled in by the view for a link

    @property
    def is_post(self) -> bool:
        return self.target in POSTS


@dataclass
class Step:
    key: str
    title: str
    state: str = TO_COME
    counts: list[tuple[str, object]] = field(default_factory=list)
    note: str = ""
    action: Action | None = None  # only on the step that is now
    links: list[Action] = field(default_factory=list)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def event_steps(facts: EventFacts) -> list[Step]:
    """The steps of the event in order, each with its state; exactly one is now until the event is finished."""
    steps = [_list_step(facts), _registration_step(facts), _checkin_step(facts), *_round_one_steps(facts),
             _next_round_step(facts), _stages_step(facts), _champion_step(facts)]
    _settle(steps)
    return steps


def next_action(steps: list[Step]) -> Action | None:
    """The one action that comes next: the action of the step that is now."""
    return next((s.action for s in steps if s.state == NOW), None)


def _settle(steps: list[Step]) -> None:
    """The first step not done is now (its action kept); every other step not done is to come (no action).
    A step the data shows done stays done wherever it is (registration opened before the list came)."""
    now_seen = False
    for step in steps:
        if step.state == DONE:
            step.action = None
        elif not now_seen:
            step.state, now_seen = NOW, True
        else:
            step.state, step.action = TO_COME, None


def _list_step(f: EventFacts) -> Step:
    step = Step("list", "Eligibility list imported", counts=[("Entries on the list", f.list_entries)])
    if not f.list_only:
        step.state, step.note, step.counts = DONE, "Open to everyone: no list needed.", []
        return step
    step.links = [Action("Eligibility list", UPLOAD_LIST)]
    if f.list_entries:
        step.state = DONE
    else:
        step.action = Action("Upload the eligibility list", UPLOAD_LIST)
        step.note = "Only students on the list can register: upload it first (a CSV file)."
    return step


def _registration_step(f: EventFacts) -> Step:
    step = Step("registration", "Registration open",
                counts=[("Registered", f.registered), ("Claims pending", f.claims_pending)])
    if f.status != "draft":
        step.state = DONE
    else:
        step.action = Action("Open registration", OPEN_REGISTRATION)
        step.note = "The event is a draft: students see it once registration opens."
    return step


def _checkin_step(f: EventFacts) -> Step:
    step = Step("checkin", "Check-in", counts=[("Checked in", f.checked_in),
                                               ("Not checked in", f.registered - f.checked_in),
                                               ("Claims pending", f.claims_pending)])
    if f.status != "draft":
        step.links = [Action("Check-in desk", CHECKIN_DESK)]
    if f.round_one is not None or (f.checkin_open and f.checked_in):
        step.state = DONE
        if f.round_one is None:
            step.note = "Latecomers still check in at the desk until round one is seated."
    elif not f.checkin_open:
        step.action = Action("Open check-in", OPEN_CHECKIN)
        step.note = "Students check themselves in on their phones, or at the desk."
    else:
        step.action = Action("Check students in", CHECKIN_DESK)
    return step


def _round_one_steps(f: EventFacts) -> list[Step]:
    r = f.round_one
    seated = Step("seated", "Round one seated")
    started = Step("started", "Round one started")
    finished = Step("finished", "Round one finished")
    if r is None:
        seated.action = Action("Seat round 1", SEAT_ROUND_ONE)
        seated.note = f"Seats the {_plural(f.checked_in, 'checked-in player')} at tables (preview first)."
        return [seated, started, finished]
    seated.state = DONE
    seated.counts = [("Tables", r.tables), ("Players seated", r.seated), ("Bots", r.bots)]
    tables = [("Tables running", r.tables_running), ("Tables finished", r.tables_finished)]
    if r.status == "planned":
        seated.links = [Action("Rebuild the seating", SEAT_ROUND_ONE)]
        started.action = Action("Start round 1", START_ROUND_ONE)
        started.links = [Action("Round 1's tables", ROUND_ONE_PAGE)]
        return [seated, started, finished]
    started.state = DONE
    started.links = [Action("Round 1's tables", ROUND_ONE_PAGE)]
    if r.status == "finished":
        finished.state = DONE
        finished.counts = [*tables, ("Played", r.played), ("No-shows", r.no_shows)]
    else:
        finished.counts = [*tables, ("Played so far", r.played), ("No move yet", r.no_shows)]
        finished.action = Action("Follow round 1", ROUND_ONE_PAGE)
        finished.note = "The round finishes when every table's game is finished."
    return [seated, started, finished]


def _next_round_step(f: EventFacts) -> Step:
    step = Step("next_round", "Next round planned")
    r = f.round_one
    if r is not None and r.status == "finished":
        step.counts = [("Played round 1", r.played), ("No-shows", r.no_shows)]
    if f.next_round is not None:
        step.state = DONE
        step.counts = [*step.counts, ("In the bracket", f.next_round.seated)]
    else:
        step.action = Action("Plan next round", PLAN_NEXT_ROUND)
        step.note = "The players who took part in round one go on; no-shows are out unless you add one back."
    return step


def _stages_step(f: EventFacts) -> Step:
    step = Step("stages", "Stages")
    r = f.next_round
    if r is None:
        return step
    step.counts = [(f"Stage {s.number}{' (final)' if s.is_final else ''}",
                    f"{s.tables_finished} of {_plural(s.tables, 'table')} finished" if s.tables
                    else "waiting for the stage before") for s in r.stages]
    step.links = [Action(f"Round {r.number}: bracket", BRACKET_PAGE)]
    if f.champion or r.status == "finished":
        step.state = DONE
        return step
    waiting = next((s for s in r.stages if s.tables and not s.started), None)
    running = next((s for s in r.stages if s.started and s.tables_finished < s.tables), None)
    if running is None and waiting is not None:
        step.action = Action(f"Start stage {waiting.number}", START_STAGE, waiting.number)
    else:
        step.action = Action(f"Follow stage {running.number}" if running else "Open the bracket", BRACKET_PAGE)
    return step


def _champion_step(f: EventFacts) -> Step:
    step = Step("champion", "Champion")
    if not f.champion:
        return step
    step.counts = [("Champion", f.champion)]
    step.links = [Action("Results page", RESULTS_PAGE), Action("Certificates and results sheet (PDF)", CERTIFICATES)]
    if f.status == "finished":
        step.state = DONE
    else:
        step.action = Action("Mark the event finished", FINISH_EVENT)
        step.note = "Finishing the event closes it: nobody joins or is reinstated any more."
    return step
