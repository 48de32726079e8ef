"""The floor's side of a phone join (WTL-1): the player who joined from his phone arrives, and
the floor checks him in with his membership card (or finds or registers him), then seats him.
A seat needs a registered player; the check-in ties the entry to him."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cashgame.locks import game_for_update
from cashgame.models import (
    WAITING_STATUSES,
    CashTable,
    PlayerSession,
    QueueEvent,
    WaitingEntry,
    WaitStatus,
)
from cashgame.services.waiting import queue_log, waiting_seat
from players.models import Player, normalize
from players.services import player_create


@transaction.atomic
def waiting_check_in(
    *,
    actor,
    entry: WaitingEntry,
    card_number: str = "",
    player: Player | None = None,
    now: datetime | None = None,
) -> WaitingEntry:
    """The floor confirms a remote player has arrived (WTL-1). A phone-only entry is tied here to
    the registered person, found by the membership card number or chosen (`player`); seating
    them needs one."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    game_for_update(entry.game_id)
    entry = WaitingEntry.objects.select_related("player").get(pk=entry.pk)
    if entry.status not in WAITING_STATUSES:
        raise DomainError(
            "not_waiting", _("The player is no longer on the list."), rule="WTL-1", status_code=409
        )
    card_number = (card_number or "").strip()
    if entry.player is None:
        if player is None and not card_number:
            raise DomainError(
                "card_required", _("Type the player's membership card number to check them in."), rule="WTL-1"
            )
        if player is None:
            player = Player.objects.filter(card_number=card_number).first()
            if player is None:
                raise DomainError("unknown_card", _("No member has card %s.") % card_number, rule="WTL-1")
        if WaitingEntry.objects.filter(
            game_id=entry.game_id, player=player, status__in=WAITING_STATUSES
        ).exists():
            raise DomainError(
                "already_waiting",
                _("%s is on this list already.") % player.full_name,
                rule="WTL-1",
                status_code=409,
            )
        entry.player = player
    elif player is not None and player.pk != entry.player_id:
        raise DomainError(
            "entry_changed",
            _("%(nickname)s was checked in as %(player)s meanwhile.")
            % {"nickname": entry.nickname or entry.display_name, "player": entry.player.full_name},
            rule="WTL-1",
            status_code=409,
        )
    entry.checked_in_at = now
    entry.save(update_fields=["player", "checked_in_at"])
    queue_log(entry=entry, event=QueueEvent.CHECK_IN, at=now, actor=actor)
    audit_record(
        actor=actor,
        action="cashgame.waiting_check_in",
        obj=entry,
        after={"player": entry.player_id, "checked_in_at": now},
        now=now,
    )
    return entry


def _seated_already(
    entry: WaitingEntry, *, table: CashTable, seat: int, player: Player | None, person: dict | None
) -> PlayerSession | None:
    """The session of a check-in at this seat already done for this very person (the caller holds
    the game's lock), else None."""
    if entry.status != WaitStatus.SEATED or (entry.table_id, entry.seat) != (table.pk, seat):
        return None
    done = entry.player
    if player is not None and player.pk != done.pk:
        return None
    if person is not None and (
        normalize(person.get("first_name", "")) != done.first_name_key
        or normalize(person.get("last_name", "")) != done.last_name_key
        or person.get("date_of_birth") != done.date_of_birth
    ):
        return None
    return PlayerSession.objects.filter(player=done, table=table, seat=seat, ended_at__isnull=True).first()


@transaction.atomic
def waiting_check_in_seat(
    *,
    actor,
    entry: WaitingEntry,
    table: CashTable,
    seat: int,
    player: Player | None = None,
    person: dict | None = None,
    now: datetime | None = None,
) -> PlayerSession:
    """A phone joiner without a card meets the floor at a free seat (WTL-1, WTL-2): in one step
    the floor finds the person (`player`) or registers them (`person`: the identity fields
    `players.services.player_create` takes), checks the entry in with them and seats them,
    waiting for the buy-in at the cage. A refusal at any step writes nothing; the same
    request again (a double tap) finds it done and answers with the seat, writing nothing."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if (player is None) == (person is None):
        raise DomainError(
            "person_required", _("Choose the person found, or register a new one."), rule="WTL-1"
        )
    game_for_update(entry.game_id)
    entry = WaitingEntry.objects.select_related("player").get(pk=entry.pk)
    done = _seated_already(entry, table=table, seat=seat, player=player, person=person)
    if done is not None:
        return done
    if entry.status not in WAITING_STATUSES:
        raise DomainError(
            "not_waiting",
            _("%(player)s is no longer waiting (%(status)s).")
            % {"player": entry.display_name, "status": entry.get_status_display().lower()},
            rule="WTL-1",
            status_code=409,
        )
    if person is not None:
        player = player_create(actor=actor, now=now, **person)
    entry = waiting_check_in(actor=actor, entry=entry, player=player, now=now)
    return waiting_seat(actor=actor, entry=entry, seat=seat, table=table, now=now)
