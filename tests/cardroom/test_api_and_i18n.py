import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_openapi_schema_generates_without_warnings(tmp_path, capsys):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    assert "openapi: 3" in (tmp_path / "schema.yml").read_text()


def test_domain_error_maps_to_code_detail_rule(api, manager):
    response = api(manager).post(
        "/api/players/999999/exclude/",
        {"status": "register", "reason": "x", "excluded_from": "2026-01-01"},
        format="json",
    )
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_slovak_page_is_translated(client, manager):
    client.force_login(manager)
    client.cookies["django_language"] = "sk"
    page = client.get("/players/").content.decode()
    assert "Hráči" in page
    assert 'lang="sk"' in page


def test_demo_is_idempotent(capsys, blind_presets):
    from django.contrib.auth import get_user_model

    from cashgame.models import CashTable, Game
    from players.models import Player
    from tournaments.models import Tournament

    call_command("demo")
    call_command("demo")
    assert Player.objects.count() == 60
    assert get_user_model().objects.count() == 5
    assert sorted((g.small_blind_cents, g.big_blind_cents) for g in Game.objects.all()) == [
        (100, 200),
        (200, 500),
    ]
    assert CashTable.objects.filter(status="open").count() == 3
    [tournament] = Tournament.objects.all()
    assert tournament.status == "registering"
    assert tournament.levels.count() > 10
    assert "cashier / cashier-demo-2026" in capsys.readouterr().out
