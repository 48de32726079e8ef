from datetime import UTC, datetime

import factory

from tournaments.models import BlindStructure, LevelKind, StructureLevel, Tournament, TournamentLevel

T0 = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)


class BlindStructureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BlindStructure

    name = factory.Sequence(lambda n: f"Structure {n}")


class StructureLevelFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = StructureLevel

    structure = factory.SubFactory(BlindStructureFactory)
    order = factory.Sequence(lambda n: n + 1)
    kind = LevelKind.LEVEL
    small_blind_chips = 25
    big_blind_chips = 50
    minutes = 20


def structure_with(levels: list[tuple], name: str | None = None) -> BlindStructure:
    """levels: (small, big, minutes) for a level, ("break", minutes, note) for a break."""
    structure = BlindStructureFactory(**({"name": name} if name else {}))
    for order, row in enumerate(levels, start=1):
        if row[0] == "break":
            StructureLevelFactory(
                structure=structure,
                order=order,
                kind=LevelKind.BREAK,
                small_blind_chips=0,
                big_blind_chips=0,
                minutes=row[1],
                note=row[2],
            )
        else:
            StructureLevelFactory(
                structure=structure,
                order=order,
                small_blind_chips=row[0],
                big_blind_chips=row[1],
                minutes=row[2],
            )
    return structure


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament with its own levels written directly (seconds-long levels for the clock)."""

    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Tournament {n}")
    start_at = T0
    status = "registering"
    prize_cents = 9_000
    fee_cents = 1_000
    starting_stack_chips = 20_000

    @factory.post_generation
    def levels(self, create, extracted, **kwargs):
        """levels=[(small, big, seconds) or ("break", seconds, note), ...]"""
        for order, row in enumerate(extracted or [], start=1):
            if row[0] == "break":
                TournamentLevel.objects.create(
                    tournament=self, order=order, kind=LevelKind.BREAK, duration_seconds=row[1], note=row[2]
                )
            else:
                TournamentLevel.objects.create(
                    tournament=self,
                    order=order,
                    small_blind_chips=row[0],
                    big_blind_chips=row[1],
                    duration_seconds=row[2],
                )


def seat_players(tournament: Tournament, count: int) -> list:
    """`count` registered, present entries written directly (no money): for tests of the floor
    pages and the clock, where the cashier's posting is not the point."""
    from tests.factories import PlayerFactory
    from tournaments.models import Entry

    first = tournament.entries.count() + 1
    return [
        Entry.objects.create(
            tournament=tournament,
            player=PlayerFactory(),
            number=number,
            kind="buy_in",
            present=True,
            starting_stack_chips=tournament.starting_stack_chips,
            registered_at=T0,
        )
        for number in range(first, first + count)
    ]
