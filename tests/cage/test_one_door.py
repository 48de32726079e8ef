"""CAG-6: every door to a game's money (the desk's form, the generic API, the game's own
service) goes through the game's service with the game's checks, and the ledger, the sessions
and the entries always agree. Every test ends with the books checked."""

import pytest

from cage.services import DeskRequest, correction_approve, correction_request, transaction_route
from cardroom.errors import DomainError
from cardroom.models import IdempotentRequest
from cashgame.models import Hand, PlayerSession, SeatState
from cashgame.services.hands import hand_start
from cashgame.services.sessions import session_seat
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount, prize_pool_balance
from reports.selectors.books import books_problems
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.factories import PlayerFactory
from tournaments.models import EntryStatus

pytestmark = pytest.mark.django_db


def route(cashier, shift, **fields):
    return transaction_route(
        actor=cashier,
        shift=shift,
        request=DeskRequest(**fields),
        idempotency_key=fields.pop("key", None) or key(),
    )


def post(api, cashier, shift, **body):
    idempotency_key = body.pop("key", key())  # a header, not a field: the body refuses unknown fields
    return api(cashier).post(
        "/api/cashier/transactions/", {"shift": shift.pk, **body}, HTTP_IDEMPOTENCY_KEY=idempotency_key
    )


def nothing_written() -> bool:
    return not CashierTransaction.objects.exists() and not IdempotentRequest.objects.exists()


@pytest.mark.parametrize("amount", [9_999, 30_001])
def test_api_buy_in_outside_the_tables_limits_refused__CSH_1_CAG_6(
    api, cashier, shift, table, player, amount
):
    response = post(
        api, cashier, shift, kind="cash_buy_in", player=player.pk, table=table.pk, seat=3, amount_cents=amount
    )
    assert response.status_code == 400
    assert response.json()["rule"] == "CSH-1"
    assert response.json()["code"] == ("buy_in_below_minimum" if amount < 10_000 else "buy_in_above_maximum")
    assert nothing_written() and not PlayerSession.objects.exists()
    assert books_problems() == []


def test_api_buy_in_without_a_seat_refused__CSH_1_CAG_6(api, cashier, shift, table, player):
    response = post(
        api, cashier, shift, kind="cash_buy_in", player=player.pk, table=table.pk, amount_cents=20_000
    )
    assert (response.status_code, response.json()["code"], response.json()["rule"]) == (
        400,
        "seat_required",
        "CSH-1",
    )
    assert nothing_written()


def test_api_buy_in_opens_the_session_the_game_records__CAG_6(api, cashier, shift, table, player):
    response = post(
        api, cashier, shift, kind="cash_buy_in", player=player.pk, table=table.pk, seat=3, amount_cents=20_000
    )
    assert response.status_code == 201
    assert response.json()["amount_cents"] == 20_000
    session = PlayerSession.objects.get()
    assert (session.seat, session.buy_in_cents, session.state) == (3, 20_000, SeatState.WAITING_FOR_BUTTON)
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 20_000
    assert books_problems() == []


def _seated_and_bought(cashier, floor, shift, table, seats=(1, 2)):
    players = []
    for seat in seats:
        player = PlayerFactory()
        route(
            cashier,
            shift,
            kind="cash_buy_in",
            player_id=player.pk,
            table_id=table.pk,
            seat=seat,
            amount_cents=20_000,
        )
        PlayerSession.objects.filter(player=player).update(state=SeatState.PLAYING)
        players.append(player)
    return players


def test_top_up_mid_hand_refused_through_every_door__CSH_3_CAG_6(api, client, cashier, floor, shift, table):
    first, _second = _seated_and_bought(cashier, floor, shift, table)
    hand_start(actor=floor, table=table, seats=[1, 2])
    before = CashierTransaction.objects.count()
    response = post(
        api, cashier, shift, kind="top_up", player=first.pk, amount_cents=5_000, chips_on_table_cents=15_000
    )
    assert (response.status_code, response.json()["rule"]) == (409, "CSH-3")
    client.force_login(cashier)
    page = client.get("/cashier/")
    form = {
        "idempotency_key": page.context["form"]["idempotency_key"].value(),
        "kind": "top_up",
        "player": first.pk,
        "amount": "50",
        "chips_on_table": "150",
        "method": "cash",
    }
    answer = client.post("/cashier/", form)
    assert answer.status_code == 200
    assert "A hand is in progress" in answer.content.decode()
    assert CashierTransaction.objects.count() == before
    assert PlayerSession.objects.get(player=first).top_up_cents == 0
    assert books_problems() == []


