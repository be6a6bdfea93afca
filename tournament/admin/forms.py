"""Forms of the organizer's admin pages (the services validate again; these only shape the input)."""

from __future__ import annotations

from django import forms

from tournament.csv_formats import ELIGIBILITY_COLUMNS, MAX_UPLOAD_BYTES
from tournament.models import Attendance
from tournament.services.participation import LIVE_NONE, LIVE_PLAYED, LIVE_STOOD_IN
from tournament.services.rounds import CHECKED_IN, SOURCES
from tournament.services.seat_attendance import attendance_problems


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


LIVE_LABELS = {LIVE_PLAYED: "took part (own moves)", LIVE_STOOD_IN: "no-show (only the timer or a bot played)",
               LIVE_NONE: "not played live (on paper)"}
# At a table played entirely on paper each player seat needs one of these, chosen by the organizer.
PAPER_PLAYED, PAPER_DID_NOT_PLAY = "played", "did_not_play"
PAPER_CHOICES = [(PAPER_PLAYED, "played"), (PAPER_DID_NOT_PLAY, "did not play")]


class HandResultForm(forms.Form):
    """Hand number, winner, each seat's points left, reason; one ``points_<seat id>`` field per seat, and
    per player seat a "did not play" box with the reason a no-show of the live table played
    (``services.seat_attendance``); at a table with no live play at all, instead, a required choice per
    player seat: played or did not play (nothing is assumed)."""

    number = forms.IntegerField(min_value=1, label="Hand number")
    winner = forms.TypedChoiceField(coerce=int, label="Went out (winner)")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000,
                             help_text="Why it is recorded by hand or corrected; kept in the audit log.")

    def __init__(self, *args, seats, played_live=False, live_attendance=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        self.live = dict(live_attendance or {})
        if played_live:  # the service refuses hands while the live table plays: offer to pause it first
            self.fields["pause_live"] = forms.BooleanField(
                required=False, label="Pause the game first",
                help_text="Its live table then refuses moves until you resume the game on the round's page.")
        self.fields["winner"].choices = [(s.pk, s.label) for s in self.seats]
        for seat in self.seats:
            self.fields[f"points_{seat.pk}"] = forms.IntegerField(
                min_value=0, max_value=10_000, initial=0, label=f"Points left: {seat.label}")
        self.on_paper = not any(self.live.values())  # nothing played live at the table: the organizer says
        for seat in self.players():
            if self.on_paper:
                said = {Attendance.PLAYED: PAPER_PLAYED, Attendance.DID_NOT_PLAY: PAPER_DID_NOT_PLAY}
                self.fields[f"did_not_play_{seat.pk}"] = forms.ChoiceField(
                    choices=PAPER_CHOICES, initial=said.get(seat.organizer_says), label=f"{seat.label} played?",
                    widget=forms.RadioSelect(attrs={"class": "paper-attendance"}),
                    error_messages={"required": f"Say whether {seat.label} played or did not play."})
                continue
            absent = seat.organizer_says == Attendance.DID_NOT_PLAY or (
                self.live.get(seat.pk) == LIVE_STOOD_IN and seat.organizer_says != Attendance.PLAYED)
            box, why = f"{seat.label} did not play", f"Why {seat.label} played"
            self.fields[f"did_not_play_{seat.pk}"] = forms.BooleanField(
                required=False, initial=absent, label="did not play",
                widget=forms.CheckboxInput(attrs={"aria-label": box}))
            self.fields[f"played_reason_{seat.pk}"] = forms.CharField(
                required=False, max_length=200, initial=seat.organizer_reason, label=why,
                widget=forms.TextInput(attrs={"aria-label": why, "placeholder": "Why they played (a no-show)"}))

    def players(self) -> list:
        return [seat for seat in self.seats if not seat.is_bot]

    def points_fields(self):
        return [self[f"points_{seat.pk}"] for seat in self.seats]

    def points_left(self) -> dict[int, int]:
        return {seat.pk: self.cleaned_data[f"points_{seat.pk}"] for seat in self.seats}

    def attendance_rows(self) -> list[tuple]:
        """(seat, what the live table says, its "did not play" box, its reason) for the template."""
        return [(seat, LIVE_LABELS[self.live.get(seat.pk, LIVE_NONE)], self[f"did_not_play_{seat.pk}"],
                 None if self.on_paper else self[f"played_reason_{seat.pk}"]) for seat in self.players()]

    def did_not_play(self) -> set[int]:
        said = {seat.pk: self.cleaned_data.get(f"did_not_play_{seat.pk}") for seat in self.players()}
        return {pk for pk, value in said.items() if value in (True, PAPER_DID_NOT_PLAY)}

    def played_reasons(self) -> dict[int, str]:
        return {seat.pk: self.cleaned_data.get(f"played_reason_{seat.pk}", "") for seat in self.players()}

    def clean(self):
        data = super().clean()
        problems = attendance_problems(self.seats, self.live, self.did_not_play(), self.played_reasons())
        for seat_id, text in problems.items():
            self.add_error(f"played_reason_{seat_id}", text)
        return data
