"""What the cached leaderboard and bracket pages are checked against: a per-event scores version."""

from django.db import models

from tournament.models.play import Round


class StandingsChange(models.Model):
    """One change to what an event's leaderboard or bracket shows (a hand scored or corrected, a player
    registered or withdrawn, a round seated...). Rows are only ever added: the event's scores version is
    the id of its latest row (``tournament.scores_version``), so writers never wait for each other, and
    the version moves only when the transaction that wrote the change commits. Old rows are pruned."""

    id = models.BigAutoField(primary_key=True)
    # A plain number, not a foreign key: adding a row must not lock the event row (organizers lock it).
    event_id = models.BigIntegerField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["event_id", "-id"], name="standings_change_latest")]

    def __str__(self) -> str:
        return f"event {self.event_id}: change {self.id}"



def _changed(sender, instance, **kwargs) -> None:
    """Events, players, rounds and bracket stages decide who is listed and how: saving one makes a new
    version. Hands, scores and bracket tables are saved by services that call
    ``tournament.page_notices.notify_scores_changed``; seats by the services that create rounds. (Deleting
    a round counts too; a deleted event or player has nothing left to show.)"""
    # Not at the top: tournament.scores_version and these models use each other; the models load first.
    from tournament.scores_version import record_change

    event_id = instance.pk if sender.__name__ == "Event" else getattr(instance, "event_id", None)
    if sender.__name__ == "BracketStage":  # a stage built, rebuilt or started: its round's event
        event_id = Round.objects.filter(pk=instance.round_id).values_list("event_id", flat=True).first()
    if event_id is not None:
        record_change(event_id)


for _model in ("tournament.Event", "tournament.Player", "tournament.Round", "tournament.BracketStage"):
    models.signals.post_save.connect(_changed, sender=_model, dispatch_uid=f"standings-change-save-{_model}")
models.signals.post_delete.connect(_changed, sender="tournament.Round", dispatch_uid="standings-change-delete-round")
