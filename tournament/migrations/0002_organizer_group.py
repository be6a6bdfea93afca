"""Create the Organizer group with the permissions an event organizer needs (see services/organizers.py)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = {
    "event": ("add", "change", "view"),
    "eligibilityentry": ("add", "change", "delete", "view"),
    "player": ("change", "view"),
    "round": ("change", "view"),
    "table": ("view",),
    "seat": ("view",),
    "game": ("change", "view"),
    "hand": ("view",),
    "handscore": ("view",),
    "auditentry": ("view",),
}


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations ran; create them now so the group gets them.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Organizer")
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="tournament", codename__in=codenames)
    )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Organizer").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournament", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
