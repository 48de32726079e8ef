"""Issue 2: player search with 50,000 players. Target: card search under 50 ms (p99).

Run from the project root:  .venv/bin/python bench/player_search.py [--sqlite]
PostgreSQL by default (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set);
--sqlite runs the same measurement again on a temporary SQLite file.
"""

import os
import random
import statistics
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentile, prepare_database, setup_django

PLAYERS = 50_000
CARD_QUERIES = 1_000
NAME_QUERIES = 200
TARGET_MS = 50.0
SQLITE_URL = "sqlite:////tmp/bench_players.sqlite3"

FIRST = [
    "Jan",
    "Petr",
    "Tomáš",
    "Lukáš",
    "Anna",
    "Eva",
    "Jiří",
    "Marie",
    "Pavel",
    "Zdeněk",
    "Šárka",
    "Ondřej",
    "Kateřina",
    "Martin",
    "Lucie",
    "David",
    "Jakub",
    "Tereza",
    "Michal",
    "Veronika",
]
SYLLABLES = [
    "no",
    "vá",
    "ko",
    "stá",
    "ně",
    "mar",
    "dvo",
    "řák",
    "pro",
    "ch",
    "sk",
    "ý",
    "bla",
    "ži",
    "ček",
    "hor",
    "ka",
    "vel",
    "še",
    "tr",
    "lín",
    "ová",
    "ba",
    "zel",
    "cí",
]


def make_players(rng: random.Random) -> None:
    from players.models import Player, normalize

    last_names = sorted(
        {"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize() for _ in range(6_000)}
    )
    cards = rng.sample(range(100_000, 100_000_000), PLAYERS)
    born = date(1950, 1, 1)
    batch = []
    for i, card in enumerate(cards):
        first, last = rng.choice(FIRST), rng.choice(last_names)
        nickname = f"{last[:3]}{i}" if i % 3 == 0 else ""
        batch.append(
            Player(
                first_name=first,
                last_name=last,
                nickname=nickname,
                date_of_birth=born + timedelta(days=rng.randrange(20_000)),
                card_number=str(card),
                id_document_type="id_card",
                id_document_number=f"ID{i:08d}",
                first_name_key=normalize(first),
                last_name_key=normalize(last),
                nickname_key=normalize(nickname),
            )
        )
    Player.objects.bulk_create(batch, batch_size=2_000)


def timed(queries: list[str]) -> tuple[list[float], int]:
    from players.selectors import player_search

    times, found = [], 0
    for query in queries:
        start = time.perf_counter()
        rows = list(player_search(query=query))
        times.append((time.perf_counter() - start) * 1000)
        found += bool(rows)
    return times, found


def report(label: str, times: list[float], found: int) -> float:
    p99 = percentile(times, 0.99)
    print(
        f"{label:<22} n={len(times):<5} found={found:<5} "
        f"median={statistics.median(times):7.2f} ms  p99={p99:7.2f} ms"
    )
    return p99


def run() -> None:
    from django.db import connection

    from players.models import Player

    rng = random.Random(2)
    start = time.perf_counter()
    make_players(rng)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE players_player")
    print(
        f"database: {connection.vendor}, {Player.objects.count()} players "
        f"(created in {time.perf_counter() - start:.1f} s)"
    )
    cards = list(Player.objects.values_list("card_number", flat=True))
    last_keys = list(Player.objects.values_list("last_name", flat=True))
    card_queries = rng.sample(cards, CARD_QUERIES)
    name_queries = [rng.choice(last_keys)[:3] for _ in range(NAME_QUERIES)]
    timed(card_queries[:50])  # warm-up: connection, caches
    card_p99 = report("card number (exact)", *timed(card_queries))
    report("last-name prefix (3)", *timed(name_queries))
    print(f"card p99 / target = {card_p99:.2f} / {TARGET_MS:.0f} ms = {card_p99 / TARGET_MS:.3f}")
    print("target: card search under 50 ms (ratio < 1)")


def main() -> None:
    cleanup = prepare_database()
    try:
        setup_django()
        run()
    finally:
        cleanup()
    if "--sqlite" in sys.argv[1:]:
        path = Path(SQLITE_URL.removeprefix("sqlite:///"))
        path.unlink(missing_ok=True)
        print()
        try:
            subprocess.run(
                [sys.executable, __file__], env={**os.environ, "DATABASE_URL": SQLITE_URL}, check=True
            )
        finally:
            path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
