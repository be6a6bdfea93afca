"""Forms of the student side: signing up and registering for an event.

The registration form checks nothing itself beyond field shape: the service decides, and its
``RegistrationRefused`` message is shown on the form as it is (the same words the admin would see).
"""

from __future__ import annotations

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from tournament.models import Event, VerifiedEmail


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        help_text="Use the address your department has for you: we mail a link to verify it, and "
        "registering for an event with a list needs it."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", "Sign up", css_class="w-100"))

    def clean_email(self) -> str:
        """Refused when an account has verified this address (an unverified claim of it blocks nobody)."""
        email = self.cleaned_data["email"].strip()
        if VerifiedEmail.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail already exists. Log in, or reset its password."
            )
        return email


class RegistrationForm(forms.Form):
    roll_number = forms.CharField(max_length=40, required=False, help_text="As on your college ID card.")
    display_name = forms.CharField(
        max_length=80,
        required=False,
        help_text="The name shown at your table and on the leaderboards. Empty: your name on the list.",
    )

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        if event.eligibility == Event.Eligibility.LIST:
            self.fields["roll_number"].required = True
            self.fields["roll_number"].help_text = "Must be on this event's list of eligible students."
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", "Register", css_class="w-100"))
