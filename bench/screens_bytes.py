"""Bytes per screen per second: what the room's screens cost on its Wi-Fi (issue 24, item 6).

Run from the project root:  .venv/bin/python bench/screens_bytes.py [--seconds 20]

The room of bench/room_load.py (40 cash tables of 4 players, a running tournament of 90 on its
tables, a waiting list) is polled in this process through Django's test client, as the screens
poll it: the floor view every second, the TV clock every second, the players' room page every
5 seconds. Each screen keeps what a browser keeps: the floor view and the room page are htmx
polls answered `no-cache` with an ETag, so Chromium keeps each answer and asks again with
If-None-Match; the TV clock's script sends back the state's tag itself (static/js/clock.js).
A screen of "before" polls the same addresses as the pages did before the 304s and the partial
answers: the whole room, the whole state, the whole room page, every time.

Two runs of `--seconds` each: idle (nothing happens but the clock), and busy (each second one
cash table's hand is dealt or voided, in turn over the tables, and every 5 seconds a tournament
player busts). Bytes are counted as they go on the wire from the server: the status line, the
headers and the body (no compression, no TLS). The shared readings are drawn by real time, so
the run takes the seconds it says.
"""

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import load_average, prepare_database, setup_django

ROOM_PAGE_EVERY = 5
KB = 1024
FLOOR_IDLE_TARGET = 1 * KB
FLOOR_ONE_TABLE_TARGET = 20 * KB


def wire_bytes(response) -> int:
    status_line = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
    return len(status_line.encode()) + len(response.serialize())


class Screen:
    """One screen's polls of one address, and the bytes they cost. `keeps` is what the page's
    browser or script keeps: an answer with an ETag, sent back as If-None-Match."""

    def __init__(self, client, url: str, *, keeps: bool):
        self.client, self.url, self.keeps = client, url, keeps
        self.tag: str | None = None
        self.bytes = 0
        self.answers: dict[int, int] = {}
        self.largest = 0

    def poll(self) -> str:
        headers = {"HTTP_IF_NONE_MATCH": self.tag} if self.keeps and self.tag else {}
        response = self.client.get(self.url, **headers)
        size = wire_bytes(response)
        self.bytes += size
        self.largest = max(self.largest, size)
        self.answers[response.status_code] = self.answers.get(response.status_code, 0) + 1
        if response.status_code == 200:
            self.tag = response.get("ETag")
        return response.content.decode()


class FloorScreen(Screen):
    """The floor view's poll: it asks for what changed since the drawing it holds (`since`),
    which each answer that changed something moves on."""

    SINCE = re.compile(r'hx-get="/floor/live/\?since=([\w.]+)"')

    def __init__(self, client, since: str):
        super().__init__(client, f"/floor/live/?since={since}", keeps=True)

    def poll(self) -> str:
        body = super().poll()
        moved = self.SINCE.search(body)
        if moved and not self.url.endswith(moved.group(1)):
            self.url, self.tag = f"/floor/live/?since={moved.group(1)}", None  # a new address: nothing kept
        return body


def run(*, seconds: int, busy: bool, room: dict, clients) -> dict:
    from django.contrib.auth.models import User

    from cashgame.models import CashTable
    from cashgame.selectors import table_current_hand
    from cashgame.services.hands import hand_start, hand_void
    from tournaments.models import Entry, Tournament
    from tournaments.services.payouts import entry_bust

    floor_client, public_client = clients
    manager = User.objects.get(pk=room["manager"])
    tournament = Tournament.objects.get(pk=room["tournament"])
    tables = list(CashTable.objects.filter(number__lte=40).order_by("number"))
    page = floor_client.get("/floor/").content.decode()
    tv = f"/tv/{tournament.pk}/state.json"
    screens = {
        "floor view": (FloorScreen(floor_client, FloorScreen.SINCE.search(page).group(1)), 1),
        "TV clock": (Screen(public_client, tv, keeps=True), 1),
        "room page": (Screen(public_client, "/room/live/", keeps=True), ROOM_PAGE_EVERY),
    }
    before = {
        "floor view": (Screen(floor_client, "/floor/live/", keeps=False), 1),
        "TV clock": (Screen(public_client, tv, keeps=False), 1),
        "room page": (Screen(public_client, "/room/live/", keeps=False), ROOM_PAGE_EVERY),
    }
    for second in range(seconds):
        started = time.monotonic()
        if busy:
            table = tables[(second // 2) % len(tables)]
            hand = table_current_hand(table=table)
            if hand is None:
                hand_start(actor=manager, table=table, seats=[1, 2, 3, 4], button_seat=1)
            else:
                hand_void(actor=manager, hand=hand, reason="misdeal")
            if second % 5 == 4:
                seated = Entry.objects.filter(tournament=tournament, table__isnull=False)
                entry = seated.order_by("pk").first()
                entry_bust(actor=manager, tournament=tournament, busted=[(entry.pk, 1_000 + second)])
        for group in (screens, before):
            for screen, every in group.values():
                if second % every == 0:
                    screen.poll()
        time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
    return {
        name: {
            "now": screen.bytes / seconds,
            "before": before[name][0].bytes / seconds,
            "answers": screen.answers,
            "largest": screen.largest,
        }
        for name, (screen, _every) in screens.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    drop = prepare_database()
    try:
        setup_django()
        from django.test import Client

        from bench.room_setup import setup_room

        print(f"load average {load_average()}")
        room = setup_room()
        floor_client = Client(HTTP_HOST="localhost")
        floor_client.defaults["HTTP_COOKIE"] = room["cookie"]
        public_client = Client(HTTP_HOST="localhost")
        clients = (floor_client, public_client)
        idle = run(seconds=args.seconds, busy=False, room=room, clients=clients)
        busy = run(seconds=args.seconds, busy=True, room=room, clients=clients)
        print()
        print("Bytes per screen per second (status line, headers and body; no compression)")
        heading = f"{'screen':<12} {'polls':>6} {'idle':>10} {'before':>10} {'busy':>10} {'before':>10}"
        print(f"{heading}  answers (busy)")
        for name in idle:
            every = ROOM_PAGE_EVERY if name == "room page" else 1
            print(
                f"{name:<12} {f'{every} s':>6} {idle[name]['now']:>10,.0f} {idle[name]['before']:>10,.0f}"
                f" {busy[name]['now']:>10,.0f} {busy[name]['before']:>10,.0f}  {busy[name]['answers']}"
            )
        floor_idle = idle["floor view"]["now"]
        floor_busy_largest = busy["floor view"]["largest"]
        print()
        print(f"floor view, largest busy answer: {floor_busy_largest:,} bytes (a hand's or a bust-out's)")
        print(f"RATIO floor_idle/1KB = {floor_idle / FLOOR_IDLE_TARGET:.3f}")
        print(f"RATIO floor_busy_answer/20KB = {floor_busy_largest / FLOOR_ONE_TABLE_TARGET:.3f}")
    finally:
        drop()


if __name__ == "__main__":
    main()
