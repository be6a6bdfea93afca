"""Forms of the student side: signing up, registering for an event, asking for a password-reset link.

The registration form checks nothing itself beyond field shape: the service decides, and its
``RegistrationRefused`` message is shown on the form as it is (the same words the admin would see).
"""

from __future__ import annotations

import logging

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm

from tournament.models import Event, VerifiedEmail
from tournament.services import mail_pacing

log = logging.getLogger(__name__)


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


class PacedPasswordResetForm(PasswordResetForm):
    """Django's password-reset form, mailing each account at most one link a minute (mail_pacing, as the
    verification link): asking again and again sends nothing more. The page answers the same either way,
    so it still does not tell whether an address has an account."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None) -> None:
        if not mail_pacing.may_send("password-reset", context["user"]):
            log.info("password-reset mail to user %s held back: one was sent less than a minute ago",
                     context["user"].pk)
            return
        super().send_mail(subject_template_name, email_template_name, context, from_email, to_email,
                          html_email_template_name)
