"""Tokens carry scopes; the tokens made before scopes existed were made for bots: they get both."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("access_tokens", "0001_personal_access_tokens"),
    ]

    operations = [
        migrations.AddField(
            model_name="accesstoken",
            name="scopes",
            field=models.CharField(default="tables:read tables:play",
                                   help_text="What the token may do: scopes separated by spaces.", max_length=100),
            preserve_default=False,
        ),
    ]
