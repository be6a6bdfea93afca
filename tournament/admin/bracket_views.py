"""Organizer pages of a bracket round: "Plan next round" (options → preview → confirm) and the bracket's
own page (start stages, record a tiebreak hand, decide a table's open places, replace a withdrawn player).

Thin, like the other custom admin pages: ``scoping`` decides who may see what, the bracket service does
the work, its ``BracketError`` messages are shown as they are. Registered under the event admin's URLs
by ``urls(model_admin)``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.generators.brackets import GAME_FORMATS, STANDARD, BracketError
from tournament.models import BracketStage, Player, Round
from tournament.services import (
    advancing,
    bracket_stages,
    bracket_view,
    next_round,
    open_places,
    participation,
    replacements,
    stage_results,
    tiebreaks,
)
from tournament.services.next_round import FIELD_METHODS, TOP, NextRoundOptions
from tournament.services.rounds import RoundError
from tournament.services.stage_results import DRAW


def urls(model_admin) -> list:
    wrap = model_admin.admin_site.admin_view
    return [
        path("<int:event_id>/next-round/", wrap(lambda request, event_id: plan_next_round(
            model_admin, request, event_id)), name="tournament_event_plan_next_round"),
        path("<int:event_id>/rounds/<int:round_id>/bracket/", wrap(lambda request, event_id, round_id: bracket_round(
            model_admin, request, event_id, round_id)), name="tournament_event_bracket"),
    ]


class NextRoundForm(forms.Form):
    method = forms.ChoiceField(choices=list(FIELD_METHODS.items()), initial=TOP, label="Who goes on")
    field = forms.IntegerField(min_value=2, max_value=5000, label="Players in the bracket")
    per_table = forms.IntegerField(min_value=1, max_value=9, initial=1, required=False,
                                   label="From every table of the round (with 'top of every table')")
    advance = forms.CharField(required=False, max_length=60, label="Go on from each table, stage by stage",
                              help_text="For example '2, 1': top 2 of each table in stage 1, then 1. The last "
                                        "number repeats; empty: the fewest that keep every stage seatable.")
    format_first = forms.ChoiceField(choices=list(GAME_FORMATS.items()), initial=STANDARD, label="Stage 1 plays")
    format_later = forms.ChoiceField(choices=list(GAME_FORMATS.items()), initial=STANDARD,
                                     label="Later stages and the final play")
    tie_method = forms.ChoiceField(choices=BracketStage.TieMethod.choices, initial=DRAW,
                                   label="Ties on every tiebreak are broken by")
    draw_seed = forms.IntegerField(required=False, min_value=1, max_value=2**62, widget=forms.HiddenInput)

    def __init__(self, *args, no_shows=(), **kwargs) -> None:
        """``no_shows``: the previous round's no-shows still in the event; each gets an "add back" box and
        a reason (``participation.NoShow``)."""
        super().__init__(*args, **kwargs)
        self.no_shows = list(no_shows)
        for no_show in self.no_shows:
            pid = no_show.player_id
            box, why = f"Add {no_show.display_name} back", f"Why {no_show.display_name} is added back"
            self.fields[f"add_back_{pid}"] = forms.BooleanField(
                required=False, label=box, widget=forms.CheckboxInput(attrs={"aria-label": box}))
            self.fields[f"add_back_reason_{pid}"] = forms.CharField(
                required=False, max_length=500, label=why,
                widget=forms.TextInput(attrs={"aria-label": why, "size": 50}))

    def main_fields(self) -> list:
        return [f for f in self.visible_fields() if not f.name.startswith("add_back_")]

    def add_back_rows(self) -> list[tuple]:
        """(no-show, their box, their reason) for the template."""
        return [(n, self[f"add_back_{n.player_id}"], self[f"add_back_reason_{n.player_id}"]) for n in self.no_shows]

    def clean(self):
        data = super().clean()
        for no_show in self.no_shows:
            pid = no_show.player_id
            if data.get(f"add_back_{pid}") and not (data.get(f"add_back_reason_{pid}") or "").strip():
                self.add_error(f"add_back_reason_{pid}", f"Give a reason for adding {no_show.display_name} back: "
                                                         "it is written to the audit log with your name.")
        return data

    def clean_advance(self) -> list[int]:
        text = self.cleaned_data["advance"].replace(" ", "")
        if not text:
            return []
        try:
            values = [int(part) for part in text.split(",") if part]
        except ValueError:
            raise forms.ValidationError("Give whole numbers separated by commas, like '2, 1'.") from None
        if any(v < 1 or v > 9 for v in values):
            raise forms.ValidationError("Each number must be between 1 and 9.")
        return values

    def options(self, tie_orders=None) -> NextRoundOptions:
        data = self.cleaned_data
        return NextRoundOptions(field=data["field"], method=data["method"], per_table=data["per_table"] or 1,
                                advance=data["advance"], formats=[data["format_first"], data["format_later"]],
                                tie_method=data["tie_method"], draw_seed=data["draw_seed"],
                                tie_orders=tie_orders or {},
                                added_back={n.player_id: data[f"add_back_reason_{n.player_id}"].strip()
                                            for n in self.no_shows if data.get(f"add_back_{n.player_id}")})


def _context(model_admin, request, event, title, **extra):
    return {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
            "original": event, "event": event, "title": title, **extra}


def _tie_orders(post, plan) -> dict[str, list[int]]:
    """Orders typed for tiebreak hands: ``tie_place_<player id>`` = place in the hand (1 = won it)."""
    orders = {}
    for tie, _table in plan.ties:
        places = {}
        for pid in tie.players:
            value = post.get(f"tie_place_{pid}", "")
            if value.isdigit():
                places[pid] = int(value)
        if len(places) == len(tie.players) and len(set(places.values())) == len(places):
            orders[tie.key] = sorted(tie.players, key=lambda p: places[p])
    return orders


def plan_next_round(model_admin, request, event_id):
    """Options (proposed from who played) → preview (field in/out with reasons, stages, tables) → confirm."""
    event = event_for_organizer(request, event_id)
    require_permission(request, Round, "change")
    data = request.POST if request.method == "POST" else (request.GET if "field" in request.GET else None)
    plan = None
    initial = {}
    taking_part = None
    try:
        defaults = next_round.default_options(event)
        initial = {"field": defaults.field, "advance": ", ".join(map(str, defaults.advance))}
        taking_part = participation.round_participation(next_round.previous_round(event)[0])
    except BracketError as error:
        messages.error(request, str(error))
        if data is None:
            return TemplateResponse(request, "admin/tournament/plan_next_round.html",
                                    _context(model_admin, request, event, f"Plan the next round of {event}",
                                             form=None, plan=None))
    addable = [n for n in taking_part.no_shows if n.status in bracket_view.ACTIVE] if taking_part else []
    form = NextRoundForm(data, initial=initial, no_shows=addable)
    if form.is_bound and form.is_valid():
        try:
            options = form.options()
            if "redraw" in (data or {}):
                options.draw_seed = None
            plan = next_round.plan_next_round(event, options)
            if options.tie_method == stage_results.HAND and plan.ties and data:
                options = form.options(_tie_orders(data, plan))
                options.draw_seed = plan.options.draw_seed
                plan = next_round.plan_next_round(event, options)
            if request.method == "POST" and "confirm" in request.POST and plan.confirmable:
                expected = [int(v) for v in request.POST.get("expected_field", "").split(",") if v.isdigit()]
                round_ = next_round.create_bracket_round(event, options, expected, request.user)
                messages.success(request, f"Round {round_.number} created: a bracket of {len(plan.field_ids)}.")
                return redirect("admin:tournament_event_bracket", event.pk, round_.pk)
            form = NextRoundForm(initial={**form.cleaned_data, "advance": ", ".join(map(str, options.advance)),
                                          "draw_seed": plan.options.draw_seed}, no_shows=addable)
        except BracketError as error:
            messages.error(request, str(error))
    context = _context(model_admin, request, event, f"Plan the next round of {event}", form=form, plan=plan,
                       stage_one=_stage_one(plan), ties=_tie_rows(plan), taking_part=taking_part)
    return TemplateResponse(request, "admin/tournament/plan_next_round.html", context)


def _stage_one(plan) -> list[list[Player]]:
    if not plan or not plan.stage_one:
        return []
    names = {line.row.player_id: line for line in plan.lines}
    return [[names[pid] for pid in table] for table in plan.stage_one.tables]


def _tie_rows(plan) -> list[dict]:
    if not plan:
        return []
    names = {line.row.player_id: line.row.display_name for line in plan.lines}
    return [{"tie": tie, "table": table, "players": [(pid, names[pid]) for pid in sorted(tie.players)],
             "order": [names[pid] for pid in tie.order] if tie.order else None}
            for tie, table in plan.ties]


def bracket_round(model_admin, request, event_id, round_id):
    """A bracket round for its organizers: stages and tables with scores; start a stage, record a
    tiebreak hand, replace a withdrawn player."""
    event = event_for_organizer(request, event_id, action="view")
    require_permission(request, Round, "view")
    round_ = Round.objects.filter(event=event, pk=round_id, kind=Round.Kind.BRACKET).select_related("event").first()
    if round_ is None:
        raise Http404("No such bracket round in this event.")
    if request.method == "POST":
        event_for_organizer(request, event_id)
        require_permission(request, Round, "change")
        try:
            _bracket_action(request, round_)
        except (BracketError, RoundError) as error:  # a stage that cannot start says why (RoundError)
            messages.error(request, str(error))
        return redirect(request.path)
    state = bracket_view.load_bracket(round_)
    waiting = {}
    for stage_state in state.stages:
        if stage_results.stage_advancers(state, stage_state) is None and stage_state.tables:
            waiting[stage_state.stage.number] = stage_results.waiting_for(stage_state)
    for stage_state in state.stages:
        stage_state.waiting = waiting.get(stage_state.stage.number, "")
    removable = [p for p in state.players.values() if p.status not in bracket_view.ACTIVE]
    context = _context(model_admin, request, event, f"Round {round_.number} of {event}: bracket", round=round_,
                       state=state, removable=removable, conflicts=advancing.started_stage_conflicts(round_),
                       public_url=reverse("bracket", args=[event.slug, round_.number]),
                       can_change=request.user.has_perm("tournament.change_round"))
    return TemplateResponse(request, "admin/tournament/bracket_round.html", context)


def _bracket_action(request, round_: Round) -> None:
    post = request.POST
    if "start_stage" in post:
        number = _int(post["start_stage"])
        started = bracket_stages.start_stage(round_, number, request.user)
        messages.success(request, f"Stage {number} started ({started} game{'s' * (started != 1)}).")
    elif "advance" in post:
        _report(request, advancing.advance_bracket(round_))
    elif "tiebreak" in post:
        stage_number, table_number = (_int(v) for v in post["tiebreak"].split(":", 1)) if ":" in post[
            "tiebreak"] else (0, 0)
        places = {}
        for key, value in post.items():
            if key.startswith("tie_place_") and value.strip():
                places[_int(key.removeprefix("tie_place_"))] = _int(value)
        if len(set(places.values())) != len(places):
            raise BracketError("Give every tied player a different place.")
        order = sorted(places, key=lambda p: places[p])
        result = tiebreaks.record_tiebreak_hand(round_, stage_number, table_number, order, request.user)
        messages.success(request, "Tiebreak hand recorded.")
        _report(request, result)
    elif "open_place" in post:
        stage_number, _, table_number = post["open_place"].partition(":")
        choice = post.get("sent_on", "")
        result = open_places.decide_open_place(round_, _int(stage_number), _int(table_number),
                                               None if choice == "bye" else _int(choice),
                                               post.get("reason", ""), request.user)
        messages.success(request, "Decision recorded.")
        _report(request, result)
    elif "replace" in post:
        player = Player.objects.filter(event=round_.event, pk=_int(post["replace"])).first()
        if player is None:
            raise BracketError("No such player in this event.")
        replacement = replacements.replace_player(round_, player, request.user, post.get("reason", ""))
        messages.success(request, f"{player} replaced by {replacement}." if replacement else
                         f"{player} replaced by the next player of their table.")
    else:
        raise BracketError("Unknown action.")


def _report(request, result: advancing.AdvanceResult) -> None:
    """What advancing the bracket did, and what it is waiting for (tables still playing, tiebreaks)."""
    done = [f"Stage {n} seated." for n in result.built] + [f"Stage {n}'s tables removed (the entrants changed)."
                                                          for n in result.removed]
    done += [f"Partner rotation {text} started." for text in result.blocks]
    done += [f"Reseated after a corrected result: {text}" for text in result.reseated]
    if result.champion is not None:
        done.append(f"Champion: {Player.objects.get(pk=result.champion)}.")
    for text in result.conflicts:
        messages.error(request, f"Not up to date: {text}")
    if done or not result.conflicts:
        messages.success(request, " ".join(done) or "The bracket is up to date.")
    for text in result.waiting:
        messages.warning(request, f"Waiting: {text}")


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BracketError(f"{value!r} is not a number.") from None
