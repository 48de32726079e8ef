"""The floor's two list moves of WTL-2: an interest list opens a table (a game not running yet
collects names; when enough wait, one tap opens a table and calls them to it), and a must-move
game feeds its main game (a seat opening there goes first to the player seated longest in the
must-move game)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cashgame.locks import game_for_update
from cashgame.models import CashTable, Game, PlayerSession, WaitingEntry, WaitStatus
from cashgame.selectors.waiting import game_running, must_move_next
from cashgame.services.sessions import session_move
from cashgame.services.tables import table_open
from cashgame.services.waiting import _call_next


@transaction.atomic
def waiting_open_table(
    *, actor, game: Game, table: CashTable, now: datetime | None = None
) -> list[WaitingEntry]:
    """Open `table` for an interest list's game and call its waiting players to it, one seat
    each, in the order they came (WTL-2); the called players each hold their seat (CSH-7)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    game = game_for_update(game.pk)
    waiting = WaitingEntry.objects.filter(game=game, status=WaitStatus.WAITING).count()
    if game_running(game):
        raise DomainError("game_running", _("A table already runs %s.") % game, rule="WTL-2", status_code=409)
    if waiting < max(1, game.interest_threshold):
        raise DomainError(
            "not_enough_interest",
            _("%(game)s needs %(needed)d players waiting to open; %(waiting)d wait.")
            % {"game": game, "needed": max(1, game.interest_threshold), "waiting": waiting},
            rule="WTL-2",
            status_code=409,
        )
    table = table_open(actor=actor, table=table, game=game, now=now)
    called = []
    for _seat in range(min(waiting, table.seats)):
        entry = _call_next(game=game, table=table, now=now, actor=actor)
        if entry is None:
            break
        called.append(entry)
    audit_record(
        actor=actor,
        action="cashgame.interest_open",
        obj=table,
        after={"game": game.pk, "called": [entry.pk for entry in called]},
        now=now,
    )
    return called


@transaction.atomic
def waiting_must_move(
    *, actor, table: CashTable, seat: int, chips_cents: int | None = None, now: datetime | None = None
) -> PlayerSession:
    """A seat opened at a main game's `table`: the must-move player seated longest moves to it
    with his counted chips (WTL-2); his seat in the must-move game is then free for its list."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = CashTable.objects.select_related("game").get(pk=table.pk)
    game_for_update(table.game_id)
    session = must_move_next(table=table)
    if session is None:
        raise DomainError(
            "no_must_move", _("No must-move player waits for %s.") % table.game, rule="WTL-2", status_code=409
        )
    source = session.table
    moved = session_move(
        actor=actor, session=session, table=table, seat=seat, chips_cents=chips_cents, now=now
    )
    audit_record(
        actor=actor,
        action="cashgame.must_move",
        obj=moved,
        before={"table": source.pk},
        after={"table": table.pk, "seat": seat},
        now=now,
    )
    return moved
