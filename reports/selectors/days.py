"""What one gaming day holds, computed from the raw records: the ledger's entries, the hand log,
the audit trail of table openings and closings, cashier transactions and player sessions.

The rollup builder stores these rows for ended gaming days (the ledger sums its accounts itself:
cashier.selectors.account_day_rows); the reports call the same functions for the days not rolled
up yet (normally only today), so a rolled-up day and a live day give the same figures. Every
query is bounded by the day's [start, end) on an indexed time column.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import (
    BigIntegerField,
    Case,
    CharField,
    Count,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.utils import timezone

from cardroom.models import AuditRecord
from cardroom.selectors import gaming_day_bounds
from cashgame.models import CashTable, Game, Hand, HandStatus, PlayerSession
from cashier.models import AccountKind, CashierTransaction, Entry, PaymentMethod, Posting, TransactionKind
from reports.models import PlayerDayTotal, TableDayTotal, TournamentDayTotal
from tournaments.models import Tournament

TABLE_OBJECT = "cashgame.cashtable"
TABLE_OPEN = "cashgame.table_open"
TABLE_CLOSE = "cashgame.table_close"


# Cash tables ---------------------------------------------------------------------------------


@dataclass
class OpenPeriod:
    """A table open with a game from `opened` to `closed` (None: still open)."""

    table_id: int
    game_id: int
    opened: datetime
    closed: datetime | None

    def seconds_within(self, start: datetime, end: datetime) -> int:
        begin = max(self.opened, start)
        finish = min(self.closed or end, end)
        return max(0, int((finish - begin).total_seconds()))


def table_periods(*, start: datetime, end: datetime) -> list[OpenPeriod]:
    """The periods each table was open that overlap [start, end), read from the audit trail of
    the floor's openings and closings (each carries the table's state after it, with the game).
    A table with no such record at all (created open by an import) counts from its `opened_at`."""
    last_before = (
        AuditRecord.objects.filter(
            object_type=TABLE_OBJECT,
            object_id=Cast(OuterRef("pk"), output_field=CharField()),
            action__in=[TABLE_OPEN, TABLE_CLOSE],
            at__lt=start,
        )
        .order_by("-at", "-id")
        .values("id")[:1]
    )
    tables = list(
        CashTable.objects.annotate(last_event=Subquery(last_before)).values(
            "id", "game_id", "status", "opened_at", "closed_at", "last_event"
        )
    )
    earlier = {
        record.pk: record
        for record in AuditRecord.objects.filter(pk__in=[t["last_event"] for t in tables if t["last_event"]])
    }
    events: dict[int, list[AuditRecord]] = defaultdict(list)
    for record in AuditRecord.objects.filter(
        object_type=TABLE_OBJECT, action__in=[TABLE_OPEN, TABLE_CLOSE], at__gte=start, at__lt=end
    ).order_by("at", "id"):
        if record.object_id.isdigit():
            events[int(record.object_id)].append(record)
    periods: list[OpenPeriod] = []
    for table in tables:
        table_id = table["id"]
        current: OpenPeriod | None = None
        previous = earlier.get(table["last_event"])
        if previous is not None and previous.action == TABLE_OPEN:
            current = OpenPeriod(
                table_id, (previous.after or {}).get("game") or table["game_id"], previous.at, None
            )
        elif previous is None and not events[table_id]:
            # No record of the floor opening it: the table's own times are all there is.
            opened = table["opened_at"]
            if opened is not None and opened < end:
                closed = table["closed_at"] if table["status"] != "open" else None
                if closed is None or closed > start:
                    periods.append(OpenPeriod(table_id, table["game_id"], opened, closed))
            continue
        for record in events[table_id]:
            if record.action == TABLE_OPEN:
                if current is not None:  # opened twice without a close: the first ends here
                    current.closed = record.at
                    periods.append(current)
                current = OpenPeriod(
                    table_id, (record.after or {}).get("game") or table["game_id"], record.at, None
                )
            elif current is not None:
                current.closed = record.at
                periods.append(current)
                current = None
        if current is not None:
            periods.append(current)
    return periods


def table_day_rows(*, day: date, now: datetime | None = None) -> list[TableDayTotal]:
    """Per table, game and stakes: the day's hands (by the time they ended), minutes open, and
    the rake and jackpot drops the ledger holds for those hands' postings (RAK-1..RAK-5)."""
    now = now or timezone.now()
    start, end = gaming_day_bounds(day)
    periods = table_periods(start=start, end=end)
    games_of_table: dict[int, set[int]] = defaultdict(set)
    for period in periods:
        games_of_table[period.table_id].add(period.game_id)
    current_game = dict(CashTable.objects.values_list("id", "game_id"))
    # A table that ran one game all day: its hands are that game's. A table that changed game
    # (closed and reopened) has its hands sorted into the periods by the time they were dealt.
    changed = [p for p in periods if len(games_of_table[p.table_id]) > 1]
    if changed:
        game_expression = Case(
            *[
                When(
                    table_id=p.table_id,
                    started_at__gte=p.opened,
                    **({"started_at__lt": p.closed} if p.closed else {}),
                    then=Value(p.game_id),
                )
                for p in changed
            ],
            default=Value(None),
            output_field=BigIntegerField(),
        )
    else:
        game_expression = Value(None, output_field=BigIntegerField())

    def game_for(table_id: int, period_game: int | None) -> int:
        if period_game is not None:
            return period_game
        games = games_of_table.get(table_id)
        if games and len(games) == 1:
            return next(iter(games))
        return current_game[table_id]

    rows: dict[tuple[int, int, int, int], TableDayTotal] = {}

    def row(table_id: int, game_id: int, small: int, big: int) -> TableDayTotal:
        found = rows.get((table_id, game_id, small, big))
        if found is None:
            found = rows[(table_id, game_id, small, big)] = TableDayTotal(
                day=day, table_id=table_id, game_id=game_id, small_blind_cents=small, big_blind_cents=big
            )
        return found

    ended = Q(status=HandStatus.ENDED)
    for counts in (
        Hand.objects.filter(ended_at__gte=start, ended_at__lt=end)
        .exclude(status=HandStatus.IN_PROGRESS)
        .annotate(period_game=game_expression)
        .values("table_id", "small_blind_cents", "big_blind_cents", "period_game")
        .annotate(
            n=Count("id"),
            raked=Count("id", filter=ended & Q(rake_cents__gt=0)),
            no_flop=Count("id", filter=ended & Q(saw_flop=False)),
            voided=Count("id", filter=Q(status=HandStatus.VOIDED)),
            pots=Sum("pot_cents", filter=ended),
        )
        .order_by()
    ):
        line = row(
            counts["table_id"],
            game_for(counts["table_id"], counts["period_game"]),
            counts["small_blind_cents"],
            counts["big_blind_cents"],
        )
        line.hands += counts["n"]
        line.raked_hands += counts["raked"]
        line.no_flop_hands += counts["no_flop"]
        line.voided_hands += counts["voided"]
        line.pot_cents += counts["pots"] or 0
    # The money: entries of the day on rake revenue and the jackpot fund in the postings of hands
    # (and of reversals of them), whenever those hands were dealt.
    for path in ("posting__entries", "posting__reversed_by__entries"):
        for money in (
            Hand.objects.filter(
                **{
                    f"{path}__created_at__gte": start,
                    f"{path}__created_at__lt": end,
                    f"{path}__account__kind__in": [AccountKind.RAKE_REVENUE, AccountKind.JACKPOT_FUND],
                }
            )
            .annotate(period_game=game_expression)
            .values(
                "table_id", "small_blind_cents", "big_blind_cents", "period_game", f"{path}__account__kind"
            )
            .annotate(total=Sum(f"{path}__amount_cents"))
            .order_by()
        ):
            line = row(
                money["table_id"],
                game_for(money["table_id"], money["period_game"]),
                money["small_blind_cents"],
                money["big_blind_cents"],
            )
            # Both accounts are credit-normal: a credit (negative entry) is money received.
            if money[f"{path}__account__kind"] == AccountKind.RAKE_REVENUE:
                line.rake_cents -= money["total"]
            else:
                line.jackpot_cents -= money["total"]
    # Minutes open per table and game, on the row of that game with the most hands.
    seconds: dict[tuple[int, int], int] = defaultdict(int)
    for period in periods:
        seconds[(period.table_id, period.game_id)] += period.seconds_within(start, min(end, max(now, start)))
    stakes = {
        g.pk: (g.small_blind_cents, g.big_blind_cents)
        for g in Game.objects.only("pk", "small_blind_cents", "big_blind_cents")
    }
    for (table_id, game_id), total in seconds.items():
        if total <= 0:
            continue
        candidates = [r for (t, g, _s, _b), r in rows.items() if t == table_id and g == game_id]
        target = max(candidates, key=lambda r: (r.hands, r.big_blind_cents)) if candidates else None
        if target is None:
            target = row(table_id, game_id, *stakes[game_id])
        target.minutes_open += total // 60
    return sorted(
        rows.values(), key=lambda r: (r.table_id, r.game_id, r.small_blind_cents, r.big_blind_cents)
    )


