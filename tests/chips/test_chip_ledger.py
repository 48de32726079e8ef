"""The chip inventory (CHP-2): a double-entry chip ledger per set, fills and credits, counts."""

from datetime import UTC, datetime

import pytest
from django.db import DatabaseError, connection, transaction

from cardroom.errors import DomainError, PermissionDenied
from cardroom.models import AuditRecord
from chips.models import ChipAccountKind, ChipCount, ChipEntry, ChipPosting, ChipSet, ChipSetKind
from chips.selectors import chip_count_get, chip_inventory_get, chip_posting_get
from chips.services import (
    TableRef,
    cash_chips_sell,
    chip_account_for,
    chip_count_record,
    chips_receive,
    chips_transfer,
    table_credit,
    table_fill,
)

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def cash_set() -> ChipSet:
    return ChipSet.objects.get(kind=ChipSetKind.CASH)


@pytest.fixture
def stocked(cashier, cash_set) -> ChipSet:
    chips_receive(actor=cashier, chip_set=cash_set, chips={500: 1000, 2500: 400}, now=T0)
    chips_transfer(
        actor=cashier, chip_set=cash_set, source=ChipAccountKind.VAULT, target=ChipAccountKind.CAGE,
        chips={500: 300, 2500: 100}, now=T0,
    )  # fmt: skip
    return cash_set


def written() -> tuple[int, int, int, int]:
    return (
        ChipPosting.objects.count(),
        ChipEntry.objects.count(),
        ChipCount.objects.count(),
        AuditRecord.objects.filter(action__startswith="chips.").count(),
    )


def rows(chip_set) -> dict[str, list[int]]:
    inventory = chip_inventory_get(chip_set=chip_set)
    return {str(row["account"]): row["counts"] for row in inventory["rows"] if any(row["counts"])}


def test_default_sets_are_separate_cash_and_tournament__CHP_2() -> None:
    values = {s.kind: [d.value for d in s.denominations.order_by("value")] for s in ChipSet.objects.all()}
    assert values == {
        "cash": [50, 100, 200, 500, 2500, 10000, 50000],
        "tournament": [25, 100, 500, 1000, 5000, 25000],
    }


def test_every_posting_sums_to_zero_per_denomination__CHP_2(cashier, stocked) -> None:
    table = TableRef(key="cash:1", label="Table 1", is_open=True, chip_set=stocked)
    fill = table_fill(
        actor=cashier, table=table, chips={500: 100, 2500: 20}, dealer_name="Eva", floor_name="Marek", now=T0
    )
    table_credit(actor=cashier, table=table, chips={2500: 5}, dealer_name="Eva", floor_name="Marek", now=T0)
    cash_chips_sell(actor=cashier, amount_cents=5_000, table_key="cash:1", table_label="Table 1", now=T0)
    # columns: 0.50, 1, 2, 5, 25, 100, 500 EUR
    assert rows(stocked) == {
        "Vault": [0, 0, 0, 700, 300, 0, 0],
        "Cage": [0, 0, 0, 190, 85, 0, 0],
        "Table 1": [0, 0, 0, 100, 15, 0, 0],
        "In players' hands": [0, 0, 0, 10, 0, 0, 0],
        "Chips in service": [0, 0, 0, 1000, 400, 0, 0],
    }
    for posting in ChipPosting.objects.all():
        by_chip: dict[int, int] = {}
        for entry in posting.entries.all():
            by_chip[entry.denomination_id] = by_chip.get(entry.denomination_id, 0) + entry.quantity
        assert set(by_chip.values()) == {0}
    slip = chip_posting_get(pk=fill.pk)
    assert (slip["total_text"], slip["chips"]) == ("1,000.00 EUR", 120)
    assert ([str(a) for a in slip["sources"]], [str(a) for a in slip["targets"]]) == (["Cage"], ["Table 1"])
    assert (fill.source_kind, fill.target_kind) == ("cage", "tray")
    audit = AuditRecord.objects.get(action="chips.fill", object_id=str(fill.pk))
    assert audit.after == {
        "kind": "fill",
        "source_kind": "cage",
        "target_kind": "tray",
        "reference": "cash:1",
        "chips": {"500": 100, "2500": 20},
    }


def test_fill_to_a_closed_table_refused_and_nothing_written__CHP_2(cashier, stocked) -> None:
    before = written()
    closed = TableRef(key="cash:2", label="Table 2", is_open=False, chip_set=stocked)
    with pytest.raises(DomainError) as refused:
        table_fill(
            actor=cashier, table=closed, chips={500: 10}, dealer_name="Eva", floor_name="Marek", now=T0
        )
    assert (refused.value.code, refused.value.rule) == ("table_closed", "CHP-2")
    assert written() == before


def test_fill_beyond_the_cage_refused__CHP_2(cashier, stocked) -> None:
    before = written()
    table = TableRef(key="cash:1", label="Table 1", is_open=True, chip_set=stocked)
    with pytest.raises(DomainError) as refused:
        table_fill(
            actor=cashier, table=table, chips={500: 301}, dealer_name="Eva", floor_name="Marek", now=T0
        )
    assert (refused.value.code, refused.value.rule) == ("not_enough_chips", "CHP-2")
    assert written() == before


def test_slip_needs_dealer_and_floor__CHP_2(cashier, stocked) -> None:
    before = written()
    table = TableRef(key="cash:1", label="Table 1", is_open=True, chip_set=stocked)
    with pytest.raises(DomainError) as refused:
        table_fill(actor=cashier, table=table, chips={500: 1}, dealer_name="Eva", floor_name=" ", now=T0)
    assert refused.value.code == "slip_unsigned"
    assert written() == before


