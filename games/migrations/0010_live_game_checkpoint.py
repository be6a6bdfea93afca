"""The engine state becomes a checkpoint at a version (the moves after it are replayed onto it): rename
`state` to `checkpoint` and record that the existing ones are of the game's current version."""

from django.db import migrations, models
from django.db.models import F


def checkpoints_are_current(apps, schema_editor):
    apps.get_model("games", "LiveGame").objects.update(checkpoint_version=F("version"))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_live_game_watch_and_announce_groups"),
    ]

    operations = [
        migrations.RenameField(model_name="livegame", old_name="state", new_name="checkpoint"),
        migrations.AlterField(
            model_name="livegame",
            name="checkpoint",
            field=models.JSONField(help_text="The engine's Game.to_dict() at checkpoint_version: hidden cards included, never sent as is."),
        ),
        migrations.AddField(
            model_name="livegame",
            name="checkpoint_version",
            field=models.PositiveIntegerField(default=0, help_text="The version the checkpoint is of; the moves after it are replayed onto it."),
        ),
        migrations.RunPython(checkpoints_are_current, migrations.RunPython.noop),
    ]
