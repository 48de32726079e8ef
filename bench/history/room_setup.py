"""The rows a history stands on, made or read through the ORM before the load: the staff, the
games the tables run, the blind structures, and the first free id of every table loaded."""

from django.contrib.auth import get_user_model
from django.db.models import Max
from django.utils import timezone

from bench.history import cash
from bench.history.specs import specs
from cardroom.roles import Role
from cardroom.services import staff_role_grant
from cashgame.models import Game, GameType
from tournaments.models import BlindStructure

# name, game, blinds, buy-ins, median pot after the flop (big blinds), seconds per hand
GAMES = [
    ("NLHE 1/2", GameType.NLHE, 100, 200, 10_000, 30_000, 11.0, 104),
    ("NLHE 2/5", GameType.NLHE, 200, 500, 20_000, 100_000, 10.0, 108),
    ("PLO 1/2", GameType.PLO, 100, 200, 10_000, 50_000, 16.0, 122),
    ("PLO 2/5", GameType.PLO, 200, 500, 30_000, 150_000, 14.0, 126),
    ("NLHE 5/10", GameType.NLHE, 500, 1_000, 50_000, 250_000, 9.0, 113),
    ("NLHE 10/25", GameType.NLHE, 1_000, 2_500, 150_000, 750_000, 8.0, 117),
]


def home_game(number: int, tables: int) -> int:
    """The game a table usually runs (index into GAMES), spread like a real room's."""
    share = number / tables
    for limit, game in ((0.40, 0), (0.62, 1), (0.75, 2), (0.85, 3), (0.95, 4)):
        if share <= limit:
            return game
    return 5


def staff_ensure() -> dict:
    users = get_user_model()

    def member(name: str, role: Role):
        user, created = users.objects.get_or_create(username=name)
        if created:
            user.set_unusable_password()
            user.save()
            staff_role_grant(user=user, role=role.value)
        return user.pk, name

    return {
        "cashiers": [member(f"history-cashier-{n}", Role.CASHIER) for n in range(1, 5)],
        "floor": [member(f"history-floor-{n}", Role.FLOOR) for n in range(1, 4)],
        "manager": member("history-manager", Role.MANAGER),
    }


def games_ensure() -> list[cash.GamePlan]:
    plans = []
    now = timezone.now()
    for name, game_type, small, big, minimum, maximum, pot_bb, seconds in GAMES:
        game, _created = Game.objects.get_or_create(
            name=name,
            defaults={
                "game_type": game_type,
                "small_blind_cents": small,
                "big_blind_cents": big,
                "min_buy_in_cents": minimum,
                "max_buy_in_cents": maximum,
                "created_at": now,
                "updated_at": now,
            },
        )
        plans.append(
            cash.GamePlan(
                game.pk,
                game.name,
                game.small_blind_cents,
                game.big_blind_cents,
                game.min_buy_in_cents,
                game.max_buy_in_cents or game.min_buy_in_cents * 3,
                game.rake_rate_bp,
                game.rake_cap_cents,
                game.rake_rounding_cents,
                game.jackpot_small_blind_cents,
                game.jackpot_big_blind_cents,
                game.jackpot_min_players,
                game.jackpot_drop_cents,
                game.jackpot_threshold_cents,
                pot_bb,
                seconds,
            )
        )
    return plans


# Used when the database holds no blind structure (the presets of the migrations were flushed):
# 20-minute levels, a break after every fourth.
FALLBACK_LEVELS = [
    ("break", 0, 0, 0, False, "", 600) if n % 5 == 4 else ("level", 25 * 2**n, 50 * 2**n, 0, False, "", 1_200)
    for n in range(20)
]


def structures_read() -> dict[str, dict]:
    result = {"": {"id": None, "name": "", "levels": FALLBACK_LEVELS}}
    for structure in BlindStructure.objects.prefetch_related("levels"):
        result[structure.name] = {
            "id": structure.pk,
            "name": structure.name,
            "levels": [
                (
                    level.kind,
                    level.small_blind_chips,
                    level.big_blind_chips,
                    level.ante_chips,
                    level.big_blind_ante,
                    level.note,
                    level.minutes * 60,
                )
                for level in structure.levels.order_by("order")
            ],
        }
    return result


def next_ids() -> dict[str, int]:
    start = {}
    for name, spec in specs().items():
        start[name] = (spec.model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1
    return start
