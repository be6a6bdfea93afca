from django import forms


class NewTokenForm(forms.Form):
    name = forms.CharField(max_length=80, label="Token name", help_text="For you: e.g. the name of your bot.")
