"""An independent recomputation of the report's figures from the raw ledger, in plain Python: every
entry of the gaming day is read one by one and summed by the account it names, the table its
posting's chips account names, or the tournament its posting names. The reports read rollups and
grouped queries; the tests compare both to the cent."""

from collections import defaultdict
from datetime import date

from cardroom.selectors import gaming_day_bounds
from cashgame.models import Hand
from cashier.models import AccountKind, CashierTransaction, Entry, TransactionKind


def _day_entries(day: date) -> list[Entry]:
    start, end = gaming_day_bounds(day)
    return [
        e
        for e in Entry.objects.select_related("account", "posting").order_by("pk")
        if start <= e.created_at < end
    ]


def _transaction_kind(posting_id: int) -> str:
    """The kind of the cashier transaction behind a posting, or behind the one it reverses."""
    record = CashierTransaction.objects.filter(posting_id=posting_id).first()
    if record is None:
        record = CashierTransaction.objects.filter(posting__reversed_by__pk=posting_id).first()
    return record.kind if record else ""


def figures(day: date) -> dict[str, int]:
    """The room's figures: sums of the named accounts' entries (credit-normal accounts negated).
    Prize pools are told apart by the transaction behind each posting: a prize payout is a prize
    paid, a refund (or a cancellation's debt, on refunds payable) is a refund, the overlay
    posting is the house's; the rest is the players' contributions."""
    sums: dict[str, int] = defaultdict(int)
    debits: dict[str, int] = defaultdict(int)
    credits: dict[str, int] = defaultdict(int)
    prizes_paid = pool_other = refunds = 0
    entries = _day_entries(day)
    for e in entries:
        sums[e.account.kind] += e.amount_cents
        if e.amount_cents > 0:
            debits[e.account.kind] += e.amount_cents
        else:
            credits[e.account.kind] -= e.amount_cents
        kind = _transaction_kind(e.posting_id)
        if e.account.kind == AccountKind.PRIZE_POOL:
            if kind == TransactionKind.PRIZE_PAYOUT:
                prizes_paid += e.amount_cents
            else:
                pool_other -= e.amount_cents
        if e.account.kind == AccountKind.REFUNDS_PAYABLE and e.amount_cents < 0:
            refunds -= e.amount_cents
        elif kind == TransactionKind.REFUND and e.account.kind in (
            AccountKind.PRIZE_POOL,
            AccountKind.TOURNAMENT_FEES,
            AccountKind.BOUNTY_POOL,
        ):
            refunds += e.amount_cents
    return {
        "rake": -sums[AccountKind.RAKE_REVENUE],
        "fees": -sums[AccountKind.TOURNAMENT_FEES],
        "overlay": sums[AccountKind.OVERLAY_EXPENSE],
        "cash_variance": -sums[AccountKind.CASH_VARIANCE],
        "jackpot_drops": credits[AccountKind.JACKPOT_FUND],
        "jackpot_payouts": debits[AccountKind.JACKPOT_FUND],
        "prize_contributions": pool_other - sums[AccountKind.OVERLAY_EXPENSE],
        "prizes_paid": prizes_paid,
        "refunds": refunds,
    }


def jackpot_balance_before(day: date) -> int:
    start, _end = gaming_day_bounds(day)
    return -sum(
        e.amount_cents
        for e in Entry.objects.select_related("account")
        if e.account.kind == AccountKind.JACKPOT_FUND and e.created_at < start
    )


def rake_by_table_and_stakes(day: date) -> dict[tuple[int, int, int], tuple[int, int]]:
    """{(table number, small blind, big blind): (rake, jackpot drops)}: each rake or jackpot entry
    goes to the table whose chips account is debited in the same posting, at the stakes of the
    hand that posting belongs to."""
    result: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0])
    for e in _day_entries(day):
        if e.account.kind not in (AccountKind.RAKE_REVENUE, AccountKind.JACKPOT_FUND):
            continue
        chips = [
            s
            for s in e.posting.entries.select_related("account")
            if s.account.kind == AccountKind.CHIPS_IN_PLAY
        ]
        if len(chips) != 1:
            continue  # not a hand's posting (a payout from the fund)
        hand = Hand.objects.select_related("table").get(posting=e.posting)
        assert chips[0].account.owner == f"table:{hand.table_id}"
        line = result[(hand.table.number, hand.small_blind_cents, hand.big_blind_cents)]
        line[0 if e.account.kind == AccountKind.RAKE_REVENUE else 1] -= e.amount_cents
    return {k: tuple(v) for k, v in result.items()}


def tournament_money(day: date) -> dict[int, dict[str, int]]:
    """{tournament id: {account kind: net sum}} of the postings that name the tournament, by an
    account it owns or by the reference of the posting's cashier transaction."""
    references = {
        t.posting_id: t.reference
        for t in CashierTransaction.objects.filter(reference__startswith="tournament:")
    }
    result: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for e in _day_entries(day):
        owners = [s.account.owner for s in e.posting.entries.select_related("account")]
        named = [o for o in owners if o.startswith("tournament:")] or [references.get(e.posting_id, "")]
        if not named[0].startswith("tournament:"):
            continue
        sums = result[int(named[0].split(":")[1])]
        sums[e.account.kind] += e.amount_cents
        if e.account.kind == AccountKind.REFUNDS_PAYABLE and e.amount_cents < 0:
            sums["refunds_owed"] -= e.amount_cents  # a cancellation owing the money back (TRN-2)
    return result


def player_cash(day: date) -> dict[int, tuple[int, int]]:
    """{player id: (cash total, cash transactions)} of the day (PLY-2)."""
    start, end = gaming_day_bounds(day)
    result: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for t in CashierTransaction.objects.filter(player__isnull=False, method="cash"):
        if start <= t.created_at < end:
            result[t.player_id][0] += t.amount_cents
            result[t.player_id][1] += 1
    return {k: tuple(v) for k, v in result.items()}
