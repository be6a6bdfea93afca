from collections import defaultdict

from django.db import migrations, models
from django.db.models import Max

SEAT_CHANGED = "seat_changed"  # games.services.lifecycle.SEAT_CHANGED: the seat got another player
CHUNK = 500  # games per UPDATE (SQLite's limit on a statement's parameters)


def seats_moved_from_the_moves(apps, schema_editor):
    """A seat's bit is set where its player made an own move after the seat last got another player."""
    LiveGame = apps.get_model("games", "LiveGame")
    LiveMove = apps.get_model("games", "LiveMove")
    moves = LiveMove.objects.using(schema_editor.connection.alias)
    changed = {}
    notices = moves.filter(actor="system", seat__isnull=False).values_list("live_game_id", "seat", "version", "events")
    for game_id, seat, version, events in notices.iterator():
        if any(isinstance(e, dict) and e.get("kind") == SEAT_CHANGED for e in events or []):
            changed[game_id, seat] = max(version, changed.get((game_id, seat), 0))
    masks = defaultdict(int)
    own = (moves.filter(actor="player", seat__isnull=False).values("live_game_id", "seat")
           .annotate(last=Max("version")).values_list("live_game_id", "seat", "last"))
    for game_id, seat, last in own.iterator():
        if last > changed.get((game_id, seat), 0):
            masks[game_id] |= 1 << seat
    games_by_mask = defaultdict(list)
    for game_id, mask in masks.items():
        games_by_mask[mask].append(game_id)
    games = LiveGame.objects.using(schema_editor.connection.alias)
    for mask, ids in games_by_mask.items():
        for start in range(0, len(ids), CHUNK):
            games.filter(pk__in=ids[start:start + CHUNK]).update(seats_moved=mask)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_live_move_user_unchecked'),
    ]

    operations = [
        migrations.AddField(
            model_name='livegame',
            name='seats_moved',
            field=models.PositiveBigIntegerField(default=0, help_text="Bit 1 << seat is set once the seat's player has made a move of their own here (not the turn timer's or a takeover bot's), and cleared when the seat gets another player: whoever stores the move learns from it whether this is the seat's first own move (games.services.first_moves). Changed only with `version` or `seats_version`."),
        ),
        migrations.RunPython(seats_moved_from_the_moves, migrations.RunPython.noop),
    ]
