"""screens.readings.shared_reading: what many screens poll is read once a period for all of
them, and polls that arrive while it is being read get the last reading instead of reading too."""

from django.core.cache import cache

from screens.readings import shared_reading


def test_one_reading_a_period_serves_every_screen(monkeypatch):
    now = [1_800_000_000.1]
    monkeypatch.setattr("time.time", lambda: now[0])
    reads = []

    def read():
        reads.append(now[0])
        return f"room at {len(reads)}"

    assert [shared_reading("room", read, every=0.5) for _ in range(10)] == ["room at 1"] * 10
    now[0] += 0.5
    assert shared_reading("room", read, every=0.5) == "room at 2"
    assert shared_reading("room", read, every=0.5) == "room at 2"
    assert len(reads) == 2


def test_a_poll_during_a_reading_gets_the_last_one_and_does_not_read(monkeypatch):
    now = [1_800_000_000.1]
    monkeypatch.setattr("time.time", lambda: now[0])
    assert shared_reading("tv", lambda: "level 3", every=0.5) == "level 3"
    now[0] += 0.5
    answers = []

    def slow_read():
        # Another screen polls while this one reads the new period: it must not read as well.
        answers.append(shared_reading("tv", lambda: "read twice", every=0.5))
        return "level 4"

    assert shared_reading("tv", slow_read, every=0.5) == "level 4"
    assert answers == ["level 3"]
    assert shared_reading("tv", lambda: "read again", every=0.5) == "level 4"


def test_the_first_reading_ever_is_read_by_whoever_asks(monkeypatch):
    monkeypatch.setattr("time.time", lambda: 1_800_000_000.1)
    cache.clear()
    assert shared_reading("board", lambda: ["Eva"], every=2) == ["Eva"]
