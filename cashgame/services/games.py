"""Games and stakes (CSH-1) with their rake (RAK-3), jackpot (JKP-1, JKP-2) and betting (BET-3)
settings.

Managers create and edit them; every change is audited with the settings before and after.
"""

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import MAX_CENTS, format_eur
from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashgame.locks import game_for_update
from cashgame.models import Game, GameType

GAME_FIELDS = [
    "name",
    "game_type",
    "small_blind_cents",
    "big_blind_cents",
    "min_buy_in_cents",
    "max_buy_in_cents",
    "rake_rate_bp",
    "rake_cap_cents",
    "rake_rounding_cents",
    "jackpot_small_blind_cents",
    "jackpot_big_blind_cents",
    "jackpot_min_players",
    "jackpot_drop_cents",
    "jackpot_threshold_cents",
    "seat_hold_seconds",
    "half_bet_rule",
    "interest_threshold",
    "must_move_for",
    "active",
]
CENT_FIELDS = [name for name in GAME_FIELDS if name.endswith("_cents")]


def _validate(values: dict[str, Any]) -> None:
    """The whole game after the change must make sense (checked before the database does)."""
    if not str(values.get("name") or "").strip():
        raise DomainError("invalid_name", _("The game needs a name."))
    if values.get("game_type") not in GameType.values:
        raise DomainError("invalid_game_type", _("Unknown game: %s") % values.get("game_type"), rule="CSH-1")
    for name in CENT_FIELDS:
        value = values.get(name)
        if value is None and name == "max_buy_in_cents":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_CENTS:
            raise DomainError(
                "invalid_amount", _("%s must be an amount of at least 0.00 EUR.") % name, rule="CSH-1"
            )
    small, big = values["small_blind_cents"], values["big_blind_cents"]
    if not 0 < small <= big:
        raise DomainError(
            "invalid_blinds",
            _("The big blind must be at least the small blind, both above zero."),
            rule="CSH-1",
        )
    if values["min_buy_in_cents"] < big:
        raise DomainError(
            "invalid_min_buy_in", _("The minimum buy-in must be at least one big blind."), rule="CSH-1"
        )
    maximum = values.get("max_buy_in_cents")
    if maximum is not None and maximum < values["min_buy_in_cents"]:
        raise DomainError(
            "invalid_max_buy_in",
            _("The maximum buy-in (%(max)s) is below the minimum (%(min)s).")
            % {"max": format_eur(maximum), "min": format_eur(values["min_buy_in_cents"])},
            rule="CSH-1",
        )
    if not 0 <= values["rake_rate_bp"] <= 10_000:
        raise DomainError(
            "invalid_rake_rate", _("The rake rate is 0 to 10000 basis points (0-100 %)."), rule="RAK-3"
        )
    if values["rake_rounding_cents"] <= 0:
        raise DomainError(
            "invalid_rake_rounding", _("The rake rounds down to a chip above 0.00 EUR."), rule="RAK-3"
        )
    if values["jackpot_min_players"] < 2:
        raise DomainError(
            "invalid_jackpot_players", _("A jackpot hand needs at least 2 players."), rule="JKP-1"
        )
    if not isinstance(values.get("half_bet_rule"), bool):
        raise DomainError(
            "invalid_half_bet_rule",
            _("The half-bet rule is on or off (%(true)s or %(false)s).") % {"true": "true", "false": "false"},
            rule="BET-3",
        )
    if not 10 <= values["seat_hold_seconds"] <= 3600:
        raise DomainError("invalid_hold", _("A called player holds the seat 10 s to 60 min."), rule="CSH-7")
    threshold = values.get("interest_threshold", 0)
    if not isinstance(threshold, int) or isinstance(threshold, bool) or not 0 <= threshold <= 50:
        raise DomainError(
            "invalid_interest_threshold",
            _("A table opens for 0 (never) to 50 players waiting."),
            rule="WTL-2",
        )
    main = values.get("must_move_for")
    if main is not None and not isinstance(main, int | Game):
        raise DomainError("invalid_must_move", _("Choose the main game by its number."), rule="WTL-2")


def _save(game: Game, *, actor, action: str, before: dict | None, now: datetime) -> Game:
    game.updated_at = now
    try:
        with transaction.atomic():
            game.save()
    except IntegrityError:
        raise DomainError(
            "game_name_taken", _("A game with this name exists already."), status_code=409
        ) from None
    audit_record(
        actor=actor, action=action, obj=game, before=before, after=snapshot(game, GAME_FIELDS), now=now
    )
    return game


@transaction.atomic
def game_create(
    *,
    actor,
    name: str,
    game_type: str,
    small_blind_cents: int,
    big_blind_cents: int,
    min_buy_in_cents: int,
    max_buy_in_cents: int | None = None,
    now: datetime | None = None,
    **settings: Any,
) -> Game:
    """A new game at given stakes; the rake and jackpot settings default to the house's
    (RAK-3: 5 %, 0.50 EUR chip, 5 EUR cap; JKP-1/2: 1/2 EUR, 4 players, 1 EUR from 20 EUR), and
    the betting to the full bet rule (BET-3: half-bet rule off)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    unknown = set(settings) - set(GAME_FIELDS)
    if unknown:
        raise DomainError("unknown_field", _("Unknown game setting: %s") % ", ".join(sorted(unknown)))
    game = Game(
        name=str(name).strip(),
        game_type=game_type,
        small_blind_cents=small_blind_cents,
        big_blind_cents=big_blind_cents,
        min_buy_in_cents=min_buy_in_cents,
        max_buy_in_cents=max_buy_in_cents,
        created_at=now,
        **settings,
    )
    _validate(snapshot(game, GAME_FIELDS))
    return _save(game, actor=actor, action="cashgame.game_create", before=None, now=now)


@transaction.atomic
def game_update(*, actor, game: Game, now: datetime | None = None, **changes: Any) -> Game:
    """Managers change a game's stakes, buy-ins, rake, jackpot or betting settings (audited).
    Hands in progress keep the stakes they were dealt at; the rake of the next hand end, and the
    raise calculator, use the new settings."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    unknown = set(changes) - set(GAME_FIELDS)
    if unknown:
        raise DomainError("unknown_field", _("Unknown game setting: %s") % ", ".join(sorted(unknown)))
    game = game_for_update(game.pk)
    before = snapshot(game, GAME_FIELDS)
    _validate({**before, **changes})
    main = changes.get("must_move_for")
    if main is not None and getattr(main, "pk", main) == game.pk:
        raise DomainError(
            "invalid_must_move", _("A game cannot be the must-move game of itself."), rule="WTL-2"
        )
    for name, value in changes.items():
        setattr(game, name, value.strip() if name == "name" else value)
    return _save(game, actor=actor, action="cashgame.game_update", before=before, now=now)