# Tournaments ---------------------------------------------------------------------------------

TOURNAMENT_ACCOUNT_KINDS = [
    AccountKind.PRIZE_POOL,
    AccountKind.BOUNTY_POOL,
    AccountKind.REFUNDS_PAYABLE,
    AccountKind.TOURNAMENT_FEES,
    AccountKind.OVERLAY_EXPENSE,
]
# Accounts owned by one tournament ("tournament:<id>"): a posting on one of them is its money.
TOURNAMENT_OWNED = {AccountKind.PRIZE_POOL, AccountKind.BOUNTY_POOL, AccountKind.REFUNDS_PAYABLE}
COUNTED_KINDS = {
    TransactionKind.TOURNAMENT_BUY_IN: "buy_ins",
    TransactionKind.RE_ENTRY: "re_entries",
    TransactionKind.REBUY: "rebuys",
    TransactionKind.ADD_ON: "add_ons",
}


def tournament_of(owner_or_reference: str) -> int | None:
    prefix, _sep, number = (owner_or_reference or "").partition(":")
    return int(number) if prefix == "tournament" and number.isdigit() else None


def tournament_day_rows(*, day: date) -> list[TournamentDayTotal]:
    """Per tournament: the day's entries sold and its money, from the ledger's postings that name
    the tournament. A posting belongs to a tournament when it moves one of the tournament's own
    accounts (prize pool, bounty pool, refunds payable), or when its cashier transaction (or the
    one it reverses) is for that tournament; fee revenue and the overlay expense are shared
    accounts, so their entries count for the tournament of their posting."""
    start, end = gaming_day_bounds(day)
    entries = list(
        Entry.objects.filter(
            created_at__gte=start, created_at__lt=end, account__kind__in=TOURNAMENT_ACCOUNT_KINDS
        ).values_list("posting_id", "account__kind", "account__owner", "amount_cents")
    )
    if not entries:
        return []
    # posting -> (transaction kind, +1 or -1 for a reversal), and the tournament it names.
    kind_of: dict[int, tuple[str, int]] = {}
    tournament: dict[int, int] = {}
    for posting_id, kind, reference in CashierTransaction.objects.filter(
        created_at__gte=start, created_at__lt=end, reference__startswith="tournament:"
    ).values_list("posting_id", "kind", "reference"):
        kind_of[posting_id] = (kind, 1)
        if tournament_of(reference) is not None:
            tournament[posting_id] = tournament_of(reference)
    for posting_id, kind, reference in Posting.objects.filter(
        created_at__gte=start,
        created_at__lt=end,
        reverses__cashier_transaction__reference__startswith="tournament:",
    ).values_list("pk", "reverses__cashier_transaction__kind", "reverses__cashier_transaction__reference"):
        kind_of[posting_id] = (kind, -1)
        if tournament_of(reference) is not None:
            tournament.setdefault(posting_id, tournament_of(reference))
    for posting_id, kind, owner, _amount in entries:
        if kind in TOURNAMENT_OWNED and tournament_of(owner) is not None:
            tournament.setdefault(posting_id, tournament_of(owner))
    # Only tournaments that exist (a hand-made posting may name any number).
    existing = set(Tournament.objects.filter(pk__in=set(tournament.values())).values_list("pk", flat=True))
    tournament = {posting: t for posting, t in tournament.items() if t in existing}
    rows: dict[int, TournamentDayTotal] = {}
    payable_credit: dict[int, int] = defaultdict(int)
    pool_outside_payouts: dict[int, int] = defaultdict(int)
    refund_postings: set[int] = set()
    for posting_id, kind, _owner, amount in entries:
        tournament_id = tournament.get(posting_id)
        if tournament_id is None:
            continue  # fee or overlay of no tournament (a manual posting): only in the totals
        line = rows.get(tournament_id)
        if line is None:
            line = rows[tournament_id] = TournamentDayTotal(day=day, tournament_id=tournament_id)
        transaction_kind, sign = kind_of.get(posting_id, ("", 1))
        if kind == AccountKind.TOURNAMENT_FEES:
            line.fees_cents -= amount
        elif kind == AccountKind.OVERLAY_EXPENSE:
            line.overlay_cents += amount
        elif kind == AccountKind.BOUNTY_POOL:
            if transaction_kind == TransactionKind.BOUNTY_PAYOUT:
                line.bounties_paid_cents += amount
            else:
                line.bounties_cents -= amount
        elif kind == AccountKind.REFUNDS_PAYABLE:
            if amount < 0:  # a cancellation owing the entries' money back (TRN-2)
                payable_credit[tournament_id] -= amount
        elif kind == AccountKind.PRIZE_POOL:
            if transaction_kind == TransactionKind.PRIZE_PAYOUT:
                line.prizes_paid_cents += amount
            else:
                pool_outside_payouts[tournament_id] -= amount
        if transaction_kind == TransactionKind.REFUND and kind != AccountKind.REFUNDS_PAYABLE:
            refund_postings.add(posting_id)
    for posting_id, (transaction_kind, sign) in kind_of.items():
        field = COUNTED_KINDS.get(transaction_kind)
        tournament_id = tournament.get(posting_id)
        if field and tournament_id in rows:
            setattr(rows[tournament_id], field, getattr(rows[tournament_id], field) + sign)
    # A refund straight from the pool (a cancelled entry refunded at the desk) gives back what the
    # entry paid: its prize, fee and bounty lines.
    direct_refunds: dict[int, int] = defaultdict(int)
    for posting_id, kind, _owner, amount in entries:
        if posting_id in refund_postings and kind != AccountKind.OVERLAY_EXPENSE:
            direct_refunds[tournament[posting_id]] += amount
    for tournament_id, line in rows.items():
        # The overlay's posting credits the pool with the overlay: that part is not the players'.
        line.contributions_cents = pool_outside_payouts[tournament_id] - line.overlay_cents
        line.refunds_cents = payable_credit[tournament_id] + direct_refunds[tournament_id]
    return [rows[key] for key in sorted(rows)]


