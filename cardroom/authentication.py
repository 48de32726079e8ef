"""API authentication: DRF's token authentication, one query per request instead of two."""

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from cardroom.roles import Role, roles_remember
from cardroom.rows import model_from_row, select_list


@cache
def _token_user_sql() -> str:
    """The token's user, the token's time and the user's roles as bits (role i is bit 2**i).
    Written in SQL because the ORM spends longer compiling it than the database answering; one
    aggregate subquery because PostgreSQL spent longer planning one EXISTS subquery per role
    than running them."""
    user = get_user_model()
    membership = user._meta.get_field("groups").remote_field.through._meta.db_table
    bits = " ".join(f"WHEN %s THEN {1 << i}" for i, _role in enumerate(Role))
    return (
        f"SELECT {select_list(user, alias='u')}, t.created, (SELECT COALESCE(SUM(CASE g.name {bits} "
        f"ELSE 0 END), 0) FROM {membership} m JOIN {Group._meta.db_table} g ON g.id = m.group_id "
        f"WHERE m.user_id = u.id) FROM {Token._meta.db_table} t JOIN {user._meta.db_table} u "
        "ON u.id = t.user_id WHERE t.key = %s"
    )


class TokenAuthentication(authentication.TokenAuthentication):
    """Reads the token, its user and the user's roles together. Every API request checks a
    role right after authenticating (ROL-1), which would otherwise cost a query of its own."""

    def authenticate_credentials(self, key):
        with connection.cursor() as cursor:
            cursor.execute(_token_user_sql(), [*(role.value for role in Role), key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        *user_values, token_created, role_bits = row
        user = model_from_row(get_user_model(), user_values)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        roles_remember(user, {role for i, role in enumerate(Role) if role_bits >> i & 1})
        return user, Token(key=key, user=user, created=token_created)
