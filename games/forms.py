"""The practice-game form; it validates through the same service check as the practice service."""

from django import forms

from games.engine import PRESET_CHOICES
from games.services.lifecycle import PracticeError, check_practice_setup

BOT_CHOICES = [("heuristic", "Sensible bots"), ("random", "Random bots (easy)")]


class PracticeForm(forms.Form):
    preset = forms.ChoiceField(choices=PRESET_CHOICES, initial="uno-official", label="Rules")
    opponents = forms.IntegerField(min_value=1, max_value=9, initial=3, label="Number of bot opponents")
    bot_kind = forms.ChoiceField(choices=BOT_CHOICES, initial="heuristic", label="Bots")
    with_my_bot = forms.BooleanField(
        required=False, label="I'll play with my bot",
        help_text="Your seat is played by a program you wrote, through your access token (see docs/bots.md): "
                  "moves from this page are not taken.")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            check_practice_setup(data["preset"], data["opponents"], data["bot_kind"])
        except PracticeError as error:
            self.add_error("opponents", str(error))
        return data
