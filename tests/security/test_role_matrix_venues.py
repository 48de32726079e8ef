"""VEN-1 over the role matrix of ROL-1 (tests/security/test_role_matrix.py's table): roles are
checked in the venue the request works for. A staff member who is a cashier in venue A and a
floor member in venue B gets exactly the cashier's routes while he works in A (his session's
pick) and exactly the floor's at B's address (/v/two/...). One who holds roles in A only is
refused at B's address."""

import pytest

from cardroom.roles import Role
from cardroom.venues import SESSION_VENUE
from tests.security.route_probe import routes
from tests.security.test_role_matrix import EXPECTED, PUBLIC
from tests.two_venues import staff, venue_two

pytestmark = pytest.mark.django_db

# Routes every signed-in person may use whatever his roles (log-in, language, the venue picker,
# the rule book, the API's token and schema), besides the public ones.
FOR_EVERYONE = {name for name, methods in EXPECTED.items() if all(v == "fcma" for v in methods.values())}


def at_venue(client, method: str, path: str, slug: str = ""):
    """A request as the role matrix sends it, for venue `slug` (none: the session's pick): a
    page at the venue's address, an API call naming it in X-Venue, as the API's clients do."""
    extra = {}
    if slug and path.startswith("/api/"):
        extra["HTTP_X_VENUE"] = slug
    elif slug:
        path = f"/v/{slug}{path}"
    if path.startswith("/api/") and method != "get":
        return getattr(client, method)(path, "{}", content_type="application/json", **extra)
    return getattr(client, method)(path, **extra)


def _picking(name: str, location: str) -> bool:
    """Sent to the venue picker, as the one who works in several venues and has not picked is
    (the picker's own POST without a venue sends him back to it: not a refusal)."""
    return name != "venue-pick" and location.startswith("/venue/pick/")


def _refused(status: int, location: str) -> bool:
    return status == 403 or (status == 302 and location.startswith(("/login/", "/venue/pick/")))


def sign_in(client, user, *, picked=None) -> None:
    """Signed in afresh before each request (the matrix logs out too), with the session's pick."""
    client.force_login(user)
    if picked is not None:
        session = client.session
        session[SESSION_VENUE] = picked.pk
        session.save()


def _problems(client, user, *, picked, slug: str, letter: str, who: str) -> list[str]:
    problems = []
    for name, path, methods in routes():
        for method in methods:
            sign_in(client, user, picked=picked)
            response = at_venue(client, method, path, slug)
            status, location = response.status_code, response.get("Location", "")
            allowed = letter in EXPECTED[name][method]
            if status >= 500:
                problems.append(f"{method.upper()} {path} as {who}: {status}")
            elif allowed and (
                status in (401, 403) or location.startswith("/login/?next=") or _picking(name, location)
            ):
                problems.append(f"{method.upper()} {path} as {who}: refused ({status}), should be allowed")
            elif not allowed and status != 403:
                problems.append(f"{method.upper()} {path} as {who}: {status}, should be 403")
    return problems


@pytest.mark.long
def test_a_cashier_in_one_venue_and_floor_in_another_gets_each_venues_routes__VEN_1_ROL_1(client, venue):
    two = venue_two()
    eva = staff("eva", {venue: [Role.CASHIER], two: [Role.FLOOR]})
    # She picked venue A for her session.
    problems = _problems(client, eva, picked=venue, slug="", letter="c", who="cashier of A, in A")
    # The same session at B's address (B in X-Venue for the API) works for B, where she is floor.
    problems += _problems(client, eva, picked=venue, slug="two", letter="f", who="floor of B, at B")
    assert problems == [], "\n".join(problems)


@pytest.mark.long
def test_staff_of_one_venue_are_refused_at_another_venues_address__VEN_1_ROL_1(client, venue):
    venue_two()
    for role in (Role.FLOOR, Role.CASHIER, Role.MANAGER, Role.ADMINISTRATOR):
        user = staff(f"{role.value.lower()}-of-a", {venue: [role]})
        problems = []
        for name, path, methods in routes():
            if name in PUBLIC or name in FOR_EVERYONE:
                continue
            for method in methods:
                sign_in(client, user)
                response = at_venue(client, method, path, "two")
                if not _refused(response.status_code, response.get("Location", "")):
                    problems.append(f"{method.upper()} {path} at B as {role}: {response.status_code}")
        assert problems == [], "\n".join(problems)
