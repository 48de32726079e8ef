"""Dealers' shifts, assignments and pushes (DLR-1, DLR-2), at the service level."""

from unittest import mock

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.selectors import venue_get
from cashgame.services.tables import table_close
from dealers.models import Assignment, Push, PushStatus, Rotation, Shift
from dealers.selectors import cash_key
from dealers.services.rotation import rotation_settle
from dealers.services.shifts import dealer_send, shift_clock_in, shift_clock_out
from tests.dealers.conftest import at

pytestmark = pytest.mark.django_db


def seated() -> dict[str, int]:
    return {
        a.dealer.name: a.cash_table.number
        for a in Assignment.objects.filter(until__isnull=True).select_related("dealer", "cash_table")
    }


def test_clocked_in_dealers_take_the_open_tables_at_once_and_it_is_audited__DLR_1(floor, tables, dealers):
    for minute, name in enumerate(["Eva", "Jana", "Marek", "Peter"]):
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(minute))
    assert seated() == {"Eva": 1, "Jana": 2, "Marek": 3}
    records = AuditRecord.objects.filter(action__startswith="dealer.").order_by("pk")
    assert [(r.action, r.actor_name) for r in records if r.action == "dealer.clock_in"] == [
        ("dealer.clock_in", "floor1")
    ] * 4
    assert [(r.before["table"], r.after["table"]) for r in records if r.action == "dealer.push"] == [
        (None, 1),
        (None, 2),
        (None, 3),
    ]


def test_clock_in_twice_is_refused_and_nothing_written__DLR_1(floor, tables, dealers):
    shift_clock_in(actor=floor, dealer=dealers["Eva"], now=at(0))
    audits = AuditRecord.objects.count()
    with pytest.raises(DomainError) as refused:
        shift_clock_in(actor=floor, dealer=dealers["Eva"], now=at(1))
    assert (refused.value.code, refused.value.rule) == ("dealer_clocked_in", "DLR-1")
    assert (Shift.objects.count(), AuditRecord.objects.count()) == (1, audits)


def test_clock_out_frees_the_table_for_a_free_dealer__DLR_1(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek", "Peter"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    shift_clock_out(actor=floor, dealer=dealers["Jana"], now=at(10))
    assert seated() == {"Eva": 1, "Peter": 2, "Marek": 3}
    jana = Shift.objects.get(dealer=dealers["Jana"])
    assert jana.clocked_out_at == at(10)
    assert Assignment.objects.get(dealer=dealers["Jana"]).until == at(10)


def test_each_push_is_carried_out_once_at_its_time__DLR_2(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek", "Peter"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    planned = sorted(
        (p.dealer.name, p.kind, p.cash_table.number if p.cash_table else None)
        for p in Push.objects.filter(status=PushStatus.PENDING)
    )
    # At 20:30 Peter (rested) comes in, each dealer moves one table on, Marek goes free.
    assert planned == [("Eva", "deal", 2), ("Jana", "deal", 3), ("Marek", "free", None), ("Peter", "deal", 1)]
    assert set(Push.objects.filter(status=PushStatus.PENDING).values_list("due_at", flat=True)) == {at(30)}
    assert rotation_settle(now=at(29))["pushes"] == 0
    assert rotation_settle(now=at(30))["pushes"] == 4
    assert seated() == {"Peter": 1, "Eva": 2, "Jana": 3}
    assert rotation_settle(now=at(30))["pushes"] == 0  # a duplicated message finds nothing due
    done = AuditRecord.objects.filter(action="dealer.push", at=at(30))
    assert sorted(done.values_list("object_id", flat=True)) == sorted(
        str(pk)
        for pk in Push.objects.filter(due_at=at(30), status=PushStatus.DONE).values_list("pk", flat=True)
    )
    assert done.count() == 4  # three to tables, Marek to the free dealers


def test_a_late_worker_carries_out_each_round_at_its_own_time__DLR_2(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek", "Peter"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    result = rotation_settle(now=at(65))  # the 20:30 and 21:00 pushes were both missed
    assert result["rounds"] == 2
    assert sorted(
        Push.objects.filter(status=PushStatus.DONE).values_list("due_at", flat=True).distinct()
    ) == [
        at(0),
        at(30),
        at(60),
    ]
    assert {a.since for a in Assignment.objects.filter(until__isnull=True)} == {at(60)}


def test_push_to_a_dealer_on_break_or_clocked_out_is_refused__DLR_2(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    rotation_settle(now=at(30))
    rotation_settle(now=at(60))
    rotation_settle(now=at(90))  # short of dealers: all three break at 21:30
    assert Assignment.objects.filter(kind="break", until=at(105)).count() == 3
    before = (Assignment.objects.count(), AuditRecord.objects.count())
    with pytest.raises(DomainError) as on_break:
        dealer_send(actor=floor, dealer=dealers["Eva"], table_key=cash_key(tables[0].pk), now=at(95))
    assert (on_break.value.code, on_break.value.rule) == ("dealer_on_break", "DLR-2")
    with pytest.raises(DomainError) as clocked_out:
        dealer_send(actor=floor, dealer=dealers["Zuzana"], table_key=cash_key(tables[0].pk), now=at(95))
    assert (clocked_out.value.code, clocked_out.value.rule) == ("dealer_not_clocked_in", "DLR-2")
    assert (Assignment.objects.count(), AuditRecord.objects.count()) == before


def test_sending_a_dealer_by_hand_relieves_the_one_there__DLR_2(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek", "Peter"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    dealer_send(actor=floor, dealer=dealers["Peter"], table_key=cash_key(tables[1].pk), now=at(5))
    assert seated() == {"Eva": 1, "Peter": 2, "Marek": 3}
    record = AuditRecord.objects.get(action="dealer.send")
    assert (record.actor_name, record.before["table"], record.after["table"]) == ("floor1", None, 2)


def test_a_closed_table_frees_its_dealer_at_the_next_reconcile__DLR_2(floor, tables, dealers):
    for name in ["Eva", "Jana", "Marek"]:
        shift_clock_in(actor=floor, dealer=dealers[name], now=at(0))
    table_close(actor=floor, table=tables[2], now=at(7))
    # One plan for the room without table 3, one after its dealer was freed at once.
    assert rotation_settle(now=at(8)) == {"rounds": 1, "pushes": 1, "plans": 2}
    assert seated() == {"Eva": 1, "Jana": 2}
    assert rotation_settle(now=at(9))["plans"] == 0  # nothing changed since


def test_short_of_dealers_the_plan_names_the_tables_without_a_dealer__DLR_2(floor, tables, dealers):
    shift_clock_in(actor=floor, dealer=dealers["Eva"], now=at(0))
    gaps = Rotation.objects.get().gaps
    assert [(g["table"], g["kind"]) for g in gaps][:2] == [("Table 2", "no_dealer"), ("Table 3", "no_dealer")]


def test_the_next_push_is_sent_with_its_eta_after_commit__DLR_2(
    floor, tables, dealers, django_capture_on_commit_callbacks
):
    with mock.patch("dealers.tasks.push_due.apply_async") as send:
        for name in ["Eva", "Jana", "Marek", "Peter"]:
            with django_capture_on_commit_callbacks(execute=True):
                shift_clock_in(actor=floor, dealer=dealers[name], now=at(10))
        with django_capture_on_commit_callbacks(execute=True):
            rotation_settle(now=at(11))  # each replan keeps 20:30: its message is sent once
    assert send.call_args_list == [
        mock.call((), {"due": at(30).isoformat(), "venue_id": venue_get().pk}, eta=at(30))
    ]
