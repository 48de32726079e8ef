"""API authentication: DRF's token authentication, reading the token, its user and the user's
groups in one statement."""

from django.db.models import F
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from cardroom.roles import groups_known


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication. Every API request checks the user's roles right after this
    (cardroom.roles), so the token is read with its user and the names of the user's groups,
    joined: one row per group (one with no name for a user without groups), one statement."""

    def authenticate_credentials(self, key):
        tokens = Token.objects.select_related("user").filter(key=key)
        rows = list(tokens.annotate(group=F("user__groups__name")))
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = rows[0]
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        groups_known(token.user, {row.group for row in rows if row.group})
        return token.user, token
