"""The rulings log (FLR-5): table, hand, situation, rule applied, decision, staff, time. A
ruling on a situation that voids the hand (misdeal FLR-1, duplicate card FLR-2) voids the hand
in progress in the same transaction, so the log and the hand never disagree."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cashgame.locks import table_for_update
from cashgame.models import CashTable, Hand, HandStatus, Ruling, VoidReason
from cashgame.rulebook import BY_KEY, Consequence
from cashgame.services.hands import hand_void


@transaction.atomic
def ruling_record(
    *,
    actor,
    table: CashTable,
    situation: str,
    decision: str,
    hand: Hand | None = None,
    now: datetime | None = None,
) -> Ruling:
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    entry = BY_KEY.get(situation)
    if entry is None:
        raise DomainError("unknown_situation", _("Pick the situation from the rule book."), rule="FLR-5")
    decision = (decision or "").strip()
    if not decision:
        raise DomainError("decision_required", _("Write down the decision."), rule="FLR-5")
    table = table_for_update(table.pk)
    if hand is not None:
        hand = Hand.objects.get(pk=hand.pk)
        if hand.table_id != table.pk:
            raise DomainError("wrong_hand", _("That hand was not dealt at %s.") % table, rule="FLR-5")
    if entry.voids_hand:
        if hand is None or hand.status != HandStatus.IN_PROGRESS:
            raise DomainError(
                "hand_in_progress_required",
                _("%(ruling)s voids the hand in progress: pick that hand.") % {"ruling": entry.rule_name},
                rule=entry.rule,
            )
        reason = (
            VoidReason.MISDEAL if entry.consequence == Consequence.VOID_MISDEAL else VoidReason.DUPLICATE_CARD
        )
        hand_void(actor=actor, hand=hand, reason=reason, now=now)
    return Ruling.objects.create(
        table=table,
        hand=hand,
        situation=situation,
        rule=entry.rule,
        decision=decision[:2000],
        staff=actor,
        at=now,
    )