def test_top_up_needs_the_dealers_count__CSH_5(cashier, shift, floor, table):
    first, _ = _seated_and_bought(cashier, floor, shift, table)
    with pytest.raises(DomainError) as error:
        route(cashier, shift, kind="top_up", player_id=first.pk, amount_cents=5_000)
    assert (error.value.code, error.value.rule) == ("chips_count_required", "CSH-5")


def test_cash_out_for_a_player_never_seated_refused__CAG_6(api, cashier, floor, shift, table, player):
    _seated_and_bought(cashier, floor, shift, table)  # chips in play that a stranger must not take
    before = CashierTransaction.objects.count()
    response = post(
        api, cashier, shift, kind="cash_out", player=player.pk, table=table.pk, amount_cents=10_000
    )
    assert (response.status_code, response.json()["code"], response.json()["rule"]) == (
        409,
        "no_session",
        "CAG-6",
    )
    assert CashierTransaction.objects.count() == before
    assert books_problems() == []


def test_cash_out_ends_the_session_and_the_books_agree__CAG_6(cashier, floor, shift, table):
    first, second = _seated_and_bought(cashier, floor, shift, table)
    route(cashier, shift, kind="cash_out", player_id=first.pk, amount_cents=25_000)
    route(cashier, shift, kind="cash_out", player_id=second.pk, amount_cents=15_000)
    assert not PlayerSession.objects.filter(ended_at__isnull=True).exists()
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 0
    assert books_problems() == []


@pytest.mark.parametrize("field", ["prize", "fee_cents", "bounty_cents"])
def test_a_split_typed_by_hand_is_refused__CAG_6_TRN_6(api, cashier, shift, tournament, player, field):
    response = post(
        api,
        cashier,
        shift,
        kind="tournament_buy_in",
        player=player.pk,
        tournament=tournament.pk,
        **{field: 5_000},
    )
    assert (response.status_code, response.json()["code"], response.json()["rule"]) == (
        400,
        "split_typed",
        "CAG-6",
    )
    assert nothing_written() and not tournament.entries.exists()


def test_api_tournament_buy_in_makes_the_entry_with_the_tournaments_split__CAG_6_TRN_6(
    api, cashier, shift, tournament, player
):
    response = post(api, cashier, shift, kind="tournament_buy_in", player=player.pk, tournament=tournament.pk)
    assert response.status_code == 201
    assert response.json()["amount_cents"] == 10_000
    entry = tournament.entries.get()
    assert (entry.player, entry.status, entry.cashier_transaction_id) == (
        player,
        EntryStatus.ACTIVE,
        response.json()["id"],
    )
    assert prize_pool_balance(tournament_id=tournament.pk) == 9_000
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == 1_000
    assert books_problems() == []


def test_a_typed_buy_in_of_another_amount_is_refused__CAG_6(api, cashier, shift, tournament, player):
    response = post(
        api,
        cashier,
        shift,
        kind="tournament_buy_in",
        player=player.pk,
        tournament=tournament.pk,
        amount_cents=5_000,
    )
    assert (response.status_code, response.json()["code"]) == (400, "amount_differs")
    assert "100.00 EUR, not 50.00 EUR" in response.json()["detail"]
    assert nothing_written()


def test_refund_at_the_desk_withdraws_the_entry__CAG_6_TRN_2(cashier, shift, tournament, player):
    route(cashier, shift, kind="tournament_buy_in", player_id=player.pk, tournament_id=tournament.pk)
    refund = route(cashier, shift, kind="refund", player_id=player.pk, tournament_id=tournament.pk)
    assert refund.amount_cents == 10_000
    entry = tournament.entries.get()
    assert (entry.status, entry.refund_cents, entry.table_id) == (EntryStatus.WITHDRAWN, 10_000, None)
    assert prize_pool_balance(tournament_id=tournament.pk) == 0
    assert books_problems() == []


