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


# What `public_names` reads of a player: a screen drawing many seats loads these alone (`.only`).
PUBLIC_NAME_FIELDS = ("first_name", "last_name", "nickname", "public_full_name", "erased_at")


def _public_options(player: Player) -> list[str]:
    """The names a public screen may show for a player (WTL-3), shortest first: never the full
    name, unless he opted in (then only it). A nickname that is the player's full name counts as
    none. Never the card number."""
    first, last = player.first_name.strip(), player.last_name.strip()
    if player.erased_at is not None:
        return [player.full_name]  # the pseudonym (GDP-1): the record's number, nothing of the person
    if player.public_full_name:
        # He asked for his name on the screens; a namesake is told apart by a number.
        return [f"{first} {last}"]
    nickname = player.nickname.strip()
    if normalize(nickname) == normalize(f"{first} {last}"):
        nickname = ""
    if nickname:
        return [nickname, f"{nickname} {last[:1]}.", f"{nickname} {first[:1]}. {last[:1]}."]
    options = [f"{first} {last[:1]}."]
    if len(last) > 2:
        # Two letters of the last name, never all of it.
        options.append(f"{first} {last[:2]}.")
    return options


def public_names(players) -> dict[int, str]:
    """{player id: the name public screens show} (WTL-3): the nickname, or the first name and the
    last name's initial; never the card number, and the full name only for a player who opted
    in (`Player.public_full_name`). Players who would show the same
    name are told apart: "Nits K." and "Nits M.", "Peter Ko." and "Peter Kr."; any still alike
    are numbered in the order they were registered ("Peter K. 2")."""
    unique = {player.pk: player for player in players}
    options = {pk: _public_options(player) for pk, player in unique.items()}
    step = dict.fromkeys(unique, 0)

    def clashes() -> dict[str, list[int]]:
        groups: dict[str, list[int]] = {}
        for pk in sorted(unique):
            groups.setdefault(normalize(options[pk][step[pk]]), []).append(pk)
        return {name: pks for name, pks in groups.items() if len(pks) > 1}

    while True:
        moved = False
        for pks in clashes().values():
            for pk in pks:
                if step[pk] + 1 < len(options[pk]):
                    step[pk] += 1
                    moved = True
        if not moved:
            break
    names = {pk: options[pk][step[pk]] for pk in unique}
    for pks in clashes().values():
        for count, pk in enumerate(pks[1:], start=2):
            names[pk] = f"{names[pk]} {count}"
    return names
