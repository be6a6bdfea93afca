"""Forms of the organizer's player pages: the player's change form, freeing and reassigning a roll
number, adding a walk-in. They shape and resolve the input; the services decide and audit."""

from __future__ import annotations

from django import forms

from tournament.admin.forms import ReasonForm
from tournament.models import Event, Player
from tournament.services.display_names import display_name_problem, normalized
from tournament.services.list_places import find_account
from tournament.services.players import PlayerActionError


class PlayerChangeForm(forms.ModelForm):
    """The change page edits the display name and seeding; names stay unique in the event."""

    class Meta:
        model = Player
        fields = ("display_name", "seeding")

    def clean_display_name(self) -> str:
        name = normalized(self.cleaned_data["display_name"])
        if not name:
            raise forms.ValidationError("Enter the name to show on the tables and leaderboards.")
        if problem := display_name_problem(self.instance.event, name, except_player=self.instance):
            raise forms.ValidationError(problem)
        return name


class FreeRollNumberForm(ReasonForm):
    withdraw = forms.BooleanField(required=False, label="Also withdraw them from the event")


def _account(identifier: str):
    try:
        return find_account(identifier)
    except PlayerActionError as error:
        raise forms.ValidationError(str(error)) from error


class ReassignRollNumberForm(ReasonForm):
    to = forms.CharField(
        max_length=150, label="Give it to",
        help_text="The username or e-mail of their account, or the display name of a player of this event.")
    display_name = forms.CharField(
        max_length=80, required=False,
        help_text="For an account not yet registered: the name to show. Empty: the name on the list.")
    withdraw = forms.BooleanField(required=False, label="Withdraw the player who holds it now")
    field_order = ["to", "display_name", "withdraw", "reason"]

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean(self):
        data = super().clean()
        to = (data.get("to") or "").strip()
        if not to:
            return data
        data["to_player"] = Player.objects.filter(event=self.event, display_name__iexact=normalized(to)).first()
        data["to_user"] = None if data["to_player"] else _account(to)
        if data["to_player"] is None and data["to_user"] is None:
            self.add_error("to", f"No account and no player of {self.event} is called {to}.")
        return data


class WalkInForm(ReasonForm):
    event = forms.ModelChoiceField(queryset=Event.objects.none())
    display_name = forms.CharField(max_length=80, help_text="Shown at the tables and on the leaderboards.")
    roll_number = forms.CharField(max_length=40, required=False,
                                  help_text="Optional; on a list-only event it must be on the list.")
    account = forms.CharField(max_length=150, required=False,
                              help_text="Optional: the username or e-mail of their account, so they can "
                                        "play on their phone. Empty: they play at the table on paper.")
    check_in = forms.BooleanField(required=False, initial=True, label="Check them in now")
    field_order = ["event", "display_name", "roll_number", "account", "check_in", "reason"]

    def __init__(self, *args, events, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = events

    def clean_account(self):
        identifier = self.cleaned_data["account"].strip()
        if not identifier:
            return None
        user = _account(identifier)
        if user is None:
            raise forms.ValidationError(f"No account has the username or e-mail {identifier}.")
        return user
