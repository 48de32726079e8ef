import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import CashTable, Game, TableStatus
from cashgame.services.games import game_create, game_update
from cashgame.services.sessions import session_seat
from cashgame.services.tables import table_close, table_create, table_open
from tests.cashgame.conftest import T0, at

pytestmark = pytest.mark.django_db


def test_game_defaults_are_the_house_rules__RAK_3_JKP_1_JKP_2(manager):
    game = game_create(
        actor=manager,
        name="NLHE 1/2",
        game_type="nlhe",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
        max_buy_in_cents=30_000,
        now=T0,
    )
    assert (game.rake_rate_bp, game.rake_cap_cents, game.rake_rounding_cents) == (500, 500, 50)
    assert (game.jackpot_small_blind_cents, game.jackpot_big_blind_cents, game.jackpot_min_players) == (
        100,
        200,
        4,
    )
    assert (game.jackpot_drop_cents, game.jackpot_threshold_cents, game.seat_hold_seconds) == (100, 2000, 180)
    assert game.jackpot_stakes is True
    record = AuditRecord.objects.get(action="cashgame.game_create")
    assert record.after["min_buy_in_cents"] == 10_000 and record.actor == manager


def test_game_update_is_audited_with_before_and_after__CSH_1(manager, game12):
    game_update(actor=manager, game=game12, rake_cap_cents=400, max_buy_in_cents=None, now=at(1))
    game12.refresh_from_db()
    assert (game12.rake_cap_cents, game12.max_buy_in_cents) == (400, None)
    record = AuditRecord.objects.get(action="cashgame.game_update")
    assert (record.before["rake_cap_cents"], record.after["rake_cap_cents"]) == (500, 400)
    assert (record.before["max_buy_in_cents"], record.after["max_buy_in_cents"]) == (30_000, None)


def test_floor_cannot_change_a_game__ROL_1(floor, game12):
    with pytest.raises(DomainError) as error:
        game_update(actor=floor, game=game12, rake_cap_cents=0)
    assert error.value.rule == "ROL-1"
    game12.refresh_from_db()
    assert game12.rake_cap_cents == 500
    assert not AuditRecord.objects.filter(action__startswith="cashgame.").exists()


def test_half_bet_rule_is_off_by_default_and_changed_with_an_audit__BET_3(manager, game12):
    assert game12.half_bet_rule is False
    game_update(actor=manager, game=game12, half_bet_rule=True, now=at(1))
    game12.refresh_from_db()
    assert game12.half_bet_rule is True
    record = AuditRecord.objects.get(action="cashgame.game_update")
    assert (record.before["half_bet_rule"], record.after["half_bet_rule"], record.actor) == (
        False,
        True,
        manager,
    )


def test_floor_cannot_switch_the_half_bet_rule__BET_3_ROL_1(floor, game12):
    with pytest.raises(DomainError) as error:
        game_update(actor=floor, game=game12, half_bet_rule=True)
    assert error.value.rule == "ROL-1"
    assert Game.objects.get(pk=game12.pk).half_bet_rule is False
    assert not AuditRecord.objects.exists()


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"half_bet_rule": "yes"}, "invalid_half_bet_rule"),
        ({"max_buy_in_cents": 5_000}, "invalid_max_buy_in"),
        ({"small_blind_cents": 300}, "invalid_blinds"),
        ({"min_buy_in_cents": 100}, "invalid_min_buy_in"),
        ({"rake_rate_bp": 10_001}, "invalid_rake_rate"),
        ({"rake_rounding_cents": 0}, "invalid_rake_rounding"),
        ({"game_type": "stud"}, "invalid_game_type"),
    ],
)
def test_game_settings_that_make_no_sense_are_refused__CSH_1(manager, game12, changes, code):
    with pytest.raises(DomainError) as error:
        game_update(actor=manager, game=game12, **changes)
    assert error.value.code == code
    assert Game.objects.get(pk=game12.pk).max_buy_in_cents == 30_000
    assert not AuditRecord.objects.exists()


def test_open_and_close_a_table(manager, floor, game12, game25):
    table = table_create(actor=manager, number=7, game=game12, seats=9, now=T0)
    assert table.status == TableStatus.CLOSED
    table = table_open(actor=floor, table=table, game=game25, now=at(1))
    assert (table.status, table.game, table.opened_at) == (TableStatus.OPEN, game25, at(1))
    table = table_close(actor=floor, table=table, now=at(2))
    assert (table.status, table.closed_at) == (TableStatus.CLOSED, at(2))
    assert list(AuditRecord.objects.order_by("at", "pk").values_list("action", flat=True)) == [
        "cashgame.table_create",
        "cashgame.table_open",
        "cashgame.table_close",
    ]


def test_closing_a_table_with_players_seated_is_refused(floor, table12, player):
    session_seat(actor=floor, table=table12, player=player, seat=3, now=at(1))
    with pytest.raises(DomainError) as error:
        table_close(actor=floor, table=table12, now=at(2))
    assert error.value.code == "players_seated"
    table12.refresh_from_db()
    assert table12.status == TableStatus.OPEN
    assert not AuditRecord.objects.filter(action="cashgame.table_close").exists()


def test_demo_loads_cash_games_once(capsys):
    from django.core.management import call_command

    call_command("demo")
    call_command("demo")
    assert list(Game.objects.values_list("name", "small_blind_cents", "big_blind_cents")) == [
        ("NLHE 1/2 EUR", 100, 200),
        ("NLHE 2/5 EUR", 200, 500),
    ]
    assert list(CashTable.objects.values_list("number", "status")) == [(1, "open"), (2, "open"), (3, "open")]
