from django.conf import settings
from django.db import models


class VerifiedEmail(models.Model):
    """The e-mail address an account proved it receives mail at (by opening the link sent at sign-up).

    It counts only while it is still the account's address: changing ``user.email`` needs a new link.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verified_email")
    email = models.EmailField()
    verified_at = models.DateTimeField()

    class Meta:
        verbose_name = "verified e-mail address"
        verbose_name_plural = "verified e-mail addresses"

    def __str__(self) -> str:
        return self.email
