"""The first round's seating page: preview (kept on the server as a draft), swap two players, confirm.

Every form on the page is small whatever the number of players: the preview's options, a swap (two
players and the draft's version) and the confirm (the version alone). The page lists each table's players
as text and the players once in each of the swap form's two selects, built here rather than by widget
templates so a round of a thousand players renders in a fraction of a second.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from tournament.admin.event_views import _context
from tournament.admin.forms import DraftVersionForm, SeatingOptionsForm, SwapForm
from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.generators.seating import BOT, SeatingError
from tournament.models import Player, Round
from tournament.services import round_drafts, rounds


def first_round(model_admin, request, event_id):
    """Build round 1: options → preview (a draft) → swap players → confirm."""
    event = event_for_organizer(request, event_id)
    require_permission(request, Round, "change")
    if request.method == "POST":
        return _act(request, event)
    draft = round_drafts.current_draft(event)
    initial = {"source": rounds.default_source(event)}
    if draft:
        initial = {"seed": draft.seed, "source": draft.source, "fill_with_bots": draft.fill_with_bots,
                   "use_seeding": draft.use_seeding}
    context = _context(model_admin, request, event, f"First round of {event}",
                       options=SeatingOptionsForm(initial=initial), existing=rounds.first_round(event), draft=draft)
    if draft:
        context.update(_preview(event, draft))
    return TemplateResponse(request, "admin/tournament/first_round.html", context)


def _act(request, event):
    post = request.POST
    try:
        if "confirm" in post:
            form = DraftVersionForm(post)
            if not form.is_valid():
                raise rounds.RoundError(round_drafts.STALE)
            round_ = round_drafts.confirm(event, form.cleaned_data["version"], request.user)
            tables = round_.tables.count()
            messages.success(request, f"Round 1 created with {tables} tables (seed {round_.seed}).")
            return redirect("admin:tournament_round_overview", round_.pk)
        if "swap" in post:
            form = SwapForm(post)
            if not form.is_valid():
                raise rounds.RoundError(" ".join(e for errors in form.errors.values() for e in errors))
            data = form.cleaned_data
            first, second, _ = round_drafts.swap(event, data["version"], data["first"], data["second"], request.user)
            messages.success(request, f"{_label(first)} and {_label(second)} swapped seats.")
        else:
            options = SeatingOptionsForm(post)
            if not options.is_valid():
                raise rounds.RoundError(" ".join(f"{options.fields[name].label or name}: {' '.join(errors)}"
                                                 for name, errors in options.errors.items()))
            o = options.cleaned_data
            draft = round_drafts.preview(event, request.user, seed=None if "reshuffle" in post else o["seed"],
                                         source=o["source"], fill_with_bots=o["fill_with_bots"],
                                         use_seeding=o["use_seeding"])
            messages.success(request, f"Seating previewed with seed {draft.seed}: swap players or confirm it.")
    except (SeatingError, rounds.RoundError) as error:
        messages.error(request, str(error))
    return redirect(request.path)


MOVED = mark_safe(' class="moved"')  # noqa: S308 - a constant


def _label(player: Player) -> str:
    return f"{player.display_name} ({player.roll_number})" if player.roll_number else player.display_name


def _preview(event, draft) -> dict:
    """The draft's tables with names, the swap form's options, and what stops it being confirmed."""
    plan = round_drafts.plan_of(draft)
    ids = plan.player_ids
    players = Player.objects.filter(pk__in=ids).only("pk", "display_name", "roll_number", "seeding").in_bulk()
    moved = set(plan.moved)
    tables, table_of = [], {}
    for number, members in enumerate(plan.tables, start=1):
        seated = [players[pid] for pid in members if pid is not BOT and pid in players]
        for player in seated:
            table_of[player.pk] = number
        tables.append({"number": number, "size": len(members), "bots": members.count(BOT),
                       "players": format_html_join("", "<li{}>{}{}</li>", (
                           (MOVED if p.pk in moved else "", _label(p),
                            f" · seeding {p.seeding}" if plan.use_seeding and p.seeding is not None else "")
                           for p in seated))})
    by_name = sorted(table_of, key=lambda pid: (players[pid].display_name.casefold(), pid))
    options = format_html_join("", '<option value="{}">{} · table {}</option>',
                               ((pid, _label(players[pid]), table_of[pid]) for pid in by_name))
    problems = rounds.plan_problems(event, plan)
    changed = round_drafts.players_changed(event, draft)
    if changed:
        problems.insert(0, changed)
    return {"plan": plan, "tables": tables, "player_options": options, "problems": problems,
            "seated": len(ids), "left_out": rounds.unconfirmed_claims(event, plan.source)}
