"""Knock-out bounties (TRN-6): won at the bust-out by the eliminators the floor names, split on a
split pot, the winner's own given back, undone with the bust-out, lapsed by a cancellation,
paid at the cashier with a receipt; the awards sum to the bounty pool."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount, drawer_expected, ledger_total
from tests.tournaments.bounties import BOUNTY, S, awards, bust, owner, pool, started
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0
from tournaments.models import BountyAward, Entry
from tournaments.services._common import rules_for
from tournaments.services.payouts import bounty_pay, bust_undo, split_bounty
from tournaments.services.tournaments import tournament_cancel, tournament_finish

pytestmark = pytest.mark.django_db


def test_split_bounty_to_the_cent_odd_cents_to_first_named__TRN_6():
    assert split_bounty(2_500, 1) == [2_500]
    assert split_bounty(2_500, 2) == [1_250, 1_250]
    assert split_bounty(1_001, 3) == [334, 334, 333]
    assert split_bounty(2, 3) == [1, 1, 0]
    with pytest.raises(ValueError):
        split_bounty(100, 0)


@given(st.integers(0, 10**9), st.integers(1, 9))
def test_split_bounty_sums_exactly_and_differs_by_a_cent_at_most__TRN_6(amount, ways):
    shares = split_bounty(amount, ways)
    assert sum(shares) == amount and len(shares) == ways
    assert max(shares) - min(shares) <= 1 and shares == sorted(shares, reverse=True)


def test_bounty_goes_to_eliminator_and_is_paid_with_receipt__TRN_6(
    floor, cashier, shift, register, make_tournament
):
    tournament, (a, b, c, _d) = started(floor, register, make_tournament, 4)
    assert pool(tournament) == 4 * BOUNTY
    bust(floor, tournament, [a], {a: [b]})
    assert awards(tournament) == [(a.number, b.number, 2_500, "knockout", False)]
    assert AuditRecord.objects.get(action="bounty.award").after == {
        "awards": [[a.number, b.number, 2_500, "knockout"]]
    }
    drawer = drawer_expected(shift=shift)
    record = bounty_pay(actor=cashier, entry=b, shift=shift, idempotency_key="bounty-key-01", now=T0 + 60 * S)
    assert (record.kind, record.amount_cents, record.player_id, record.reference) == (
        "bounty_payout",
        2_500,
        b.player_id,
        owner(tournament),
    )
    assert record.get_kind_display() == "Bounty payout" and record.receipt_number
    assert (pool(tournament), drawer_expected(shift=shift)) == (3 * BOUNTY, drawer - 2_500)
    assert awards(tournament) == [(a.number, b.number, 2_500, "knockout", True)]
    audit = AuditRecord.objects.get(action="entry.bounty_paid")
    assert audit.after["amount_cents"] == 2_500 and audit.after["receipt"] == record.receipt_number
    # The same key answers with the same payout (CAG-2); a second payout is refused: none due.
    again = bounty_pay(actor=cashier, entry=b, shift=shift, idempotency_key="bounty-key-01", now=T0 + 61 * S)
    assert again.pk == record.pk
    with pytest.raises(DomainError) as error:
        bounty_pay(actor=cashier, entry=b, shift=shift, idempotency_key=key(), now=T0 + 62 * S)
    assert (error.value.code, error.value.rule, error.value.status_code) == ("no_bounty_due", "TRN-6", 409)
    with pytest.raises(DomainError) as error:
        bounty_pay(actor=cashier, entry=c, shift=shift, idempotency_key="bounty-key-01", now=T0 + 63 * S)
    assert error.value.code == "idempotency_key_reused"
    assert CashierTransaction.objects.filter(kind="bounty_payout").count() == 1
    assert ledger_total() == 0


def test_floor_cannot_pay_bounties__ROL_1(floor, cashier, shift, register, make_tournament):
    tournament, (a, b, _c) = started(floor, register, make_tournament, 3)
    bust(floor, tournament, [a], {a: [b]})
    with pytest.raises(DomainError):
        bounty_pay(actor=floor, entry=b, shift=shift, idempotency_key=key(), now=T0 + 60 * S)
    assert not CashierTransaction.objects.filter(kind="bounty_payout").exists()


def test_split_pot_splits_the_bounty_in_the_order_named__TRN_6(floor, register, make_tournament):
    tournament, (a, b, c, d, e) = started(floor, register, make_tournament, 5, bounty_cents=1_001)
    # a busts into a pot split by d, b and c (named from the button's left): 10.01 EUR in three.
    bust(floor, tournament, [a], {a: [d, b, c]})
    assert awards(tournament) == [
        (a.number, d.number, 334, "knockout", False),
        (a.number, b.number, 334, "knockout", False),
        (a.number, c.number, 333, "knockout", False),
    ]
    # Two busted in one hand, each by his own eliminator.
    bust(floor, tournament, [b, c], {b: [e], c: [d]}, at=2)
    assert awards(tournament)[3:] == [
        (b.number, e.number, 1_001, "knockout", False),
        (c.number, d.number, 1_001, "knockout", False),
    ]


def test_bounties_sum_to_the_pool_when_the_winner_is_left__TRN_6(
    floor, cashier, shift, register, make_tournament
):
    tournament, (a, b, c, d, e) = started(floor, register, make_tournament, 5)
    bust(floor, tournament, [a], {a: [e]}, at=1)
    bust(floor, tournament, [b, c], {b: [e], c: [d]}, at=2)
    bust(floor, tournament, [d], {d: [e]}, at=3)
    # e is left alone: he wins and gets his own bounty back.
    assert Entry.objects.get(pk=e.pk).finish_place == 1
    assert awards(tournament) == [
        (a.number, e.number, 2_500, "knockout", False),
        (b.number, e.number, 2_500, "knockout", False),
        (c.number, d.number, 2_500, "knockout", False),
        (d.number, e.number, 2_500, "knockout", False),
        (e.number, e.number, 2_500, "own", False),
    ]
    assert sum(a[2] for a in awards(tournament)) == pool(tournament) == 12_500
    tournament_finish(actor=floor, tournament=tournament, now=T0 + 10 * S)
    assert BountyAward.objects.count() == 5  # nothing more to give back
    with pytest.raises(DomainError) as error:
        bust_undo(actor=floor, tournament=tournament, now=T0 + 11 * S)
    assert error.value.code == "tournament_not_running"
    paid = [
        bounty_pay(actor=cashier, entry=winner, shift=shift, idempotency_key=key(), now=T0 + 20 * S)
        for winner in (e, d)
    ]
    assert [record.amount_cents for record in paid] == [10_000, 2_500]
    assert pool(tournament) == 0
    assert ledger_total() == 0


def test_re_entry_carries_a_new_bounty_and_finish_gives_own_bounties_back__TRN_6(
    floor, cashier, shift, register, make_tournament
):
    tournament, (a, b, c) = started(
        floor, register, make_tournament, 3, late_registration_level=2, max_reentries=1
    )
    bust(floor, tournament, [a], {a: [b]})
    again = register(tournament, a.player, now=T0 + 2 * S)
    assert pool(tournament) == 4 * BOUNTY
    bust(floor, tournament, [again], {again: [c]}, at=3)
    # The floor ends the tournament with b and c still in: each gets his own bounty back.
    tournament_finish(actor=floor, tournament=tournament, now=T0 + 4 * S)
    assert awards(tournament) == [
        (a.number, b.number, 2_500, "knockout", False),
        (again.number, c.number, 2_500, "knockout", False),
        (b.number, b.number, 2_500, "own", False),
        (c.number, c.number, 2_500, "own", False),
    ]
    assert sum(a[2] for a in awards(tournament)) == pool(tournament) == 10_000
    assert BountyAward.objects.get(entry=b, reason="own").bust_number is None


def test_bust_of_a_bounty_needs_its_eliminator__TRN_10(floor, register, make_tournament):
    tournament, (a, b, c, d) = started(floor, register, make_tournament, 4)
    audits = AuditRecord.objects.count()
    refusals = [
        ([a], {}, "eliminator_required"),
        ([a], {a: [a]}, "eliminator_not_playing"),  # himself
        ([a, b], {a: [b], b: [c]}, "eliminator_not_playing"),  # busted in the same hand
        ([a], {a: [c, c]}, "bad_eliminators"),
        ([a], {a: [c], d: [c]}, "eliminator_for_whom"),  # d is not busted
    ]
    for busted, by, code in refusals:
        with pytest.raises(DomainError) as error:
            bust(floor, tournament, busted, by)
        assert (error.value.code, error.value.rule) == (code, "TRN-10")
    assert AuditRecord.objects.count() == audits
    assert rules_for(tournament).bust_sequence == 0
    bust(floor, tournament, [a], {a: [b]})
    with pytest.raises(DomainError) as error:
        bust(floor, tournament, [c], {c: [a]}, at=2)  # a is out already
    assert error.value.code == "eliminator_not_playing"
    # Only the one good bust-out was written.
    assert rules_for(tournament).bust_sequence == 1
    assert list(Entry.objects.filter(status="busted").values_list("pk", flat=True)) == [a.pk]
    assert awards(tournament) == [(a.number, b.number, 2_500, "knockout", False)]


def test_no_bounty_no_eliminator_needed__TRN_10(floor, register, make_tournament):
    tournament, (a, b, c) = started(floor, register, make_tournament, 3, bounty_cents=0)
    bust(floor, tournament, [a], {})
    bust(floor, tournament, [b], {b: [c]}, at=2)  # named anyway: nothing to award
    assert not BountyAward.objects.exists()


def test_undo_bust_takes_back_its_unpaid_bounties__TRN_10(floor, cashier, shift, register, make_tournament):
    tournament, (a, b, c) = started(floor, register, make_tournament, 3)
    bust(floor, tournament, [a], {a: [b]})
    bust_undo(actor=floor, tournament=tournament, now=T0 + 2 * S)
    assert awards(tournament) == []
    assert AuditRecord.objects.get(action="bounty.award_undo").after == {
        "awards": [[a.number, b.number, 2_500, "knockout"]]
    }
    bust(floor, tournament, [a], {a: [c]}, at=3)
    bust(floor, tournament, [b], {b: [c]}, at=4)
    # The last bust-out made c the winner with his own bounty back; undoing it takes both back.
    assert awards(tournament)[-2:] == [
        (b.number, c.number, 2_500, "knockout", False),
        (c.number, c.number, 2_500, "own", False),
    ]
    bust_undo(actor=floor, tournament=tournament, now=T0 + 5 * S)
    assert awards(tournament) == [(a.number, c.number, 2_500, "knockout", False)]
    assert Entry.objects.get(pk=c.pk).finish_place is None


def test_undo_refused_once_its_bounty_is_paid__TRN_10(floor, cashier, shift, register, make_tournament):
    tournament, (a, b, _c) = started(floor, register, make_tournament, 3)
    bust(floor, tournament, [a], {a: [b]})
    bounty_pay(actor=cashier, entry=b, shift=shift, idempotency_key=key(), now=T0 + 2 * S)
    audits = AuditRecord.objects.count()
    with pytest.raises(DomainError) as error:
        bust_undo(actor=floor, tournament=tournament, now=T0 + 3 * S)
    assert (error.value.code, error.value.rule) == ("cannot_undo", "TRN-10")
    assert Entry.objects.get(pk=a.pk).status == "busted"
    assert awards(tournament) == [(a.number, b.number, 2_500, "knockout", True)]
    assert AuditRecord.objects.count() == audits


def test_cancel_refunds_bounties_and_unpaid_awards_lapse__TRN_2(floor, register, make_tournament):
    tournament, (a, b, _c) = started(floor, register, make_tournament, 3)
    bust(floor, tournament, [a], {a: [b]})
    tournament_cancel(actor=floor, tournament=tournament, now=T0 + 60 * S)
    assert not BountyAward.objects.exists()
    assert AuditRecord.objects.filter(action="bounty.award_lapse").count() == 1
    assert (
        list(Entry.objects.order_by("pk").values_list("status", "refund_cents"))
        == [("refund_due", 12_500)] * 3
    )
    assert pool(tournament) == 0
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=owner(tournament)) == 37_500
    assert ledger_total() == 0


def test_cancel_refused_once_a_bounty_is_paid__TRN_2(floor, cashier, shift, register, make_tournament):
    tournament, (a, b, _c) = started(floor, register, make_tournament, 3)
    bust(floor, tournament, [a], {a: [b]})
    bounty_pay(actor=cashier, entry=b, shift=shift, idempotency_key=key(), now=T0 + 2 * S)
    with pytest.raises(DomainError) as error:
        tournament_cancel(actor=floor, tournament=tournament, now=T0 + 60 * S)
    assert (error.value.code, error.value.rule) == ("bounties_paid", "TRN-2")
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert account_amount(kind=AccountKind.REFUNDS_PAYABLE, owner=owner(tournament)) == 0
    assert BountyAward.objects.count() == 1
