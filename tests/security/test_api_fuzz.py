"""Schemathesis against our own OpenAPI schema, as every role, with all its checks: no 5xx, no
answer outside the schema. Bounded examples per operation keep it within CI's time."""

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from cardroom.roles import Role
from tests.conftest import make_staff

schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
application = get_wsgi_application()

ROLES = {role.value.lower(): role for role in Role}
# Every check but two. A request that fits the schema may still break a house rule (an unknown
# player, a closed shift, wrong credentials): a 4xx naming the rule is the right answer then.
# And the auth check cannot take away the token this test sends itself; who may call what
# without or with the wrong role is proved route by route in tests/security/test_role_matrix.py.
EXCLUDED = [positive_data_acceptance, ignored_auth]
# Each example is one request per role: 4 per operation in each of CI's two passes, 8 under
# HYPOTHESIS_PROFILE=deep. Both first send schemathesis's coverage cases (the boundary
# values of every parameter and body field, several hundred for some operations), which are most
# of the requests either way.
EXAMPLES = 8 if os.environ.get("HYPOTHESIS_PROFILE") == "deep" else 4
# A role the operation refuses (ROL-1) is refused before the request's parameters or body are
# read, so after its first refusal the operation's other cases are sent as the roles it admits.
# Schemathesis's coverage phase sends hundreds of boundary cases to some operations; sending each
# to a role already refused took about 40 % of this test's time and checked nothing new.
ROLE_REFUSALS = {"permission_denied", "role_required"}


@pytest.fixture(autouse=True)
def _keep_test_connection():
    """A bare WSGI handler closes the database connection after each request, as in production;
    inside a test that would close the test's own transaction. Django's test client turns this off
    the same way."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(db):
    return {
        name: Token.objects.create(user=make_staff(f"fuzz-{name}", role)).key for name, role in ROLES.items()
    }


@pytest.fixture
def refused_roles():
    """The roles this operation refused; one set per operation (hypothesis's examples share it)."""
    return set()


def role_refusal(response) -> bool:
    if response.status_code != 403:
        return False
    try:
        return response.json().get("code") in ROLE_REFUSALS
    except ValueError:
        return False


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_answers_within_schema_for_every_role(case, tokens, refused_roles):
    for role, token in tokens.items():
        if role in refused_roles:
            continue
        response = case.call_and_validate(
            app=application,
            headers={"Authorization": f"Token {token}", "Host": "testserver"},
            excluded_checks=EXCLUDED,
        )
        if role_refusal(response):
            refused_roles.add(role)
