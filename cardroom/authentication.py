"""API authentication: DRF's token authentication, reading the token with its user."""

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication. The user's roles are read once per request, on the first
    role check (cardroom.roles.user_roles), which every API request makes right after this."""

    def authenticate_credentials(self, key):
        token = Token.objects.select_related("user").filter(key=key).first()
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