def test_reversing_a_tournament_buy_in_withdraws_the_entry__CAG_6(
    cashier, manager, manager2, shift, tournament, player
):
    record = route(cashier, shift, kind="tournament_buy_in", player_id=player.pk, tournament_id=tournament.pk)
    request = correction_request(actor=manager, posting=record.posting, reason="Wrong player")
    correction_approve(actor=manager2, request=request)
    entry = tournament.entries.get()
    assert entry.status == EntryStatus.WITHDRAWN
    assert prize_pool_balance(tournament_id=tournament.pk) == 0
    assert books_problems() == []


def test_reversing_a_cash_buy_in_corrects_the_session__CAG_6(
    cashier, floor, manager, manager2, shift, table, player
):
    session_seat(actor=floor, table=table, player=player, seat=4, now=T0)
    record = route(
        cashier, shift, kind="cash_buy_in", player_id=player.pk, table_id=table.pk, amount_cents=20_000
    )
    request = correction_request(actor=manager, posting=record.posting, reason="Typed 200 for 100")
    correction_approve(actor=manager2, request=request)
    session = PlayerSession.objects.get()
    assert (session.buy_in_cents, session.state, session.seat) == (0, SeatState.AWAITING_BUY_IN, 4)
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 0
    assert books_problems() == []
    route(cashier, shift, kind="cash_buy_in", player_id=player.pk, table_id=table.pk, amount_cents=10_000)
    assert PlayerSession.objects.get().buy_in_cents == 10_000
    assert books_problems() == []


def test_reversing_a_buy_in_whose_chips_played_is_refused__CAG_6(cashier, floor, manager, shift, table):
    first, _ = _seated_and_bought(cashier, floor, shift, table)
    hand_start(actor=floor, table=table, seats=[1, 2])
    record = CashierTransaction.objects.get(player=first)
    with pytest.raises(DomainError) as error:
        correction_request(actor=manager, posting=record.posting, reason="Too late")
    assert (error.value.code, error.value.rule) == ("chips_have_played", "CAG-6")
    assert Hand.objects.count() == 1


def test_reversing_a_buy_in_whose_chips_another_player_took_to_the_cage_is_refused__CAG_6_CSH_4(
    cashier, manager, floor, shift, table
):
    """Found by the books state machine: two buy-ins of 200.00 EUR, one player cashes out all
    400.00 EUR, then the other's buy-in is reversed; the table would hold -200.00 EUR in play."""
    first, second = _seated_and_bought(cashier, floor, shift, table)
    route(cashier, shift, kind="cash_out", player_id=first.pk, table_id=table.pk, amount_cents=40_000)
    record = CashierTransaction.objects.get(player=second, kind="cash_buy_in")
    with pytest.raises(DomainError) as error:
        correction_request(actor=manager, posting=record.posting, reason="Typed wrong")
    assert (error.value.code, error.value.rule) == ("chips_have_played", "CAG-6")
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 0
    assert PlayerSession.objects.get(player=second).buy_in_cents == 20_000
    assert books_problems() == []


