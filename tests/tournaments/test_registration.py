import random
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount, ledger_total, prize_pool_balance
from players.models import Player
from tests.factories import PlayerFactory
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0
from tournaments.models import Entry, EntryPayment, Tournament
from tournaments.services._common import rules_for
from tournaments.services.clock import clock_advance_due, clock_next_level
from tournaments.services.registration import (
    entry_add_on,
    entry_mark_present,
    entry_rebuy,
    refund_pay,
    tournament_postpone,
    tournament_start,
)
from tournaments.services.tournaments import tournament_cancel

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)


def owner(tournament):
    return f"tournament:{tournament.pk}"


def test_register_posts_buy_in_and_creates_entry__TRN_6(cashier, make_tournament, register):
    tournament = make_tournament(bounty_cents=500)
    player = PlayerFactory()
    entry = register(tournament, player)
    assert (entry.number, entry.kind, entry.status, entry.present, entry.starting_stack_chips) == (
        1,
        "buy_in",
        "active",
        True,
        20_000,
    )
    record = entry.cashier_transaction
    assert (record.kind, record.amount_cents, record.player_id) == ("tournament_buy_in", 10_500, player.pk)
    assert prize_pool_balance(tournament_id=tournament.pk) == 9_000
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == 1_000
    assert account_amount(kind=AccountKind.BOUNTY_POOL, owner=owner(tournament)) == 500
    assert ledger_total() == 0
    assert AuditRecord.objects.filter(action="entry.register").count() == 1


def test_register_same_key_returns_same_entry__CAG_2(make_tournament, register):
    tournament = make_tournament()
    player = PlayerFactory()
    first = register(tournament, player, idempotency_key="same-key-0001")
    again = register(tournament, player, idempotency_key="same-key-0001")
    assert again.pk == first.pk
    assert Entry.objects.count() == 1
    assert CashierTransaction.objects.count() == 1
    assert prize_pool_balance(tournament_id=tournament.pk) == 9_000


def test_excluded_player_refused_and_logged__PLY_1(make_tournament, register):
    tournament = make_tournament()
    player = PlayerFactory(exclusion_status="self_excluded")
    with pytest.raises(DomainError) as error:
        register(tournament, player)
    assert error.value.rule == "PLY-1"
    assert not Entry.objects.exists() and not CashierTransaction.objects.exists()
    assert AuditRecord.objects.filter(action="player.refused", object_id=str(player.pk)).count() == 1


def test_register_after_late_registration_refused__TRN_6(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=2)
    for _ in range(2):
        register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    # Level 2 is still running at 19:59: a late entry is taken and seated.
    late = register(tournament, now=T0 + 1199 * S)
    assert late.table is not None and late.seat is not None
    # Level 2 ended at 20:20 (no worker ran): registering at 20:20 raises the level first and refuses.
    with pytest.raises(DomainError) as error:
        register(tournament, now=T0 + 1200 * S)
    assert (error.value.code, error.value.rule) == ("registration_closed", "TRN-6")
    assert Entry.objects.count() == 3
    assert CashierTransaction.objects.count() == 3
    assert prize_pool_balance(tournament_id=tournament.pk) == 27_000
    rules = rules_for(tournament)
    assert rules.registration_closed_at == T0 + 1200 * S
    tournament.refresh_from_db()
    assert tournament.current_level_index == 2  # the due rise was kept although the entry was refused
    assert AuditRecord.objects.filter(action="tournament.registration_closed", actor=None).count() == 1


def test_registration_closes_by_itself_at_end_of_level__TRN_6(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=1)
    register(tournament)
    register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    assert rules_for(tournament).registration_closed_at is None
    clock_advance_due(tournament_id=tournament.pk, now=T0 + 600 * S)  # the scheduled rise, no one touching
    assert rules_for(tournament).registration_closed_at == T0 + 600 * S
    clock_advance_due(tournament_id=tournament.pk, now=T0 + 601 * S)  # a duplicated message changes nothing
    assert AuditRecord.objects.filter(action="tournament.registration_closed").count() == 1


