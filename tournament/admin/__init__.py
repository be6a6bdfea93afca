"""The organizer's admin: every model scoped to the events the user organizes (see ``scoping``)."""

from tournament.admin import eligibility, events, play, players  # noqa: F401 - registers the ModelAdmins
