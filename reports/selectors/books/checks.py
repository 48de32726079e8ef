"""The books checked: the ledger against itself and against the games' own records (CAG-1,
CAG-4, CAG-6). Each check states what the records say and what the ledger holds; a difference
is a fault to find, never rounding. `manage.py check_books` prints them; tests call
`books_problems()` after every journey and fault.

Each venue keeps its own books (VEN-1): every check runs once per venue, on that venue's rows
(its ledger sums to zero, its drawers are empty when closed, its receipts are numbered 1 to N),
and names the venue it found a difference in. The operator's books are all the venues' together:
the whole ledger sums to zero and no posting moves money between two venues' books.

The games' records are read on their own terms (sessions and their events, the hand log,
entries and their payments, prizes, bounties, jackpot shares); only the balances come from the
ledger. A transaction whose posting was reversed counts in neither.

This module holds the ledger's, the cage's and the cash games' checks, and runs every check of a
venue (venue_checks); the tournaments' and the tickets' are in tournaments.py, what both share in
_common.py.
"""

from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from cardroom.venues import venue_active_id
from cashgame.models import (
    CashTable,
    Hand,
    HandStatus,
    JackpotShare,
    PlayerSession,
    PromotionDrop,
    SessionEvent,
    SessionEventKind,
)
from cashier.models import AccountKind, CashierTransaction, Entry, Posting, ReceiptCounter, Shift, ShiftStatus
from cashier.selectors import account_amounts, drawer_expected, ledger_total
from chips.models import CUSTODY_KINDS, ChipAccountKind, ChipEntry, ChipSetKind
from reports.selectors.books._common import BookCheck, _sum, _sums, _tournament_owner
from reports.selectors.books.loyalty import loyalty_checks
from reports.selectors.books.promotions import promotion_checks
from reports.selectors.books.tournaments import ticket_checks, tournament_checks
from tournaments.models import Tournament

TOURNAMENT_ACCOUNTS = (AccountKind.PRIZE_POOL, AccountKind.BOUNTY_POOL, AccountKind.REFUNDS_PAYABLE)
ROOM_ACCOUNTS = (
    AccountKind.TOURNAMENT_FEES,
    AccountKind.RAKE_REVENUE,
    AccountKind.JACKPOT_FUND,
    AccountKind.TICKETS_OUTSTANDING,
    AccountKind.PROMOTION_EXPENSE,
    AccountKind.TICKETS_EXPIRED,
    AccountKind.LOYALTY_LIABILITY,
    AccountKind.COMPS_PAYABLE,
)


def _here(queryset, path: str = "venue_id"):
    """The active venue's rows of a model that names its venue through another row (`path`)."""
    venue_id = venue_active_id()
    return queryset if venue_id is None else queryset.filter(**{path: venue_id})


def _not_reversed(path: str):
    """Rows whose transaction's posting has no reversal (`path` leads to the posting id)."""
    return ~Exists(Posting.objects.filter(reverses=OuterRef(path)))


def _ledger_checks() -> list[BookCheck]:
    unbalanced = (
        Entry.objects.values("posting_id").annotate(total=Sum("amount_cents")).exclude(total=0).count()
    )
    paid_lines = CashierTransaction.objects.annotate(
        paid=Sum("posting__entries__amount_cents", filter=Q(posting__entries__amount_cents__gt=0))
    ).exclude(paid=F("amount_cents"))
    return [
        BookCheck(str(_("Ledger: every entry sums to zero")), 0, ledger_total()),
        BookCheck(str(_("Ledger: postings that do not balance")), 0, unbalanced, "postings"),
        BookCheck(
            str(_("Cashier transactions whose posting moves another amount")),
            0,
            paid_lines.count(),
            "transactions",
        ),
    ]


def _receipt_checks() -> list[BookCheck]:
    numbers = CashierTransaction.objects.aggregate(count=Count("pk"), last=Max("receipt_number"))
    count, last = numbers["count"], numbers["last"] or 0
    counter = _here(ReceiptCounter.objects).aggregate(last=Sum("last_number"))["last"] or 0
    return [
        BookCheck(str(_("Receipts: numbered 1 to N without a gap")), count, last, "receipts"),
        BookCheck(str(_("Receipts: the counter stands at the last receipt")), last, counter, "receipts"),
    ]


