"""Money under faults (CAG-1 to CAG-4): a real gunicorn, impatient clients, killed web workers.

Eight client threads post cash-game buy-ins, top-ups and cash-outs to the cashier API of a real
gunicorn (3 workers x 2 threads, production settings) on this test's PostgreSQL database. A
third of the attempts give up after a few milliseconds (the client's time-out aborts the
request, the server carries on), every key is sent one to three times by different threads,
often at the same moment, and every attempt that got no answer is sent again with the same key
and body until it gets one. Meanwhile web workers are killed with SIGKILL: twice in the middle of their
database transactions (the test holds the receipt counter's row lock, so every request in
flight has written its posting and waits for its receipt number; the worker with the most such
requests is killed) and once at a random moment. gunicorn starts new workers.

Afterwards the ledger must be exact: every posting and the whole ledger sum to zero, every key
has made exactly one transaction with one posting and one audit record (or none, when every
answer it got was a refusal), every answer for a key is the same transaction, every drawer
holds its float plus its cash movements (also as the API reports it), and receipt numbers have
no gaps.
"""

import http.client
import json
import os
import random
import signal
import threading
import time
from collections import Counter, defaultdict
from decimal import Decimal

import pytest
from django.db import connections, transaction
from django.db.models import Count, Sum
from rest_framework.authtoken.models import Token

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.roles import Role
from cardroom.selectors import venue_get
from cashier.models import AccountKind, CashierTransaction, Entry, Posting, ReceiptCounter, Shift
from cashier.selectors import account_amount, drawer_expected, ledger_total, unbalanced_postings
from cashier.services import cash_buy_in, cash_out, shift_open
from players.models import Player
from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tests.faults.processes import (
    children,
    database_client_ports,
    sessions_waiting_on,
    start_gunicorn,
    stop,
    wait_for_children,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PATH = "/api/cashier/transactions/"
WEB_WORKERS = 3
CLIENTS = 8
DESKS = 4
KEYS = 200
FLOAT_CENTS = 1_000_000
BUY_IN_TABLE = "table:1"
PAYOUT_TABLES = ["table:2", "table:3"]
# The plan's cash-outs ask 2,980.00 and 3,895.00 EUR of tables 2 and 3, which hold 2,500.00 EUR
# each: both run dry, so the last cash-outs are refused (CAG-1), many right at the edge while
# their retries race.
PAYOUT_TABLE_CHIPS = 250_000
IMPATIENT = 0.3  # the share of attempts whose client gives up after 5-150 ms
MAX_ATTEMPTS = 60


def plan_requests(rng: random.Random, desks: list[dict], players: list[int]) -> dict[str, dict]:
    """KEYS requests: key -> the desk's token and the JSON body, fixed for every retry.

    Buy-ins and top-ups go to BUY_IN_TABLE, cash-outs come from the PAYOUT_TABLES, so during
    the storm the chips of a payout table only ever go down: a cash-out refused for want of
    chips can never succeed later, and a key that was refused and also made a transaction was
    refused after its transaction committed, which CAG-2 forbids.
    """
    plans = {}
    for n in range(KEYS):
        desk = rng.choice(desks)
        kind = rng.choice(["cash_buy_in", "cash_buy_in", "top_up", "cash_out", "cash_out"])
        body = {
            "kind": kind,
            "shift": desk["shift"],
            "player": rng.choice(players),
            "amount": f"{rng.randint(1, 40) * 5}.00",
            "reference": rng.choice(PAYOUT_TABLES) if kind == "cash_out" else BUY_IN_TABLE,
        }
        if kind != "cash_out" and rng.random() < 0.2:
            body["method"] = "card"  # card money goes to card clearing, never into the drawer
        plans[f"fault-{n:05d}"] = {"token": desk["token"], "body": json.dumps(body), "data": body}
    return plans


class Clients:
    """The cashiers' clients: each send of a key retries (same key, same body) until answered."""

    def __init__(self, port: int, plans: dict[str, dict], seed: int):
        self.port = port
        self.plans = plans
        rng = random.Random(seed)
        sends = [key for key in plans for _ in range(rng.choice([1, 1, 2, 3]))]
        rng.shuffle(sends)
        self.queue = sends
        self.total = len(sends)
        self.done = 0
        self.lock = threading.Lock()
        self.answers: dict[str, list[tuple]] = defaultdict(list)
        self.stats = Counter()
        self.unexpected: list[str] = []

    def attempt(self, key: str, rng: random.Random) -> tuple | None:
        plan = self.plans[key]
        impatient = rng.random() < IMPATIENT
        timeout = rng.uniform(0.005, 0.15) if impatient else 30.0
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Token {plan['token']}",
            "Idempotency-Key": key,
        }
        try:
            conn.request("POST", PATH, body=plan["body"], headers=headers)
            response = conn.getresponse()
            status, text = response.status, response.read()
            replayed = response.getheader("Idempotent-Replayed")
        except TimeoutError:
            self.count("client_timeouts")
            return None
        except (OSError, http.client.HTTPException):
            # The worker died under the request: reset, or closed without an answer.
            self.count("connections_dropped")
            return None
        finally:
            conn.close()
        body = json.loads(text) if text.startswith(b"{") else {}
        if status == 201:
            self.count("replayed" if replayed == "true" else "created")
            return ("created", body["id"], body["receipt_number"])
        if status in (400, 403, 409) and body.get("code"):
            self.count(f"refused:{body['code']}")
            return ("refused", body["code"])
        with self.lock:
            self.unexpected.append(f"{key}: {status} {text[:300]!r}")
        return ("unexpected", status)

    def count(self, name: str) -> None:
        with self.lock:
            self.stats[name] += 1

    def run(self, seed: int) -> None:
        rng = random.Random(seed)
        while True:
            with self.lock:
                if not self.queue:
                    return
                key = self.queue.pop()
            for _ in range(MAX_ATTEMPTS):
                answer = self.attempt(key, rng)
                if answer is not None:
                    break
                time.sleep(rng.uniform(0.0, 0.05))
            else:
                answer = ("no answer", MAX_ATTEMPTS)
            with self.lock:
                self.answers[key].append(answer)
                self.done += 1


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def kill_mid_transaction(master: int) -> tuple[int, int]:
    """Hold the receipt counter's row lock until requests queue up behind it (each has written
    its posting, entries and audit record in an open transaction), SIGKILL the web worker with
    the most of them, then let the rest go. Returns (victim, its transactions in flight)."""
    with transaction.atomic():
        ReceiptCounter.objects.select_for_update().get()
        started = time.monotonic()
        while True:
            waiting = sessions_waiting_on(ReceiptCounter._meta.db_table)
            in_flight = {pid: database_client_ports(pid) & waiting for pid in children(master)}
            victim = max(in_flight, key=lambda pid: len(in_flight[pid]))
            # Two in flight in one worker is the usual case; after 5 s one will do.
            if len(in_flight[victim]) >= 2 or (in_flight[victim] and time.monotonic() - started > 5):
                break
            if time.monotonic() - started > 20:
                raise AssertionError("no request reached the receipt counter")
            time.sleep(0.02)
        os.kill(victim, signal.SIGKILL)
        return victim, len(in_flight[victim])