def test_floor_step_past_level_closes_registration__TRN_6(floor, make_tournament, register):
    tournament = make_tournament(late_registration_level=1)
    register(tournament)
    register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    clock_next_level(actor=floor, tournament=tournament, now=T0 + 60 * S)
    assert rules_for(tournament).registration_closed_at == T0 + 60 * S


def test_reentry_after_bust_and_limit__TRN_6(floor, make_tournament, register):
    from tournaments.services.payouts import entry_bust

    tournament = make_tournament(max_reentries=1, late_registration_level=5)
    player = PlayerFactory()
    first = register(tournament, player)
    register(tournament)
    register(tournament)
    # While his entry is live he cannot re-enter.
    with pytest.raises(DomainError) as error:
        register(tournament, player)
    assert (error.value.code, error.value.rule) == ("entry_still_active", "TRN-6")
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    entry_bust(actor=floor, tournament=tournament, busted=[(first.pk, 20_000)], now=T0 + 60 * S)
    second = register(tournament, player, now=T0 + 61 * S)
    assert (second.number, second.kind, second.cashier_transaction.kind) == (4, "re_entry", "re_entry")
    entry_bust(actor=floor, tournament=tournament, busted=[(second.pk, 20_000)], now=T0 + 62 * S)
    before = (
        Entry.objects.count(),
        CashierTransaction.objects.count(),
        prize_pool_balance(tournament_id=tournament.pk),
    )
    with pytest.raises(DomainError) as error:
        register(tournament, player, now=T0 + 63 * S)
    assert (error.value.code, error.value.rule) == ("reentry_limit", "TRN-6")
    after = (
        Entry.objects.count(),
        CashierTransaction.objects.count(),
        prize_pool_balance(tournament_id=tournament.pk),
    )
    assert before == after == (4, 4, 36_000)


def test_mark_present_audited__TRN_3(floor, make_tournament, register):
    tournament = make_tournament()
    entry = register(tournament, present=False)
    entry = entry_mark_present(actor=floor, entry=entry, present=True, now=T0)
    assert Entry.objects.get(pk=entry.pk).present is True
    record = AuditRecord.objects.get(action="entry.present")
    assert (record.before, record.after, record.actor) == ({"present": False}, {"present": True}, floor)


def test_rebuy_and_add_on_limits__TRN_6(floor, cashier, shift, make_tournament, register):
    tournament = make_tournament(late_registration_level=1)
    rules = rules_for(tournament)
    rules.rebuy_level, rules.max_rebuys = 2, 1
    rules.rebuy_prize_cents, rules.rebuy_fee_cents, rules.rebuy_chips = 4_000, 500, 10_000
    rules.add_on_level, rules.add_on_prize_cents, rules.add_on_fee_cents, rules.add_on_chips = (
        3,
        3_000,
        0,
        15_000,
    )
    rules.save()
    entry = register(tournament)
    register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    entry = entry_rebuy(actor=cashier, entry=entry, shift=shift, idempotency_key="rebuy-key-1", now=T0 + S)
    assert entry.rebuys == 1
    again = entry_rebuy(actor=cashier, entry=entry, shift=shift, idempotency_key="rebuy-key-1", now=T0 + S)
    assert again.rebuys == 1  # the same key: nothing posted twice (CAG-2)
    with pytest.raises(DomainError) as error:
        entry_rebuy(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + 2 * S)
    assert (error.value.code, error.value.rule) == ("rebuy_limit", "TRN-6")
    entry = entry_add_on(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + 3 * S)
    assert entry.add_ons == 1
    with pytest.raises(DomainError) as error:
        entry_add_on(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + 4 * S)
    assert error.value.code == "add_on_limit"
    # 2 buy-ins of 9,000 + one rebuy of 4,000 + one add-on of 3,000.
    assert prize_pool_balance(tournament_id=tournament.pk) == 25_000
    assert sorted(EntryPayment.objects.values_list("kind", "chips")) == [
        ("add_on", 15_000),
        ("buy_in", 20_000),
        ("buy_in", 20_000),
        ("rebuy", 10_000),
    ]
    # Level 2 ends at 20:20: rebuys close by themselves.
    second = Entry.objects.get(number=2)
    with pytest.raises(DomainError) as error:
        entry_rebuy(actor=cashier, entry=second, shift=shift, idempotency_key=key(), now=T0 + 1200 * S)
    assert error.value.code == "rebuys_closed"
    assert rules_for(tournament).rebuys_closed_at == T0 + 1200 * S


