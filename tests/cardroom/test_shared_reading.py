"""cardroom.screens.shared_reading: what many screens poll is read once a period for all of
them, and polls that arrive while it is being read get the last reading instead of reading too."""

from django.core.cache import cache

from cardroom.screens import shared_reading


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


def test_a_kept_reading_is_read_by_the_worker_unless_none_answers_or_staff_changed_the_room(monkeypatch):
    """cardroom.screens.kept_reading: polls get the last reading and ask the worker, once per
    period, for a new one; a request reads itself only when there is none, when it is four
    periods old, or when staff changed the room after it began."""
    from cardroom.screens import kept_reading, reading_keep, staff_changed_room

    now = [1_800_000_000.1]
    monkeypatch.setattr("time.time", lambda: now[0])
    reads, asked = [], []

    def read():
        reads.append(now[0])
        return f"room {len(reads)}"

    def poll():
        return kept_reading("room", read, every=0.5, ask_worker=lambda: asked.append(now[0]))

    assert [poll(), poll()] == ["room 1", "room 1"]  # none yet: the first poll read it
    now[0] += 0.5
    assert [poll(), poll(), poll()] == ["room 1"] * 3
    assert asked == [now[0]]  # due: the worker was asked once
    assert reading_keep("room", read, every=0.5) == "room 2"  # the worker's task
    assert poll() == "room 2"
    now[0] += 0.6
    assert poll() == "room 2" and len(asked) == 2  # asked again; this worker never answers
    now[0] += 1.5  # 2.1 s after the last reading began: more than four periods
    assert poll() == "room 3"
    now[0] += 0.1
    staff_changed_room()
    now[0] += 0.1
    assert [poll(), poll()] == ["room 4", "room 4"]
    assert len(reads) == 4
