"""Rebuy and add-on settings of a tournament (TRN-6), changed only before the start."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record, snapshot
from tournaments.models import Tournament, TournamentStatus
from tournaments.services._common import lock_tournament, rules_for

RULE_FIELDS = [
    "rebuy_level",
    "max_rebuys",
    "rebuy_prize_cents",
    "rebuy_fee_cents",
    "rebuy_chips",
    "add_on_level",
    "add_on_prize_cents",
    "add_on_fee_cents",
    "add_on_chips",
]


@transaction.atomic
def tournament_rules_update(
    *, actor, tournament: Tournament, now: datetime | None = None, **changes
) -> object:
    """Rebuy and add-on settings (TRN-6), changed only before the tournament starts."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    unknown = set(changes) - set(RULE_FIELDS)
    if unknown:
        raise DomainError(
            "unknown_field", _("These fields cannot be edited: %s") % ", ".join(sorted(unknown))
        )
    tournament = lock_tournament(tournament.pk)
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        raise DomainError(
            "already_started",
            _("Rebuy and add-on rules change only before the start."),
            rule="TRN-6",
            status_code=409,
        )
    rules = rules_for(tournament)
    before = snapshot(rules, RULE_FIELDS)
    for name, value in changes.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10**12:
            raise DomainError(
                "invalid_value", _("%s must be a whole number, 0 or more.") % name, rule="TRN-6"
            )
        setattr(rules, name, value)
    level_count = tournament.levels.filter(kind="level").count()
    for level_field, amount_fields in (
        ("rebuy_level", ("rebuy_prize_cents", "rebuy_fee_cents", "rebuy_chips", "max_rebuys")),
        ("add_on_level", ("add_on_prize_cents", "add_on_fee_cents", "add_on_chips")),
    ):
        level = getattr(rules, level_field)
        if level > level_count:
            raise DomainError(
                "invalid_level", _("The structure has only %d levels.") % level_count, rule="TRN-6"
            )
        if level and (
            getattr(rules, amount_fields[0]) + getattr(rules, amount_fields[1]) <= 0
            or not all(getattr(rules, name) > 0 for name in amount_fields[2:])
        ):
            raise DomainError(
                "incomplete_rule",
                _("Give the price and the chips (and for rebuys the number allowed) when they are allowed."),
                rule="TRN-6",
            )
    rules.save()
    audit_record(
        actor=actor,
        action="tournament.rules_update",
        obj=tournament,
        before=before,
        after=snapshot(rules, RULE_FIELDS),
        now=now,
    )
    return rules
