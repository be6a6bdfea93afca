import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_page_renders_with_navigation(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    for label in ("Events", "Leaderboards", "Play", "Log in"):
        assert label in html
    assert "bootstrap/css/bootstrap.min.css" in html
    assert "cdn" not in html.lower(), "every asset must be served by the site itself"


def test_admin_link_only_for_staff(client):
    User = get_user_model()
    User.objects.create_user("student", password="pw-for-tests-1")
    client.login(username="student", password="pw-for-tests-1")
    assert "Admin</a>" not in client.get(reverse("home")).content.decode()
    User.objects.create_user("org", password="pw-for-tests-1", is_staff=True)
    client.login(username="org", password="pw-for-tests-1")
    assert "Admin</a>" in client.get(reverse("home")).content.decode()


def test_admin_logs_in(client):
    get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1")
    response = client.post(
        reverse("admin:login"), {"username": "boss", "password": "pw-for-tests-1", "next": "/admin/"}
    )
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


def test_bootstrap_is_served_locally(client):
    from django.contrib.staticfiles import finders

    assert finders.find("bootstrap/css/bootstrap.min.css")
    assert finders.find("bootstrap/js/bootstrap.bundle.min.js")


def test_demo_command_is_idempotent(django_user_model):
    from django.core.management import call_command

    call_command("demo", stdout=open("/dev/null", "w"))
    call_command("demo", stdout=open("/dev/null", "w"))
    assert django_user_model.objects.filter(username="organizer", is_staff=True).count() == 1
