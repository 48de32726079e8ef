"""API authentication: DRF's token authentication, reading the token, its user, the user's roles
in each venue and his groups in one statement."""

from django.db.models import F
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from cardroom.roles import roles_known


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication. Every API request checks the user's roles right after this
    (cardroom.roles), so the token is read with its user, his roles per venue and the names of
    his groups, joined: a row per pair of them (one with nulls for a user without), one
    statement."""

    def authenticate_credentials(self, key):
        tokens = Token.objects.select_related("user").filter(key=key)
        rows = list(
            tokens.annotate(
                group=F("user__groups__name"),
                role_venue=F("user__venue_roles__venue_id"),
                role=F("user__venue_roles__role"),
            )
        )
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = rows[0]
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        roles_known(
            token.user,
            venue_roles={(row.role_venue, row.role) for row in rows if row.role},
            groups={row.group for row in rows if row.group},
        )
        return token.user, token
