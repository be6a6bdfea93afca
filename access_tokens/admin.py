from django.contrib import admin

from access_tokens.models import AccessToken


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "prefix", "scopes", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username"]
    readonly_fields = ["user", "name", "token_hash", "prefix", "scopes", "created_at", "last_used_at"]

    def has_add_permission(self, request):  # made by their owner, who alone sees the token once
        return False
