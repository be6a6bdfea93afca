"""Account changes that end a user's tokens: a new password (changed by its owner, reset by mail, set by an
administrator) revokes all their tokens, since whoever held the old password may have made them; a
deactivated account's open token sockets are ended (its tokens stop authenticating while it is inactive).

Connected in `AccessTokensConfig.ready()` on the user model's saves: every way Django sets a password
(the password change and reset forms, the admin, `changepassword`) saves the user with a new hash.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from access_tokens.services import end_account_sockets, revoke_all_tokens

WATCHED_FIELDS = {"password", "is_active"}


def remember_account(sender, instance, update_fields=None, **kwargs) -> None:
    """pre_save: note the stored password hash and active flag, to compare after the save."""
    instance._tokens_before = None
    if instance.pk is None or (update_fields is not None and not WATCHED_FIELDS & set(update_fields)):
        return  # a new user, or e.g. the `last_login` written at every login
    instance._tokens_before = (get_user_model().objects.filter(pk=instance.pk)
                               .values_list("password", "is_active").first())


def account_saved(sender, instance, created=False, **kwargs) -> None:
    """post_save: a new password revokes every token; a deactivation ends the tokens' sockets."""
    before, instance._tokens_before = getattr(instance, "_tokens_before", None), None
    if created or before is None:
        return
    password, was_active = before
    if instance.password != password:
        revoke_all_tokens(instance)
    elif was_active and not instance.is_active:
        end_account_sockets(instance)
