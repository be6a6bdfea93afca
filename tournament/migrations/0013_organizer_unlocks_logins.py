"""Let the Organizer group lift a login lockout: view and delete django-axes' access attempts
(see services/organizers.py, ORGANIZER_LOGIN_PERMISSIONS)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CODENAMES = ("delete_accessattempt", "view_accessattempt")


def add_permissions(apps, schema_editor):
    # Permissions are normally created after all migrations ran; create axes' now so the group gets them.
    app_config = apps.get_app_config("axes")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Organizer")
    group.permissions.add(*Permission.objects.filter(content_type__app_label="axes", codename__in=CODENAMES))


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name="Organizer"):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="axes", codename__in=CODENAMES))


class Migration(migrations.Migration):
    dependencies = [
        ("axes", "0010_accessattemptexpiration"),
        ("tournament", "0012_round_time_limit_and_announcements"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