def _drawer_checks() -> list[BookCheck]:
    left = [
        shift.pk
        for shift in Shift.objects.filter(status=ShiftStatus.CLOSED).select_related("drawer")
        if drawer_expected(shift=shift) != 0
    ]
    return [BookCheck(str(_("Closed shifts whose drawer still holds money")), 0, len(left), "shifts")]


def _table_checks(tables: list[CashTable], amounts: dict) -> list[BookCheck]:
    checks = []
    events = _here(SessionEvent.objects, "session__venue_id")
    money = events.filter(transaction__isnull=False).filter(_not_reversed("transaction__posting"))
    moved_postings = events.filter(kind=SessionEventKind.MOVE, posting__isnull=False).values("posting")
    for table in tables:
        flows = _sums(
            money.filter(transaction__reference=table.reference),
            bought=Sum("amount_cents", filter=Q(kind__in=[SessionEventKind.BUY_IN, SessionEventKind.TOP_UP])),
            cashed=Sum("amount_cents", filter=Q(kind=SessionEventKind.CASH_OUT)),
        )
        moves = Entry.objects.filter(
            posting__in=moved_postings,
            account__kind=AccountKind.CHIPS_IN_PLAY,
            account__owner=table.reference,
        )
        moved_in = -_sum(moves)  # chips in play carry a credit balance: in is negative
        hands = _sums(
            Hand.objects.filter(table=table, status=HandStatus.ENDED),
            rake=Sum("rake_cents"),
            drops=Sum("jackpot_drop_cents"),
        )
        # LOY-2: the high-hand promotions' drops left the table's chips with the hand's rake.
        promoted = _sum(PromotionDrop.objects.filter(hand__table=table))
        in_play = amounts[(AccountKind.CHIPS_IN_PLAY, table.reference)]
        checks.append(
            BookCheck(
                str(_("Table %(n)s: chips in play = bought + moved in - cashed out - rake and drops"))
                % {"n": table.number},
                flows["bought"] + moved_in - flows["cashed"] - hands["rake"] - hands["drops"] - promoted,
                in_play,
            )
        )
        if not PlayerSession.objects.filter(table=table, ended_at__isnull=True).exists():
            checks.append(
                BookCheck(
                    str(_("Table %(n)s: nobody is seated, so no chips are in play")) % {"n": table.number},
                    0,
                    in_play,
                )
            )
    return checks


def _session_checks() -> list[BookCheck]:
    events = SessionEvent.objects.filter(session=OuterRef("pk"), transaction__isnull=False).filter(
        _not_reversed("transaction__posting")
    )

    def total(kind: str):
        return Coalesce(
            Subquery(events.filter(kind=kind).values("session").annotate(t=Sum("amount_cents")).values("t")),
            0,
        )

    wrong = (
        PlayerSession.objects.annotate(
            bought=total(SessionEventKind.BUY_IN), topped=total(SessionEventKind.TOP_UP)
        )
        .exclude(bought=F("buy_in_cents"), topped=F("top_up_cents"))
        .count()
    )
    return [
        BookCheck(
            str(_("Sessions whose buy-ins and top-ups differ from their receipts")), 0, wrong, "sessions"
        )
    ]


def _fee_fund_checks(amounts: dict) -> list[BookCheck]:
    hands = _sums(
        Hand.objects.filter(status=HandStatus.ENDED), rake=Sum("rake_cents"), drops=Sum("jackpot_drop_cents")
    )
    shares_paid = _sum(_here(JackpotShare.objects, "claim__venue_id").filter(transaction__isnull=False))
    return [
        BookCheck(
            str(_("Rake revenue = the rake of the hand log")),
            hands["rake"],
            amounts[(AccountKind.RAKE_REVENUE, "")],
        ),
        BookCheck(
            str(_("Jackpot fund = the hand log's drops - jackpot shares paid")),
            hands["drops"] - shares_paid,
            amounts[(AccountKind.JACKPOT_FUND, "")],
        ),
    ]


