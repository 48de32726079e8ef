"""Reads of the notices (NOT-1): the consent a link's owner gave, and who gets a piece of news."""

from django.db.models import Q, QuerySet

from notices.models import NoticeConsent


def consent_active_get(*, player_id: int | None, entry_ids: list[int]) -> NoticeConsent | None:
    """The consent in force for this player (his private page) or these waiting-list entries
    (a phone joiner's status page), else None."""
    who = Q(entries__in=entry_ids) if entry_ids else Q(pk__in=[])
    if player_id is not None:
        who |= Q(player_id=player_id)
    return NoticeConsent.objects.filter(who, withdrawn_at__isnull=True).distinct().order_by("pk").first()


def consents_for(*, player_ids: list[int] = (), entry_id: int | None = None) -> QuerySet[NoticeConsent]:
    """Every consent in force that covers one of these players or this waiting-list entry."""
    who = Q(player_id__in=[pk for pk in player_ids if pk is not None])
    if entry_id is not None:
        who |= Q(entries=entry_id)
    return (
        NoticeConsent.objects.filter(who, withdrawn_at__isnull=True)
        .distinct()
        .prefetch_related("subscriptions")
        .order_by("pk")
    )
