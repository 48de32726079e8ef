"""What the public room page shows of the cash games (no log-in): the games running now with
their stakes, tables, free seats and waiting counts, and the tables where the house has players.
Counts and numbers only: no player is named here (WTL-3).

Three queries, whatever the number of games, tables or players: the games, the open tables with
their players seated, and the waiting lists counted per game and called table.
"""

from collections import defaultdict

from django.db.models import Count, Q

from cashgame.models import WAITING_STATUSES, CashTable, Game, TableStatus, WaitingEntry, WaitStatus


def games_running_list() -> list[dict]:
    """Per active game with an open table or anyone waiting, cheapest first: its open tables
    (number, seats, seated, free, house players), the free seats in all, and the players on its
    list (waiting or called). A seat held for a called player is not free."""
    games = list(Game.objects.filter(active=True))
    tables = list(
        CashTable.objects.filter(status=TableStatus.OPEN, game__active=True)
        .annotate(seated=Count("sessions", filter=Q(sessions__ended_at__isnull=True)))
        .order_by("number")
    )
    listed: dict[int, int] = defaultdict(int)
    held: dict[int, int] = defaultdict(int)
    for row in (
        WaitingEntry.objects.filter(status__in=WAITING_STATUSES)
        .values("game_id", "status", "table_id")
        .annotate(count=Count("pk"))
        .order_by()
    ):
        listed[row["game_id"]] += row["count"]
        if row["status"] == WaitStatus.CALLED and row["table_id"]:
            held[row["table_id"]] += row["count"]
    by_game: dict[int, list[dict]] = defaultdict(list)
    for table in tables:
        by_game[table.game_id].append(
            {
                "number": table.number,
                "seats": table.seats,
                "seated": table.seated,
                "free": max(0, table.seats - table.seated - held[table.pk]),
                "house_players": table.house_players,
                "house_label": table.get_house_players_display() if table.house_players else "",
            }
        )
    return [
        {
            "game": game,
            "tables": by_game[game.pk],
            "running": bool(by_game[game.pk]),
            "free": sum(table["free"] for table in by_game[game.pk]),
            "waiting": listed[game.pk],
        }
        for game in games
        if by_game[game.pk] or listed[game.pk]
    ]