def test_floor_posts_no_chips__CHP_2_ROL_1(floor, stocked) -> None:
    before = written()
    with pytest.raises(PermissionDenied):
        chips_receive(actor=floor, chip_set=stocked, chips={500: 1}, now=T0)
    assert written() == before


def test_count_reports_each_difference__CHP_2(cashier, stocked) -> None:
    cage = chip_account_for(chip_set=stocked, kind=ChipAccountKind.CAGE)
    counted = {50: 0, 100: 0, 200: 0, 500: 298, 2500: 101, 10000: 0, 50000: 0}
    count = chip_count_record(actor=cashier, account=cage, counted=counted, now=T0)
    report = chip_count_get(pk=count.pk)
    assert [
        (line["chip"].value, line["expected"], line["counted"], line["difference"])
        for line in report["lines"]
    ] == [
        (50, 0, 0, 0),
        (100, 0, 0, 0),
        (200, 0, 0, 0),
        (500, 300, 298, -2),
        (2500, 100, 101, 1),
        (10000, 0, 0, 0),
        (50000, 0, 0, 0),
    ]
    assert [line["difference_worth_text"] for line in report["lines"]][3:5] == ["-10.00 EUR", "25.00 EUR"]
    assert report["differs"] is True
    assert AuditRecord.objects.filter(action="chips.count").count() == 1


def test_count_with_negative_chips_refused_and_nothing_written__CHP_2(cashier, stocked) -> None:
    cage = chip_account_for(chip_set=stocked, kind=ChipAccountKind.CAGE)
    before = written()
    counted = {50: 0, 100: 0, 200: 0, 500: -1, 2500: 100, 10000: 0, 50000: 0}
    with pytest.raises(DomainError) as refused:
        chip_count_record(actor=cashier, account=cage, counted=counted, now=T0)
    assert (refused.value.code, refused.value.rule) == ("negative_count", "CHP-2")
    assert written() == before


def test_cash_and_tournament_chips_never_mix__CHP_2(cashier, stocked) -> None:
    tournament_set = ChipSet.objects.get(kind=ChipSetKind.TOURNAMENT)
    before = written()
    table = TableRef(key="tournament:1", label="Table 1", is_open=True, chip_set=tournament_set)
    with pytest.raises(DomainError) as refused:
        # 2500 is a cash chip: the tournament set has none
        table_fill(actor=cashier, table=table, chips={2500: 1}, dealer_name="Eva", floor_name="Marek", now=T0)
    assert (refused.value.code, refused.value.rule) == ("unknown_chip", "CHP-2")
    assert written() == before


def _fill(cashier, chip_set, chips, key):
    table = TableRef(key="cash:1", label="Table 1", is_open=True, chip_set=chip_set)
    return table_fill(
        actor=cashier,
        table=table,
        chips=chips,
        dealer_name="Eva",
        floor_name="Marek",
        now=T0,
        request_key=key,
    )


def test_a_slip_sent_twice_posts_once_and_a_reused_key_is_refused__CHP_2_CAG_2(cashier, stocked) -> None:
    first = _fill(cashier, stocked, {500: 10}, "slip-form-0001")
    after_first = written()
    assert _fill(cashier, stocked, {500: 10}, "slip-form-0001").pk == first.pk
    assert written() == after_first
    with pytest.raises(DomainError) as reused:
        _fill(cashier, stocked, {500: 20}, "slip-form-0001")
    assert (reused.value.code, reused.value.rule) == ("idempotency_key_reused", "CAG-2")
    assert written() == after_first
    assert rows(stocked)["Table 1"] == [0, 0, 0, 10, 0, 0, 0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=False)
def test_a_slip_sent_twice_at_once_posts_once__CHP_2_CAG_2(cashier) -> None:
    from tests.tournaments.test_registration_concurrency import _race

    cash_set = ChipSet.objects.get(kind=ChipSetKind.CASH)
    chips_receive(actor=cashier, chip_set=cash_set, chips={500: 100}, now=T0)
    chips_transfer(
        actor=cashier, chip_set=cash_set, source=ChipAccountKind.VAULT, target=ChipAccountKind.CAGE,
        chips={500: 100}, now=T0,
    )  # fmt: skip
    results = _race([lambda: _fill(cashier, cash_set, {500: 30}, "slip-race-0001") for _ in range(2)])
    assert [type(result) for result in results] == [ChipPosting, ChipPosting]
    assert results[0].pk == results[1].pk
    assert ChipPosting.objects.filter(kind="fill").count() == 1
    assert rows(cash_set)["Table 1"] == [0, 0, 0, 30, 0, 0, 0]


@pytest.mark.parametrize("table", ["chips_chipposting", "chips_chipentry"])
@pytest.mark.parametrize(
    "statement", ["UPDATE {table} SET id = id WHERE id = %s", "DELETE FROM {table} WHERE id = %s"]
)
def test_chip_postings_and_entries_are_append_only__CHP_2(cashier, stocked, table, statement) -> None:
    """The database refuses to change or remove what the chip ledger wrote (on SQLite too, after
    a migration rebuilt the postings' table)."""
    posting = _fill(cashier, stocked, {500: 10}, "slip-form-0002")
    row = posting.pk if table == "chips_chipposting" else posting.entries.first().pk
    with pytest.raises(DatabaseError) as refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement.format(table=table), [row])
    assert f"{table} is append-only" in str(refused.value)
    assert rows(stocked)["Table 1"] == [0, 0, 0, 10, 0, 0, 0]
