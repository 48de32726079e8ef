"""Reads of the player registry."""

from django.db.models import Q, QuerySet

from players.models import Player, normalize


def player_search(*, query: str, limit: int | None = 20) -> QuerySet[Player]:
    """Find players by card number (exact), or by the start of name words and nickname; the
    first `limit` of them (the pages' pickers), or all (None: the API pages through them).

    Every branch uses an index: the unique card number, or a prefix of the normalised name keys,
    so the look-up stays fast with tens of thousands of players.
    """
    query = (query or "").strip()
    if not query:
        return Player.objects.none()
    if query.isdigit():
        by_card = Player.objects.filter(card_number=query)
        if by_card.exists():
            return by_card
    condition = Q()
    for word in normalize(query).split()[:4]:
        condition &= (
            Q(last_name_key__startswith=word)
            | Q(first_name_key__startswith=word)
            | Q(nickname_key__startswith=word)
        )
    found = Player.objects.filter(condition).order_by("last_name_key", "first_name_key", "pk")
    return found if limit is None else found[:limit]
