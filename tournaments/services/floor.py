"""The floor's quick actions on a running tournament: the button set by hand, every pending move
confirmed at once (TRN-9), and late registration reopened while its level allows (TRN-6).

Each locks the tournament row first, like every other tournament service, and leaves an audit
record with what was before and after.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from tournaments import refusals
from tournaments.models import EntryStatus, MoveSlip, Table, TableStatus, Tournament
from tournaments.services import clock
from tournaments.services._common import lock_tournament, rules_for
from tournaments.services.seating import button_move, occupied_seats


@transaction.atomic
def table_button_set(*, actor, table: Table, seat: int, now: datetime | None = None) -> Table:
    """ "Button at seat N": the floor puts the button on an occupied seat without a card draw
    (the draw, HND-2, stays available for a new table)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
    if table.status != TableStatus.OPEN:
        raise DomainError(
            "table_broken", _("%s is broken; it has no button.") % table, rule="TRN-9", status_code=409
        )
    if seat not in occupied_seats(tournament, table):
        raise DomainError(
            "seat_empty",
            _("No one sits in seat %(seat)d at %(table)s; the button goes to a seated player.")
            % {"seat": seat, "table": table},
            rule="TRN-9",
        )
    return button_move(actor=actor, table=table, seat=seat, action="seating.button_set", now=now)


@transaction.atomic
def move_slips_confirm_all(*, actor, tournament: Tournament, now: datetime | None = None) -> int:
    """The floor confirms that every player on a pending slip moved (TRN-9). Returns how many."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    slips = list(
        MoveSlip.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, confirmed_at__isnull=True, replaced_at__isnull=True)
        .select_related("entry")
        .order_by("pk")
    )
    if not slips:
        raise DomainError("no_moves", _("There are no moves waiting."), rule="TRN-9", status_code=409)
    MoveSlip.objects.filter(pk__in=[slip.pk for slip in slips]).update(confirmed_at=now, confirmed_by=actor)
    audit_record(
        actor=actor,
        action="seating.slips_confirmed",
        obj=tournament,
        after={"moves": [[slip.entry.number, str(slip)] for slip in slips]},
        now=now,
    )
    return len(slips)


@transaction.atomic
def registration_reopen(
    *, actor, tournament: Tournament, until_level: int | None = None, now: datetime | None = None
) -> Tournament:
    """Reopen late registration (TRN-6) until the end of level `until_level` (default: the
    tournament's own setting), allowed only while that level has not ended. The field is no longer
    final, so the places of players busted so far are taken back: they are given again, by the
    same order and stacks, when registration closes (TRN-10). Refused once payouts are final."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    refusal = refusals.registration_reopen_refusal(tournament, until=until_level)
    if refusal is not None:
        raise refusal
    rules = rules_for(tournament)
    until = tournament.late_registration_level if until_level is None else until_level
    placed = list(
        tournament.entries.filter(status=EntryStatus.BUSTED, finish_place__isnull=False).values_list(
            "number", "finish_place"
        )
    )
    tournament.entries.filter(status=EntryStatus.BUSTED, finish_place__isnull=False).update(
        finish_place=None, prize_cents=None
    )
    before = {
        "late_registration_level": tournament.late_registration_level,
        "registration_closed_at": rules.registration_closed_at.isoformat(),
        "places": sorted(placed),
    }
    tournament.late_registration_level = until
    tournament.save(update_fields=["late_registration_level"])
    rules.registration_closed_at = None
    rules.save(update_fields=["registration_closed_at"])
    audit_record(
        actor=actor,
        action="tournament.registration_reopened",
        obj=tournament,
        before=before,
        after={"late_registration_level": until, "registration_closed_at": None, "places": []},
        now=now,
    )
    return tournament
