"""Whose page a link is: a player's private page (/room/me/<token>/) or a phone joiner's
waiting-list page (/wait/s/<token>/). The signed token in the link is the only key."""

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cashgame.models import WaitingEntry
from cashgame.services.waiting_remote import status_entry_ids
from loyalty.selectors import player_id_from_token
from notices.models import ConsentPage
from players.models import Player

PLAYER_PAGE = "me"
WAITING_PAGE = "wait"


@dataclass(frozen=True)
class LinkOwner:
    page: str  # ConsentPage
    page_path: str
    player_id: int | None = None
    entry_ids: list[int] = field(default_factory=list)


def link_owner(*, where: str, token: str) -> LinkOwner:
    """The owner of the link; a refusal naming NOT-1 for a forged, revoked or expired one."""
    if where == PLAYER_PAGE:
        player_id = player_id_from_token(token)
        if player_id is not None and Player.objects.filter(pk=player_id, erased_at__isnull=True).exists():
            return LinkOwner(
                page=ConsentPage.PLAYER_PAGE,
                page_path=reverse("loyalty_room:me", args=[token]),
                player_id=player_id,
            )
    elif where == WAITING_PAGE:
        try:
            ids = status_entry_ids(token)
        except DomainError:
            ids = []
        if ids:
            # A member who joined with his card consents as himself: his tournaments and payouts
            # are his too, and his private page shows the same consent.
            players = set(WaitingEntry.objects.filter(pk__in=ids).values_list("player_id", flat=True))
            return LinkOwner(
                page=ConsentPage.WAITING_PAGE,
                page_path=reverse("wait:status", args=[token]),
                player_id=players.pop() if len(players) == 1 else None,
                entry_ids=ids,
            )
    raise DomainError(
        "link_invalid",
        _("This link is not valid. Open the one you were given."),
        rule="NOT-1",
        status_code=404,
    )