def test_start_short_of_players_refused__TRN_1(floor, make_tournament, register):
    tournament = make_tournament(min_players=9)
    for _ in range(8):
        register(tournament)
    audits = AuditRecord.objects.count()
    with pytest.raises(DomainError) as error:
        tournament_start(actor=floor, tournament=tournament, now=T0)
    assert (error.value.code, error.value.rule) == ("not_enough_players", "TRN-1")
    assert "Only 8 players are registered" in error.value.message and "at least 9" in error.value.message
    tournament.refresh_from_db()
    assert (tournament.status, tournament.clock_version, tournament.tables.count()) == ("registering", 0, 0)
    assert AuditRecord.objects.count() == audits
    register(tournament)
    tournament = tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    assert tournament.status == "running"
    assert sorted(Entry.objects.values_list("table__number", flat=True)) == [1] * 9


def test_postpone_start__TRN_1(floor, make_tournament):
    tournament = make_tournament()
    later = T0 + timedelta(hours=1)
    tournament = tournament_postpone(actor=floor, tournament=tournament, start_at=later, now=T0)
    assert Tournament.objects.get(pk=tournament.pk).start_at == later
    with pytest.raises(DomainError) as error:
        tournament_postpone(actor=floor, tournament=tournament, start_at=T0, now=T0)
    assert error.value.code == "not_later"
    assert AuditRecord.objects.filter(action="tournament.postpone").count() == 1


def test_cancel_refunds_everything__TRN_2(floor, cashier, shift, make_tournament, register):
    tournament = make_tournament(bounty_cents=500)
    entries = [register(tournament) for _ in range(3)]
    fees_before = account_amount(kind=AccountKind.TOURNAMENT_FEES)
    tournament_cancel(actor=floor, tournament=tournament, now=T0 + 60 * S)
    assert prize_pool_balance(tournament_id=tournament.pk) == 0
    assert account_amount(kind=AccountKind.BOUNTY_POOL, owner=owner(tournament)) == 0
    assert account_amount(kind=AccountKind.TOURNAMENT_FEES) == fees_before - 3_000
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=owner(tournament)) == 31_500
    assert list(Entry.objects.values_list("status", "refund_cents")) == [("refund_due", 10_500)] * 3
    for entry in entries:
        paid = refund_pay(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + 120 * S)
        assert paid.status == "refunded" and paid.refund_transaction.amount_cents == 10_500
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=owner(tournament)) == 0
    with pytest.raises(DomainError) as error:
        refund_pay(actor=cashier, entry=entries[0], shift=shift, idempotency_key=key(), now=T0 + 121 * S)
    assert (error.value.code, error.value.rule) == ("no_refund_due", "TRN-2")
    assert CashierTransaction.objects.filter(kind="refund").count() == 3
    assert ledger_total() == 0


def test_cancel_is_all_or_nothing__TRN_2(floor, make_tournament, register):
    tournament = make_tournament()
    register(tournament)
    tournament_cancel(actor=floor, tournament=tournament, now=T0)
    with pytest.raises(DomainError):
        tournament_cancel(actor=floor, tournament=tournament, now=T0)  # cancelled cannot be cancelled again
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=owner(tournament)) == 10_000
    assert Player.objects.count() == 1
