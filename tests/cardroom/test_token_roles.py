"""An API request authenticated by a token reads the token, its user, his roles in each venue and
his groups in one statement (cardroom.authentication): the role check every API request makes right after it
reads nothing more (ROL-1)."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardroom.roles import Role
from cardroom.selectors import venue_get
from tests.conftest import make_staff
from tests.queries import hold_caches

pytestmark = pytest.mark.django_db


def token_client(user, monkeypatch) -> APIClient:
    hold_caches(monkeypatch)
    venue_get()  # the venue, which every request reads once in a while, read now
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_the_token_its_user_and_roles_are_one_statement__ROL_1(monkeypatch, django_assert_num_queries):
    client = token_client(make_staff("floor-and-cashier", Role.FLOOR, Role.CASHIER), monkeypatch)
    with django_assert_num_queries(2):  # the token with its user, roles and groups; the tables counted (none)
        response = client.get("/api/cashgame/tables/")
    assert response.status_code == 200


def test_a_token_of_a_user_without_a_role_is_refused__ROL_1(monkeypatch, django_assert_num_queries):
    client = token_client(make_staff("nobody"), monkeypatch)
    with django_assert_num_queries(1):
        response = client.get("/api/cashgame/tables/")
    assert response.status_code == 403


def test_a_token_of_a_user_in_two_groups_holds_both_roles__ROL_1():
    from cardroom.authentication import TokenAuthentication

    user = make_staff("two-roles", Role.FLOOR, Role.CASHIER)
    token = Token.objects.create(user=user)
    authenticated, _token = TokenAuthentication().authenticate_credentials(token.key)
    assert authenticated._cardroom_venue_roles == {venue_get().pk: frozenset({Role.FLOOR, Role.CASHIER})}
    assert authenticated._cardroom_device is False
