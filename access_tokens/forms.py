from django import forms

from access_tokens.models import SCOPES


class NewTokenForm(forms.Form):
    name = forms.CharField(max_length=80, label="Token name", help_text="For you: e.g. the name of your bot.")
    scopes = forms.MultipleChoiceField(
        choices=list(SCOPES.items()), initial=list(SCOPES), widget=forms.CheckboxSelectMultiple,
        label="The token may", help_text="A bot needs both. No token opens an organizer's pages.",
        error_messages={"required": "Choose what the token may do (at least one)."})
