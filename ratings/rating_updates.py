"""Rating finished live games with openskill's Plackett-Luce model, one game at a time or all again.

A game is rated in a rated family (`ratings.families`) when at least two different competitors sat at it
(`ratings.seat_identities`; a competitor holding several seats, such as one house bot kind at a practice
table, is rated once, at its best place), and:
- a practice or exhibition game: once it is finished with its engine game over (the target reached); its
  finishing order comes from `ratings.finishing_order`;
- a tournament game: once the tournament game is finished, however it ended (the target, the round's time
  limit, an organizer, a hand recorded on paper); its finishing order comes from the tournament's stored
  results (`ratings.tournament_results`).

`rate_live_game` rates one game as it finishes (`ratings.receivers`, after the commit that finished it);
`recompute` deletes every rating and rates every stored game again in a fixed order: by the time the game
ended (a tournament game's `finished_at`, else its last stored change), then its id. Both do the same
arithmetic in the same order, so a recompute gives the ratings the games gave as they finished (unless two
games finished in one instant, which the recompute orders by id, or a finished game's hands were corrected
since: the recompute rates its results as they stand)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.db.models.functions import Coalesce
from openskill.models import PlackettLuce

from games import engine
from games.models import LiveGame, LiveMove
from ratings import finishing_order, tournament_results
from ratings.families import family_of
from ratings.models import Competitor, RatingChange
from ratings.seat_identities import Identity, identities
from tournament.models import Game

log = logging.getLogger(__name__)
MODEL = PlackettLuce()  # mu 25, sigma 25/3 for a newcomer


@dataclass(frozen=True)
class RatedGame:
    live_id: int
    family: str
    ended_at: datetime
    entrants: list[tuple[Identity, int]]  # (who, 1-based place), in a fixed order


def rated_game(live: LiveGame, ended_at: datetime | None = None) -> RatedGame | None:
    """What rating `live` needs, or None if it is not rated."""
    family = family_of(live.preset)
    if family is None:
        return None
    if live.game_id is not None:  # a tournament game: however it ended, from the tournament's results
        if live.game.status != Game.Status.FINISHED:
            return None
        rules = engine.Game.from_dict(live.checkpoint).rules
        places = tournament_results.places(live.game, rules.scoring, rules.target)
        if places is None:
            return None
        ended_at = ended_at or live.game.finished_at
    else:
        if live.status != LiveGame.Status.FINISHED:
            return None
        game = engine.Game.from_dict(live.state)
        if not game.over:
            return None
        places = finishing_order.places(game.rules.scoring, game.totals, game.winners, game.rules.target,
                                        [r.totals for r in game.results])
    best: dict[Identity, int] = {}
    for who, place in zip(identities(live), places, strict=False):
        if who is not None:
            best[who] = min(best.get(who, place), place)
    if len(best) < 2:
        return None
    if ended_at is None:
        ended_at = LiveMove.objects.filter(live_game=live).aggregate(at=Max("created_at"))["at"]
    entrants = sorted(best.items(), key=lambda e: (e[1], e[0].kind, e[0].user_id or 0, e[0].bot_kind))
    return RatedGame(live.pk, family, ended_at, entrants)


def _apply(rated: RatedGame, competitors: list[Competitor]) -> list[RatingChange]:
    """Move `competitors` (one per entrant, in order) on by the game; their history rows (unsaved)."""
    teams = [[MODEL.rating(mu=c.mu, sigma=c.sigma)] for c in competitors]
    after = MODEL.rate(teams, ranks=[place for _, place in rated.entrants])
    changes = []
    for competitor, (_, place), [new] in zip(competitors, rated.entrants, after, strict=True):
        changes.append(RatingChange(competitor=competitor, live_game_id=rated.live_id, ended_at=rated.ended_at,
                                    place=place, competitors=len(competitors), mu_before=competitor.mu,
                                    sigma_before=competitor.sigma, mu=new.mu, sigma=new.sigma))
        competitor.mu, competitor.sigma = new.mu, new.sigma
        competitor.games += 1
        competitor.last_played_at = rated.ended_at
    return changes


def _new_competitor(family: str, who: Identity) -> Competitor:
    return Competitor(family=family, kind=who.kind, user_id=who.user_id, bot_kind=who.bot_kind,
                      mu=MODEL.mu, sigma=MODEL.sigma)


def rate_live_game(live_id: int) -> bool:
    """Rate finished game `live_id` if it is rated and not yet (idempotent). True if it was rated now."""
    try:
        with transaction.atomic():
            live = LiveGame.objects.select_related("game").filter(pk=live_id).first()
            if live is None or RatingChange.objects.filter(live_game_id=live_id).exists():
                return False
            rated = rated_game(live)
            if rated is None:
                return False
            ids = [Competitor.objects.get_or_create(
                family=rated.family, kind=who.kind, user_id=who.user_id, bot_kind=who.bot_kind,
                defaults={"mu": MODEL.mu, "sigma": MODEL.sigma})[0].pk for who, _ in rated.entrants]
            locked = {c.pk: c for c in Competitor.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
            competitors = [locked[pk] for pk in ids]
            changes = _apply(rated, competitors)
            for competitor in competitors:
                competitor.save(update_fields=["mu", "sigma", "games", "last_played_at"])
            RatingChange.objects.bulk_create(changes)
            return True
    except IntegrityError:  # another process rated it at the same moment
        return False


def rate_after_commit(live_id: int) -> None:
    """`rate_live_game` for a game that finished with a committed move: a failure is logged, never raised
    (the move is stored already; `recompute_ratings` repairs the ratings)."""
    try:
        rate_live_game(live_id)
    except Exception:
        log.exception("rating live game %s failed", live_id)


def recompute() -> int:
    """Delete every rating and rate every finished game again, in a fixed order. The number rated."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Competitor.objects.all().delete()
        finished = Q(game__isnull=True, status=LiveGame.Status.FINISHED) | Q(game__status=Game.Status.FINISHED)
        lives = (LiveGame.objects.filter(finished).select_related("game")
                 .annotate(ended=Coalesce("game__finished_at", Max("moves__created_at")))
                 .order_by("ended", "pk"))
        competitors: dict[tuple[str, Identity], Competitor] = {}
        changes: list[RatingChange] = []
        rated_count = 0
        for live in lives.iterator(chunk_size=200):
            rated = rated_game(live, live.ended)
            if rated is None:
                continue
            at_table = [competitors.setdefault((rated.family, who), _new_competitor(rated.family, who))
                        for who, _ in rated.entrants]
            changes += _apply(rated, at_table)
            rated_count += 1
        ordered = sorted(competitors.values(), key=lambda c: (c.family, c.kind, c.user_id or 0, c.bot_kind))
        Competitor.objects.bulk_create(ordered)
        for change in changes:
            change.competitor_id = change.competitor.pk
        RatingChange.objects.bulk_create(changes, batch_size=500)
        return rated_count
