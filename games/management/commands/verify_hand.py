"""`manage.py verify_hand`: check that a hand was shuffled as committed, by dealing it again with the engine.

    manage.py verify_hand GAME_ID [--hand N]        every finished hand (or hand N, 1-based) of a live game
    manage.py verify_hand --commitment C --seed S --salt T [--preset P --seats N --dealer D]

The second form needs no stored game: it checks the commitment and, with the rules and seats, prints
the deal the engine makes from the seed (compare it with what the table showed)."""

from django.core.management.base import BaseCommand, CommandError

from games import engine
from games.models import LiveGame
from games.services import fairness


class Command(BaseCommand):
    help = "Check hands' shuffle commitments against their revealed seeds and replay the deals with the engine."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", nargs="?", type=int, help="Live game id.")
        parser.add_argument("--hand", type=int, help="Hand number (1-based); default: every finished hand.")
        parser.add_argument("--commitment")
        parser.add_argument("--seed")
        parser.add_argument("--salt")
        parser.add_argument("--preset", help="Rules preset, to print the deal of --seed.")
        parser.add_argument("--seats", type=int, help="Players dealt in.")
        parser.add_argument("--dealer", type=int, help="Dealer's hand seat (default: drawn, as for a first hand).")

    def handle(self, *args, game=None, hand=None, commitment=None, seed=None, salt=None, preset=None, seats=None,
               dealer=None, **options) -> None:
        if game is None:
            self._check_given(commitment, seed, salt, preset, seats, dealer)
            return
        live = LiveGame.objects.filter(pk=game).first()
        if live is None:
            raise CommandError(f"there is no live game {game}")
        numbers = fairness.revealed_hands(live)
        if hand is not None:
            if hand - 1 not in numbers:
                raise CommandError(f"hand {hand} of game {game} is not over (or was not dealt): its seed is secret")
            numbers = [hand - 1]
        if not numbers:
            raise CommandError(f"no hand of game {game} is over yet")
        failed = 0
        for number in numbers:
            check = fairness.check_stored_hand(live, number)
            if check.ok:
                self.stdout.write(f"hand {number + 1}: commitment matches, deal replayed identical "
                                  f"(dealer {check.dealer}, first card {check.first_card})")
            else:
                failed += 1
                self.stdout.write(f"hand {number + 1}: FAILED: {'; '.join(check.problems)}")
        if failed:
            raise CommandError(f"{failed} of {len(numbers)} hand(s) failed the check")
        self.stdout.write(self.style.SUCCESS(f"{len(numbers)} hand(s) checked"))

    def _check_given(self, commitment, seed, salt, preset, seats, dealer) -> None:
        if not (commitment and seed and salt):
            raise CommandError("give a live game id, or --commitment, --seed and --salt")
        if not seed.strip().isdigit():
            raise CommandError("--seed must be a whole number")
        if not fairness.check_commitment(commitment, seed, salt):
            raise CommandError("the seed and salt do NOT match the commitment")
        self.stdout.write("commitment matches")
        if preset:
            try:
                rules = engine.get_preset(preset)
                events = fairness.replay_deal(rules, seats or rules.min_players, int(seed), dealer)
            except engine.EngineError as error:
                raise CommandError(str(error)) from error
            check = fairness.Check(None, commitment, seed, salt, True)
            fairness.describe_deal(events, check)
            self.stdout.write(f"dealer {check.dealer}, first card {check.first_card}")
            for s, cards in check.dealt.items():
                self.stdout.write(f"hand seat {s}: {' '.join(cards)}")