# Players -------------------------------------------------------------------------------------

CASH_GAME_IN = [TransactionKind.CASH_BUY_IN, TransactionKind.TOP_UP]
TOURNAMENT_IN = [
    TransactionKind.TOURNAMENT_BUY_IN,
    TransactionKind.RE_ENTRY,
    TransactionKind.REBUY,
    TransactionKind.ADD_ON,
]
TOURNAMENT_ENTRIES = [TransactionKind.TOURNAMENT_BUY_IN, TransactionKind.RE_ENTRY]
WON = [TransactionKind.PRIZE_PAYOUT, TransactionKind.JACKPOT_PAYOUT, TransactionKind.BOUNTY_PAYOUT]


def player_day_rows(*, day: date, now: datetime | None = None) -> list[PlayerDayTotal]:
    """Per player: the day's cashier transactions by kind, the cash total of PLY-2, and the cash
    sessions that ended in the day (still open ones count up to `now` on the live day)."""
    start, end = gaming_day_bounds(day)
    now = now or timezone.now()
    rows: dict[int, PlayerDayTotal] = {}

    def row(player_id: int) -> PlayerDayTotal:
        found = rows.get(player_id)
        if found is None:
            found = rows[player_id] = PlayerDayTotal(day=day, player_id=player_id)
        return found

    for t in (
        CashierTransaction.objects.filter(created_at__gte=start, created_at__lt=end, player__isnull=False)
        .values("player_id")
        .annotate(
            cash_game_in=Sum("amount_cents", filter=Q(kind__in=CASH_GAME_IN)),
            cash_game_out=Sum("amount_cents", filter=Q(kind=TransactionKind.CASH_OUT)),
            entries=Count("id", filter=Q(kind__in=TOURNAMENT_ENTRIES)),
            tournament_in=Sum("amount_cents", filter=Q(kind__in=TOURNAMENT_IN)),
            won=Sum("amount_cents", filter=Q(kind__in=WON)),
            refunds=Sum("amount_cents", filter=Q(kind=TransactionKind.REFUND)),
            cash=Sum("amount_cents", filter=Q(method=PaymentMethod.CASH)),
            cash_count=Count("id", filter=Q(method=PaymentMethod.CASH)),
        )
        .order_by()
    ):
        line = row(t["player_id"])
        line.cash_game_in_cents = t["cash_game_in"] or 0
        line.cash_game_out_cents = t["cash_game_out"] or 0
        line.tournament_entries = t["entries"]
        line.tournament_in_cents = t["tournament_in"] or 0
        line.won_cents = t["won"] or 0
        line.refunds_cents = t["refunds"] or 0
        line.cash_cents = t["cash"] or 0
        line.cash_transactions = t["cash_count"]
    sessions = PlayerSession.objects.filter(ended_at__gte=start, ended_at__lt=end)
    if start <= now < end:
        sessions = PlayerSession.objects.filter(
            Q(ended_at__gte=start, ended_at__lt=end) | Q(ended_at__isnull=True, started_at__lt=now)
        )
    seconds: dict[int, int] = defaultdict(int)
    for player_id, started, ended in sessions.values_list("player_id", "started_at", "ended_at"):
        row(player_id).sessions += 1
        seconds[player_id] += max(0, int(((ended or now) - started).total_seconds()))
    for player_id, total in seconds.items():
        rows[player_id].minutes_played = total // 60
    return [rows[key] for key in sorted(rows)]
