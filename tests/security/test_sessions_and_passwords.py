import pytest
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_staff_sessions_expire__ROL_1(client, cashier):
    assert settings.SESSION_COOKIE_AGE == 12 * 3600
    assert settings.SESSION_EXPIRE_AT_BROWSER_CLOSE is True
    client.post("/login/", {"username": "cashier1", "password": PASSWORD})
    session = client.session
    assert 0 < session.get_expiry_age() <= 12 * 3600
    session.set_expiry(-1)  # an expired session
    session.save()
    assert client.get("/").status_code == 302


@pytest.mark.parametrize("weak", ["short", "password123", "12345678901", "qwertyuiop"])
def test_weak_passwords_refused(cashier, weak):
    with pytest.raises(ValidationError):
        validate_password(weak, user=cashier)


def test_strong_password_accepted(cashier):
    validate_password("Blinds-rise-at-nine-07", user=cashier)
