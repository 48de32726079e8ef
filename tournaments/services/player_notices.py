"""The tournaments' news for the players' phones (NOT-1): the start, a break the clock began,
the seat draw and a prize that became payable. Each is sent by name after the commit and
robustly (cardroom/task_queue.py), so a notice can never hold or undo the floor's action; the
notices app decides who asked to be told."""

from datetime import datetime

from cardroom.task_queue import send_on_commit
from tournaments.models import Tournament


def start_told(tournament: Tournament, *, now: datetime) -> None:
    send_on_commit("notices.tournament_start", eta=now, robust=True, tournament_id=tournament.pk)


def break_told(tournament: Tournament, *, now: datetime) -> None:
    """The clock has just entered a break level (its index and end are on the locked row)."""
    send_on_commit(
        "notices.tournament_break",
        eta=now,
        robust=True,
        tournament_id=tournament.pk,
        level=tournament.current_level_index,
        ends=tournament.level_ends_at.isoformat(),
    )


def draw_told(tournament: Tournament, *, now: datetime) -> None:
    send_on_commit("notices.table_draw", eta=now, robust=True, tournament_id=tournament.pk)


def payouts_told(entry_ids: list[int], *, now: datetime) -> None:
    for entry_id in entry_ids:
        send_on_commit("notices.payout_ready", eta=now, robust=True, entry_id=entry_id)
