"""Cash tables: created by managers, opened and closed by the floor (a table with players still
seated, or a hand in progress, cannot be closed)."""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashgame.locks import table_for_update
from cashgame.models import CashTable, Game, HousePlayers, PlayerSession, TableStatus

TABLE_FIELDS = ["number", "game", "seats", "status", "opened_at", "closed_at", "house_players"]


@transaction.atomic
def table_create(
    *,
    actor,
    number: int,
    game: Game,
    seats: int = 9,
    house_players: str = HousePlayers.NONE,
    now: datetime | None = None,
) -> CashTable:
    """A new table (closed until the floor opens it)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    _check_house_players(house_players)
    if not 1 <= number <= 999:
        raise DomainError("invalid_number", _("Table numbers run from 1 to 999."))
    if not 2 <= seats <= 10:
        raise DomainError("invalid_seats", _("A table has 2 to 10 seats."))
    try:
        with transaction.atomic():
            table = CashTable.objects.create(
                number=number, game=game, seats=seats, house_players=house_players
            )
    except IntegrityError:
        raise DomainError(
            "table_number_taken", _("Table %d exists already.") % number, status_code=409
        ) from None
    audit_record(
        actor=actor, action="cashgame.table_create", obj=table, after=snapshot(table, TABLE_FIELDS), now=now
    )
    return table


def _check_house_players(value: str) -> None:
    if value not in HousePlayers.values:
        raise DomainError("invalid_house_players", _("Choose who the house has playing at the table."))


@transaction.atomic
def table_house_players_set(
    *, actor, table: CashTable, house_players: str, now: datetime | None = None
) -> CashTable:
    """Mark the table as one where the house's staff or proposition players play (or neither):
    the public room page flags it (WTL-3's page tells players who they play against)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    _check_house_players(house_players)
    table = table_for_update(table.pk)
    before = snapshot(table, TABLE_FIELDS)
    table.house_players = house_players
    table.save(update_fields=["house_players"])
    audit_record(
        actor=actor,
        action="cashgame.table_house_players",
        obj=table,
        before=before,
        after=snapshot(table, TABLE_FIELDS),
        now=now,
    )
    return table


@transaction.atomic
def table_open(
    *, actor, table: CashTable, game: Game | None = None, now: datetime | None = None
) -> CashTable:
    """Open a table, optionally for another game (a closed table is empty, so it may change)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = table_for_update(table.pk)
    if table.is_open:
        raise DomainError("table_already_open", _("%s is open already.") % table, status_code=409)
    if game is not None and not game.active:
        raise DomainError("game_inactive", _("%s is not offered any more.") % game, rule="CSH-1")
    before = snapshot(table, TABLE_FIELDS)
    if game is not None:
        table.game = game
    table.status = TableStatus.OPEN
    table.opened_at = now
    table.closed_at = None
    table.save(update_fields=["game", "status", "opened_at", "closed_at"])
    audit_record(
        actor=actor,
        action="cashgame.table_open",
        obj=table,
        before=before,
        after=snapshot(table, TABLE_FIELDS),
        now=now,
    )
    return table


@transaction.atomic
def table_close(*, actor, table: CashTable, now: datetime | None = None) -> CashTable:
    """Close a table. Refused while players are seated (they cash out or move first) or a hand
    is in progress (end or void it first)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = table_for_update(table.pk)
    if not table.is_open:
        raise DomainError("table_already_closed", _("%s is closed already.") % table, status_code=409)
    if table.hand_in_progress:
        raise DomainError(
            "hand_in_progress",
            _("A hand is in progress at %s: end or void it first.") % table,
            status_code=409,
        )
    seated = PlayerSession.objects.filter(table=table, ended_at__isnull=True).count()
    if seated:
        raise DomainError(
            "players_seated",
            _("%(count)d player(s) still seated at %(table)s: cash them out or move them first.")
            % {"count": seated, "table": table},
            rule="CSH-2",
            status_code=409,
        )
    before = snapshot(table, TABLE_FIELDS)
    table.status = TableStatus.CLOSED
    table.closed_at = now
    table.save(update_fields=["status", "closed_at"])
    audit_record(
        actor=actor,
        action="cashgame.table_close",
        obj=table,
        before=before,
        after=snapshot(table, TABLE_FIELDS),
        now=now,
    )
    return table
