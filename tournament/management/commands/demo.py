from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from tournament.demo_data import EVENT_SLUG, load_demo, student_logins


class Command(BaseCommand):
    help = "Load the demo event (idempotent) and print the logins to try it with."

    def add_arguments(self, parser):
        parser.add_argument("--site", default="http://127.0.0.1:8000",
                            help="the address the site will be served at, for the links printed (make run passes it)")

    def handle(self, *args, **options):
        site = options["site"].rstrip("/")
        with override_settings(NOTIFY_STUDENTS=False):  # its students are made up: no mail, no push
            logins = load_demo()
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        self.stdout.write(f"  Event: {logins.event} (/events/{EVENT_SLUG}/), round 2 (a bracket) in play")
        self.stdout.write(f"  Organizer (admin): {logins.organizer} / {logins.password}")
        self.stdout.write(f"  Students (password {logins.password}): "
                          f"{', '.join(username for username, _ in student_logins())}")
        self.stdout.write(f"  Site: {site}/   Admin: {site}/admin/")
        if logins.bracket_url:
            self.stdout.write(f"  Round 2's bracket, live: {site}{logins.bracket_url}")
        if logins.exhibition_url:
            self.stdout.write(f"  Watch bots play live: {site}{logins.exhibition_url}")
        self.stdout.write(f"  Practice against bots (log in first): {site}/play/practice/")
        if logins.newcomer_email:
            self.stdout.write(
                f"  As a newcomer: sign up at {site}/accounts/signup/ with {logins.newcomer_email} (on the list, "
                f"roll number {logins.newcomer_roll_number}). Sign-up mails a link that verifies the address: "
                "without EMAIL_HOST set, the mail is printed in the console of `make run`; open its link, then "
                f"register for {logins.registering} at {site}/events/{logins.registering_slug}/ (open for "
                "registration, with the same list and policy; the championship is running).")
        self._issue_paths(logins)
        self._bot_league(site, logins)

    def _bot_league(self, site: str, logins) -> None:
        """The bot league and its two entries' fresh tokens: a bot started with one checks in and plays."""
        if not logins.bot_league_slug:
            return
        entries = ", ".join(f"{e.login}'s {e.bot}" for e in logins.bot_entries)
        self.stdout.write(f"  Bot league: {site}/events/{logins.bot_league_slug}/ (check-in open; entered: {entries}).")
        for entry in logins.bot_entries:
            self.stdout.write(f"    {entry.bot}: UNO_TOKEN={entry.token} .venv/bin/python examples/bot.py "
                              f"--server {site} --event {logins.bot_league_slug} --games 0 --wait 3600")
        self.stdout.write("    Start both, then start round 1 from the league's control room (as organizer).")

    def _issue_paths(self, logins) -> None:
        """What the organizer can try on the list and its people (docs/organizers.md says how)."""
        self.stdout.write(f"  Who may register: {logins.policy}.")
        for line in logins.outside_policy or []:
            self.stdout.write(f"    On the list but outside the policy (registration refuses): {line}")
        if logins.claim:
            self.stdout.write(f"  A claim to confirm (Admin > Players, claim: awaiting an organizer): {logins.claim}, "
                              f"registered by {logins.claimant}; the list has no e-mail for it.")
        if not logins.claim and not logins.withdrawn:
            self.stdout.write("  (The championship's claim to confirm and its withdrawn player are made only while its "
                              "registration is open, on a new database: remove db.sqlite3 and run `make run` again.)")
        if logins.unclaimed_roll_number:
            self.stdout.write(f"  No e-mail on the list for roll number {logins.unclaimed_roll_number}: registering "
                              f"with it for {logins.registering} makes a claim an organizer confirms.")
        if logins.withdrawn:
            self.stdout.write(f"  Withdrawn, to reinstate (Admin > Players): {logins.withdrawn}")
