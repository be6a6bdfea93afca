"""Forms of the organizer's admin pages (the services validate again; these only shape the input)."""

from __future__ import annotations

from django import forms

from tournament.csv_formats import ELIGIBILITY_COLUMNS, MAX_UPLOAD_BYTES
from tournament.services.rounds import CHECKED_IN, SOURCES


class EligibilityUploadForm(forms.Form):
    file = forms.FileField(help_text=f"CSV with the columns {','.join(ELIGIBILITY_COLUMNS)} (year optional) and any others.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
        return upload


class SeatingOptionsForm(forms.Form):
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**62,
                              help_text="Empty: a new random seed. The seed is recorded with the round.")
    source = forms.ChoiceField(choices=list(SOURCES.items()), initial=CHECKED_IN, label="Seat")
    fill_with_bots = forms.BooleanField(required=False, label="Fill short tables with bots")
    use_seeding = forms.BooleanField(required=False, label="Spread players by seeding (snake order)")


class DraftVersionForm(forms.Form):
    """The confirm form of a seating preview: the draft's version, nothing per player."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class SwapForm(DraftVersionForm):
    """Two players of the preview to seat in each other's places (the page renders the two selects)."""

    first = forms.IntegerField(min_value=1, error_messages={"required": "Choose the first player."})
    second = forms.IntegerField(min_value=1, error_messages={"required": "Choose the second player."})

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError("Choose two different players.")
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000,
                             help_text="Kept in the audit log.")


class HandResultForm(forms.Form):
    """Hand number, winner, each seat's points left, reason; one ``points_<seat id>`` field per seat."""

    number = forms.IntegerField(min_value=1, label="Hand number")
    winner = forms.TypedChoiceField(coerce=int, label="Went out (winner)")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000,
                             help_text="Why it is recorded by hand or corrected; kept in the audit log.")

    def __init__(self, *args, seats, played_live=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        if played_live:  # the service refuses hands while the live table plays: offer to pause it first
            self.fields["pause_live"] = forms.BooleanField(
                required=False, label="Pause the game first",
                help_text="Its live table then refuses moves until you resume the game on the round's page.")
        self.fields["winner"].choices = [(s.pk, s.label) for s in self.seats]
        for seat in self.seats:
            self.fields[f"points_{seat.pk}"] = forms.IntegerField(
                min_value=0, max_value=10_000, initial=0, label=f"Points left: {seat.label}")

    def points_fields(self):
        return [self[f"points_{seat.pk}"] for seat in self.seats]

    def points_left(self) -> dict[int, int]:
        return {seat.pk: self.cleaned_data[f"points_{seat.pk}"] for seat in self.seats}
