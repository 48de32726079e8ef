"""Player activity and the AML list (PLY-2) over a range of gaming days, from the player-day
rollups and, for days not rolled up yet, from the cashier transactions and sessions."""

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, F, Q, Sum, Window

from cardroom.selectors import venue_get
from players.models import IdDocumentType, Player, normalize
from reports.models import PlayerDayTotal
from reports.selectors.common import live_days
from reports.selectors.days import player_day_rows

SUMMED = [
    "cash_game_in_cents",
    "cash_game_out_cents",
    "tournament_entries",
    "tournament_in_cents",
    "won_cents",
    "refunds_cents",
    "sessions",
    "minutes_played",
]
ORDERS = {
    "name": None,
    "hours": "-minutes_played",
    "buy_ins": "-cash_game_in_cents",
    "net": "net_cents",  # the players who lost most at the tables first
    "tournaments": "-tournament_entries",
    "won": "-won_cents",
}


@dataclass
class PlayerLine:
    player_id: int
    name: str
    card_number: str
    id_verified: bool
    days: int = 0
    sessions: int = 0
    minutes_played: int = 0
    cash_game_in_cents: int = 0
    cash_game_out_cents: int = 0
    tournament_entries: int = 0
    tournament_in_cents: int = 0
    won_cents: int = 0
    refunds_cents: int = 0

    @property
    def cash_game_net_cents(self) -> int:
        """What the player took home from the tables (cash-outs less buy-ins and top-ups)."""
        return self.cash_game_out_cents - self.cash_game_in_cents


@dataclass
class PlayerActivity:
    lines: list[PlayerLine]
    count: int  # players matching, before the limit


def _matching_players(query: str):
    query = query.strip()
    if not query:
        return None
    return Player.objects.filter(Q(card_number=query) | Q(last_name_key__startswith=normalize(query))).values(
        "pk"
    )


PLAYER_FIELDS = [
    "first_name",
    "last_name",
    "last_name_key",
    "first_name_key",
    "card_number",
    "id_verified_at",
]
SUMS = {f"sum_{name}": Sum(name) for name in SUMMED}


def _passes(row: dict, activity: str) -> bool:
    if activity == "cash":
        return bool(row["sessions"] or row["cash_game_in_cents"])
    if activity == "tournaments":
        return bool(row["tournament_in_cents"])
    return True


def _sort_key(order: str):
    if order == "net":
        return lambda row: (row["cash_game_out_cents"] - row["cash_game_in_cents"], row["player_id"])
    field = _sort_field(order)
    return lambda row: (-row[field], row["player_id"])