def _chip_checks() -> list[BookCheck]:
    """The chip ledger (CHP-2) and the cash-game chips that follow the money: sold with a
    buy-in or top-up, taken back at a cash-out, moved back with a reversal."""
    unbalanced = (
        ChipEntry.objects.values("posting_id", "denomination_id")
        .annotate(total=Sum("quantity"))
        .exclude(total=0)
        .count()
    )
    below_zero = (
        ChipEntry.objects.filter(account__kind__in=CUSTODY_KINDS)
        .values("account_id", "denomination_id")
        .annotate(total=Sum("quantity"))
        .filter(total__lt=0)
        .count()
    )
    worth = Sum(F("quantity") * F("denomination__value"))
    moved = Subquery(
        ChipEntry.objects.filter(posting=OuterRef("chip_posting"), quantity__gt=0)
        .values("posting")
        .annotate(worth=worth)
        .values("worth")
    )
    events = _here(SessionEvent.objects, "session__venue_id")
    linked = events.filter(chip_posting__isnull=False)
    wrong_worth = linked.annotate(worth=moved).exclude(worth=F("amount_cents")).count()
    # Chips followed cash from the first event that moved them on: every later buy-in, top-up
    # and cash-out moved its chips too (a room's history from before moves none).
    first = linked.aggregate(first=Min("pk"))["first"]
    money = events.filter(
        transaction__isnull=False,
        kind__in=[SessionEventKind.BUY_IN, SessionEventKind.TOP_UP, SessionEventKind.CASH_OUT],
    )
    without = money.filter(pk__gt=first, chip_posting__isnull=True).count() if first is not None else 0
    flows = _sums(
        money.filter(chip_posting__isnull=False).filter(_not_reversed("transaction__posting")),
        sold=Sum("amount_cents", filter=Q(kind__in=[SessionEventKind.BUY_IN, SessionEventKind.TOP_UP])),
        taken=Sum("amount_cents", filter=Q(kind=SessionEventKind.CASH_OUT)),
    )
    in_hands = (
        ChipEntry.objects.filter(
            account__kind=ChipAccountKind.HANDS, account__chip_set__kind=ChipSetKind.CASH
        ).aggregate(worth=worth)["worth"]
        or 0
    )
    return [
        BookCheck(str(_("Chip postings that do not balance per chip")), 0, unbalanced, "chips"),
        BookCheck(str(_("Chips the vault or the cage holds fewer of than none")), 0, below_zero, "chips"),
        BookCheck(
            str(_("Cash-game chips moved with another worth than their money")), 0, wrong_worth, "events"
        ),
        BookCheck(str(_("Buy-ins, top-ups and cash-outs whose chips did not move")), 0, without, "events"),
        BookCheck(
            str(_("Cash-game chips in players' hands = chips sold - chips taken back at cash-outs")),
            flows["sold"] - flows["taken"],
            in_hands,
        ),
    ]


def venue_checks() -> list[BookCheck]:
    """Every reconciliation of the active venue's books."""
    tables = list(CashTable.objects.order_by("number"))
    tournaments = list(Tournament.objects.select_related("rules").order_by("pk"))
    # Every balance the checks compare, read at once.
    amounts = account_amounts(
        accounts=[
            *((AccountKind.CHIPS_IN_PLAY, table.reference) for table in tables),
            *((kind, _tournament_owner(t)) for t in tournaments for kind in TOURNAMENT_ACCOUNTS),
            *((kind, "") for kind in ROOM_ACCOUNTS),
        ]
    )
    return [
        *_ledger_checks(),
        *_receipt_checks(),
        *_drawer_checks(),
        *_table_checks(tables, amounts),
        *_session_checks(),
        *tournament_checks(tournaments, amounts),
        *_fee_fund_checks(amounts),
        *ticket_checks(amounts),
        *loyalty_checks(amounts),
        *promotion_checks(),
        *_chip_checks(),
    ]