def test_repeated_key_answers_with_the_first_receipt__CAG_2(api, cashier, shift, table, player):
    body = {"kind": "cash_buy_in", "player": player.pk, "table": table.pk, "seat": 2, "amount_cents": 20_000}
    first = post(api, cashier, shift, key="door-repeat-0001", **body)
    again = post(api, cashier, shift, key="door-repeat-0001", **body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert (first["Idempotent-Replayed"], again["Idempotent-Replayed"]) == ("false", "true")
    other = post(api, cashier, shift, key="door-repeat-0001", **{**body, "amount_cents": 25_000})
    assert (other.status_code, other.json()["rule"]) == (409, "CAG-2")
    assert CashierTransaction.objects.count() == 1
    assert books_problems() == []


def test_a_refused_request_leaves_its_key_to_the_corrected_one__CAG_2(api, cashier, shift, table, player):
    """A refusal stores nothing: the same key, sent again with the request put right, is carried
    out (not replayed), and its repeat is then the replay. No door looked the key up by hand."""
    body = {"kind": "cash_buy_in", "player": player.pk, "table": table.pk, "seat": 2, "amount_cents": 5_000}
    refused = post(api, cashier, shift, key="door-retry-0001", **body)
    assert (refused.json()["code"], refused.json()["rule"]) == ("buy_in_below_minimum", "CSH-1")
    assert nothing_written()
    carried_out = post(api, cashier, shift, key="door-retry-0001", **{**body, "amount_cents": 20_000})
    again = post(api, cashier, shift, key="door-retry-0001", **{**body, "amount_cents": 20_000})
    assert (carried_out.status_code, carried_out["Idempotent-Replayed"]) == (201, "false")
    assert (again.status_code, again["Idempotent-Replayed"]) == (200, "true")
    assert again.json() == carried_out.json()
    assert IdempotentRequest.objects.get().operation == "cage.transaction_route"
    assert CashierTransaction.objects.count() == 1


def test_repeated_cash_out_answers_with_the_first_receipt_after_the_session_ended__CAG_2(
    api, cashier, floor, shift, table
):
    """The cash-out ended the session the door looks up: its repeat must still be a replay,
    not "no seat at a cash table"."""
    first, _second = _seated_and_bought(cashier, floor, shift, table)
    body = {"kind": "cash_out", "player": first.pk, "table": table.pk, "amount_cents": 25_000}
    paid = post(api, cashier, shift, key="door-cash-out-0001", **body)
    again = post(api, cashier, shift, key="door-cash-out-0001", **body)
    assert (paid.status_code, again.status_code) == (201, 200)
    assert paid.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    other = post(api, cashier, shift, key="door-cash-out-0001", **{**body, "amount_cents": 24_000})
    assert (other.status_code, other.json()["code"], other.json()["rule"]) == (
        409,
        "idempotency_key_reused",
        "CAG-2",
    )
    assert CashierTransaction.objects.filter(kind="cash_out").count() == 1
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == 15_000
    assert books_problems() == []


def test_repeated_refund_answers_with_the_first_receipt_after_the_entry_was_withdrawn__CAG_2(
    cashier, shift, tournament, player
):
    route(cashier, shift, kind="tournament_buy_in", player_id=player.pk, tournament_id=tournament.pk)
    request = DeskRequest(kind="refund", player_id=player.pk, tournament_id=tournament.pk)
    refund = transaction_route(actor=cashier, shift=shift, request=request, idempotency_key="door-refund-01")
    again = transaction_route(actor=cashier, shift=shift, request=request, idempotency_key="door-refund-01")
    assert (again.pk, again.receipt_number) == (refund.pk, refund.receipt_number)
    assert CashierTransaction.objects.filter(kind="refund").count() == 1
    assert tournament.entries.get().status == EntryStatus.WITHDRAWN
    assert books_problems() == []


def test_an_excluded_players_buy_in_is_refused_and_logged_at_every_door__PLY_1(
    api, cashier, manager, shift, table, tournament, player
):
    from datetime import date

    from cardroom.models import AuditRecord
    from players.models import ExclusionStatus
    from players.services import player_exclude

    player_exclude(
        actor=manager,
        player=player,
        status=ExclusionStatus.SELF_EXCLUDED,
        reason="Asked",
        excluded_from=date(2026, 1, 1),
    )
    cash = post(
        api, cashier, shift, kind="cash_buy_in", player=player.pk, table=table.pk, seat=1, amount_cents=20_000
    )
    entry = post(api, cashier, shift, kind="tournament_buy_in", player=player.pk, tournament=tournament.pk)
    assert [(r.status_code, r.json()["rule"]) for r in (cash, entry)] == [(403, "PLY-1"), (403, "PLY-1")]
    assert AuditRecord.objects.filter(action="player.refused", actor=cashier).count() == 2
    assert nothing_written() and not tournament.entries.exists()