def player_activity(
    *,
    start: date,
    end: date,
    query: str = "",
    activity: str = "",
    order: str = "name",
    limit: int = 200,
    now: datetime | None = None,
) -> PlayerActivity:
    """Per player in the range: hours played and sessions, cash-game buy-ins, cash-outs and net,
    tournament entries and spend, prizes and jackpot shares won. `query` is a card number or the
    start of a last name; `activity` keeps only the players of the cash games ("cash") or of the
    tournaments ("tournaments"); `order` is one of ORDERS.

    The rollups are summed, filtered, sorted and cut to `limit` in SQL. The live days' players
    (normally today's, a few hundred) are added with their rolled-up sums, so the order and the
    count stay exact."""
    order = order if order in ORDERS else "name"
    live = live_days(start=start, end=end, now=now)
    matching = _matching_players(query)
    rolled = PlayerDayTotal.objects.filter(day__gte=start, day__lte=end).exclude(day__in=live)
    if matching is not None:
        rolled = rolled.filter(player_id__in=matching)
    allowed = set(matching.values_list("pk", flat=True)) if matching is not None and live else None
    live_rows: dict[int, dict] = {}
    for day in live:
        for line in player_day_rows(day=day, now=now):
            if allowed is not None and line.player_id not in allowed:
                continue
            row = live_rows.setdefault(
                line.player_id, {"player_id": line.player_id, "days": 0, **dict.fromkeys(SUMMED, 0)}
            )
            row["days"] += 1
            for name in SUMMED:
                row[name] += getattr(line, name)
    grouped = rolled.values("player_id").annotate(**SUMS, days=Count("day"))
    passing = grouped
    if activity == "cash":
        passing = grouped.filter(Q(sum_sessions__gt=0) | Q(sum_cash_game_in_cents__gt=0))
    elif activity == "tournaments":
        passing = grouped.filter(sum_tournament_in_cents__gt=0)
    if order == "name":
        ordering = ["player__last_name_key", "player__first_name_key", "player_id"]
    elif order == "net":
        ordering = [F("sum_cash_game_out_cents") - F("sum_cash_game_in_cents"), "player_id"]
    else:
        ordering = [f"-sum_{_sort_field(order)}", "player_id"]

    def plain(row: dict) -> dict:
        return {
            "player_id": row["player_id"],
            "days": row["days"],
            **{n: row[f"sum_{n}"] or 0 for n in SUMMED},
        }

    # One pass: the window gives the number of players before the limit cuts the list.
    top = list(passing.annotate(matching=Window(Count("*"))).order_by(*ordering)[: limit + len(live_rows)])
    candidates = [plain(row) for row in top]
    count = top[0]["matching"] if top else 0
    if live_rows:
        rolled_live = {row["player_id"]: plain(row) for row in grouped.filter(player_id__in=list(live_rows))}
        candidates = [row for row in candidates if row["player_id"] not in live_rows]
        for player_id, row in live_rows.items():
            before = rolled_live.get(player_id)
            merged = dict(row)
            if before is not None:
                merged["days"] += before["days"]
                for name in SUMMED:
                    merged[name] += before[name]
            was = before is not None and _passes(before, activity)
            now_passes = _passes(merged, activity)
            count += int(now_passes) - int(was)
            if now_passes:
                candidates.append(merged)
    players = {
        p["pk"]: p
        for p in Player.objects.filter(pk__in=[row["player_id"] for row in candidates]).values(
            "pk", *PLAYER_FIELDS
        )
    }
    if order == "name":
        candidates.sort(
            key=lambda r: (
                players[r["player_id"]]["last_name_key"],
                players[r["player_id"]]["first_name_key"],
                r["player_id"],
            )
        )
    else:
        candidates.sort(key=_sort_key(order))
    lines = []
    for row in candidates[:limit]:
        p = players[row["player_id"]]
        line = PlayerLine(
            player_id=row["player_id"],
            name=f"{p['first_name']} {p['last_name']}",
            card_number=p["card_number"],
            id_verified=p["id_verified_at"] is not None,
            days=row["days"],
        )
        for name in SUMMED:
            setattr(line, name, row[name])
        lines.append(line)
    return PlayerActivity(lines=lines, count=count)


def _sort_field(order: str) -> str:
    return {
        "hours": "minutes_played",
        "buy_ins": "cash_game_in_cents",
        "tournaments": "tournament_entries",
    }.get(order, "won_cents")


@dataclass
class AmlLine:
    day: date
    player_id: int
    name: str
    card_number: str
    total_cents: int
    transactions: int
    id_verified: bool
    id_document: str


AML_PLAYER = ("first_name", "last_name", "last_name_key", "card_number", "id_verified_at", "id_document_type")


def aml_list(*, start: date, end: date, now: datetime | None = None) -> list[AmlLine]:
    """PLY-2: each player and gaming day whose cash buy-ins and payouts, summed, reached the
    venue's threshold, with the player's ID status today."""
    threshold = venue_get().aml_threshold_cents
    live = live_days(start=start, end=end, now=now)
    found = [
        {
            "day": row["day"],
            "player_id": row["player_id"],
            "total": row["cash_cents"],
            "count": row["cash_transactions"],
            **{name: row[f"player__{name}"] for name in AML_PLAYER},
        }
        for row in PlayerDayTotal.objects.filter(day__gte=start, day__lte=end, cash_cents__gte=threshold)
        .exclude(day__in=live)
        .values(
            "day", "player_id", "cash_cents", "cash_transactions", *(f"player__{name}" for name in AML_PLAYER)
        )
    ]
    today = [
        (day, line)
        for day in live
        for line in player_day_rows(day=day, now=now)
        if line.cash_cents >= threshold
    ]
    if today:
        players = Player.objects.in_bulk({line.player_id for _day, line in today})
        for day, line in today:
            player = players[line.player_id]
            found.append(
                {
                    "day": day,
                    "player_id": line.player_id,
                    "total": line.cash_cents,
                    "count": line.cash_transactions,
                    **{name: getattr(player, name) for name in AML_PLAYER},
                }
            )
    documents = dict(IdDocumentType.choices)
    found.sort(key=lambda row: (row["day"], row["last_name_key"], row["player_id"]))
    return [
        AmlLine(
            day=row["day"],
            player_id=row["player_id"],
            name=f"{row['first_name']} {row['last_name']}",
            card_number=row["card_number"],
            total_cents=row["total"],
            transactions=row["count"],
            id_verified=row["id_verified_at"] is not None,
            id_document=str(documents.get(row["id_document_type"], "")),
        )
        for row in found
    ]
