"""The demo a newcomer sees after the quick start: an organizer and a few students.

Idempotent: running it again resets the demo passwords and adds nothing twice.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

DEMO_PASSWORD = "demo-pass-123"
ORGANIZER = "organizer"
STUDENTS = [("asha", "Asha"), ("ravi", "Ravi"), ("meera", "Meera"), ("kabir", "Kabir")]


@dataclass
class DemoLogins:
    organizer: str
    students: list[str]
    password: str


@transaction.atomic
def load_demo() -> DemoLogins:
    User = get_user_model()
    organizer, _ = User.objects.get_or_create(username=ORGANIZER, defaults={"first_name": "Olga"})
    organizer.is_staff = True
    organizer.set_password(DEMO_PASSWORD)
    organizer.save()
    for username, first_name in STUDENTS:
        student, _ = User.objects.get_or_create(username=username, defaults={"first_name": first_name})
        student.set_password(DEMO_PASSWORD)
        student.save()
    return DemoLogins(ORGANIZER, [name for name, _ in STUDENTS], DEMO_PASSWORD)
