"""API authentication: DRF's token authentication, one query per request instead of two."""

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from cardroom.roles import Role, roles_remember


@cache
def _token_user_sql() -> str:
    """The token's user with his roles as bits (role i is bit 2**i). Written in SQL because the
    ORM spends longer compiling it than the database answering; one aggregate subquery because
    PostgreSQL spent longer planning one EXISTS subquery per role than running them."""
    user = get_user_model()._meta
    membership = user.get_field("groups").remote_field.through._meta.db_table
    bits = " ".join(f"WHEN %s THEN {1 << i}" for i, _role in enumerate(Role))
    return (
        f"SELECT u.*, t.created AS token_created, (SELECT COALESCE(SUM(CASE g.name {bits} ELSE 0 END), 0) "
        f"FROM {membership} m JOIN {Group._meta.db_table} g ON g.id = m.group_id WHERE m.user_id = u.id) "
        f"AS role_bits FROM {Token._meta.db_table} t JOIN {user.db_table} u ON u.id = t.user_id "
        f"WHERE t.key = %s"
    )


class TokenAuthentication(authentication.TokenAuthentication):
    """Reads the token, its user and the user's roles together. Every API request checks a
    role right after authenticating (ROL-1), which would otherwise cost a query of its own."""

    def authenticate_credentials(self, key):
        found = list(get_user_model().objects.raw(_token_user_sql(), [*(role.value for role in Role), key]))
        if not found:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = found[0]
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        roles_remember(user, {role for i, role in enumerate(Role) if user.role_bits >> i & 1})
        return user, Token(key=key, user=user, created=user.token_created)