def test_killed_web_workers_and_impatient_clients_lose_no_money__CAG_1_CAG_2_CAG_3_CAG_4(tmp_path):
    venue = venue_get()
    ReceiptCounter.objects.get_or_create(venue=venue)
    desks = []
    for number in range(DESKS):
        cashier = make_staff(f"fault-cashier-{number}", Role.CASHIER)
        shift = shift_open(actor=cashier, opening_float_cents=FLOAT_CENTS)
        desks.append({"token": Token.objects.create(user=cashier).key, "shift": shift.pk, "user": cashier})
    players = [PlayerFactory(id_verified_at="2026-01-01T00:00:00Z").pk for _ in range(12)]
    for number, table in enumerate(PAYOUT_TABLES):
        cash_buy_in(
            actor=desks[0]["user"],
            shift=Shift.objects.get(pk=desks[0]["shift"]),
            player=Player.objects.get(pk=players[number]),
            amount_cents=PAYOUT_TABLE_CHIPS,
            reference=table,
            idempotency_key=f"fault-seed-{number}",
        )
    setup_postings = set(Posting.objects.values_list("pk", flat=True))
    plans = plan_requests(random.Random(41), desks, players)

    server, port = start_gunicorn(tmp_path / "gunicorn.log", workers=WEB_WORKERS, threads=2)
    kills = []
    try:
        clients = Clients(port, plans, seed=42)
        threads = [threading.Thread(target=clients.run, args=(100 + i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        rng = random.Random(43)
        for share, how in ((0.2, "mid-transaction"), (0.5, "random moment"), (0.75, "mid-transaction")):
            wait_until(lambda s=share: clients.done >= s * clients.total, 120, f"{share:.0%} of the sends")
            workers = children(server.pid)
            if how == "mid-transaction":
                victim, in_flight = kill_mid_transaction(server.pid)
            else:
                victim, in_flight = rng.choice(sorted(workers)), None
                os.kill(victim, signal.SIGKILL)
            kills.append((how, victim, in_flight))
            wait_for_children(server.pid, WEB_WORKERS, other_than={victim})  # gunicorn respawned it
        for thread in threads:
            thread.join(timeout=180)
        assert not any(thread.is_alive() for thread in threads)

        # After the storm: a replay answers with the first result, a different body is a 409.
        created = {key: answers for key, answers in clients.answers.items() if answers[0][0] == "created"}
        probe = sorted(created)[:3]
        for key in probe:
            plan = plans[key]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            headers = {
                "Content-Type": "application/json",
                "Authorization": f"Token {plan['token']}",
                "Idempotency-Key": key,
            }
            conn.request("POST", PATH, body=plan["body"], headers=headers)
            response = conn.getresponse()
            replay = json.loads(response.read())
            assert (response.status, response.getheader("Idempotent-Replayed")) == (201, "true")
            assert (replay["id"], replay["receipt_number"]) == created[key][0][1:]
            changed = {**plan["data"], "amount": str(Decimal(plan["data"]["amount"]) + 1)}
            conn.request("POST", PATH, body=json.dumps(changed), headers=headers)
            response = conn.getresponse()
            conflict = json.loads(response.read())
            assert (response.status, conflict["code"], conflict["rule"]) == (
                409,
                "idempotency_key_reused",
                "CAG-2",
            )
            conn.close()
        drawers_by_api = {}
        for desk in desks:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request(
                "GET",
                f"/api/cashier/shifts/{desk['shift']}/",
                headers={"Authorization": f"Token {desk['token']}"},
            )
            drawers_by_api[desk["shift"]] = json.loads(conn.getresponse().read())["drawer_now"]
            conn.close()
    finally:
        stop(server)

    # The faults happened: workers died with transactions open, clients saw it and gave up early.
    assert [how for how, _victim, _n in kills] == ["mid-transaction", "random moment", "mid-transaction"]
    assert all(n >= 1 for how, _victim, n in kills if how == "mid-transaction"), kills
    assert clients.stats["connections_dropped"] >= 1, clients.stats
    assert clients.stats["client_timeouts"] >= 10, clients.stats
    assert clients.stats["replayed"] >= 20, clients.stats
    assert clients.unexpected == []

    # CAG-1: every posting balances, and so does the whole ledger.
    assert ledger_total() == 0
    assert list(unbalanced_postings()) == []

    # CAG-2: one key, one effect; every answer for a key is that same effect.
    everything = {t.idempotency_key: t for t in CashierTransaction.objects.all()}
    seeds = {f"fault-seed-{number}" for number in range(len(PAYOUT_TABLES))}
    assert set(everything) - seeds <= set(plans)
    transactions = {key: t for key, t in everything.items() if key not in seeds}
    assert set(clients.answers) == set(plans)
    for key, answers in clients.answers.items():
        record = transactions.get(key)
        if record is None:
            assert {a[0] for a in answers} == {"refused"}, (key, answers)
            continue
        assert set(answers) == {("created", record.pk, record.receipt_number)}, (key, answers)
        data = plans[key]["data"]
        assert (
            record.kind,
            record.shift_id,
            record.player_id,
            record.amount_cents,
            record.method,
            record.reference,
        ) == (
            data["kind"],
            data["shift"],
            data["player"],
            int(Decimal(data["amount"]) * 100),
            data.get("method", "cash"),
            data["reference"],
        )
    refusals = Counter(a[1] for answers in clients.answers.values() for a in answers if a[0] == "refused")
    assert set(refusals) <= {"insufficient_balance"}, refusals
    new_postings = set(Posting.objects.values_list("pk", flat=True)) - setup_postings
    assert sorted(new_postings) == sorted(t.posting_id for t in transactions.values())
    assert refusals["insufficient_balance"] >= 1, refusals
    audited = AuditRecord.objects.filter(action__startswith="cashier.", after__has_key="idempotency_key")
    audits = Counter(
        key for key in audited.values_list("after__idempotency_key", flat=True) if key not in seeds
    )
    assert audits == Counter(set(transactions))
    assert not CashierTransaction.objects.values("posting").annotate(n=Count("pk")).filter(n__gt=1).exists()

    # CAG-3: every drawer is its float plus its cash in and out, in the ledger and in the API.
    for desk in desks:
        mine = [t for t in everything.values() if t.shift_id == desk["shift"] and t.method == "cash"]
        cash_in = sum(t.amount_cents for t in mine if t.kind != "cash_out")
        cash_out = sum(t.amount_cents for t in mine if t.kind == "cash_out")
        shift = desk["user"].shifts.get()
        drawer_entries = Entry.objects.filter(account=shift.drawer).aggregate(total=Sum("amount_cents"))[
            "total"
        ]
        assert drawer_expected(shift=shift) == drawer_entries == FLOAT_CENTS + cash_in - cash_out
        assert Decimal(drawers_by_api[desk["shift"]]) * 100 == drawer_entries
    for table in [BUY_IN_TABLE, *PAYOUT_TABLES]:
        moves = [t for t in everything.values() if t.reference == table]
        held = sum(t.amount_cents if t.kind != "cash_out" else -t.amount_cents for t in moves)
        assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table) == held >= 0
    card = sum(t.amount_cents for t in everything.values() if t.method == "card")
    assert account_amount(kind=AccountKind.CARD_CLEARING) == card

    # CAG-4: receipt numbers 1..n without a gap, and the counter stands at n.
    numbers = sorted(t.receipt_number for t in everything.values())
    assert numbers == list(range(1, len(everything) + 1))
    assert ReceiptCounter.objects.get().last_number == len(everything)


def test_retry_that_waited_behind_its_first_request_answers_with_its_result__CAG_2(cashier):
    """The race the storm above can hit, made certain: a retry passes the replay check while
    its first request is still running, then waits for the shift's lock. When it gets the lock
    the first request has paid out the table's last chips, so without a second look for the
    key it would answer "insufficient balance" for a cash-out that was paid."""
    shift = shift_open(actor=cashier, opening_float_cents=FLOAT_CENTS)
    player = PlayerFactory(id_verified_at="2026-01-01T00:00:00Z")
    cash_buy_in(
        actor=cashier,
        shift=shift,
        player=player,
        amount_cents=10_000,
        reference="table:9",
        idempotency_key="race-seed",
    )
    answers: list = []

    def cash_out_once() -> None:
        try:
            answers.append(
                cash_out(
                    actor=cashier,
                    shift=shift,
                    player=player,
                    amount_cents=10_000,
                    reference="table:9",
                    idempotency_key="race-cash-out",
                )
            )
        except DomainError as error:
            answers.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=cash_out_once) for _ in range(2)]
    with transaction.atomic():
        Shift.objects.select_for_update().get(pk=shift.pk)  # the cashier's other request holds it
        for thread in threads:
            thread.start()
        wait_until(lambda: len(sessions_waiting_on(Shift._meta.db_table)) == 2, 20, "both requests to wait")
    for thread in threads:
        thread.join(timeout=30)

    assert len(answers) == 2
    assert all(isinstance(answer, CashierTransaction) for answer in answers), answers
    assert len({answer.pk for answer in answers}) == 1
    assert sorted(answer.replayed for answer in answers) == [False, True]
    paid = CashierTransaction.objects.get(idempotency_key="race-cash-out")
    assert (paid.kind, paid.amount_cents) == ("cash_out", 10_000)
    assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner="table:9") == 0
    assert drawer_expected(shift=shift) == FLOAT_CENTS
