"""A player's gaming day from the raw records: cashier transactions by kind, the cash total of
PLY-2, and the cash sessions that ended in the day."""

from collections import defaultdict
from datetime import date, datetime

from django.db.models import Count, Q, Sum
from django.utils import timezone

from cardroom.selectors import gaming_day_bounds
from cashgame.models import PlayerSession
from cashier.models import CashierTransaction, PaymentMethod, TransactionKind
from reports.models import PlayerDayTotal

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
