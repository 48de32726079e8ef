"""Money under faults (CAG-1 to CAG-4, CAG-6): a real gunicorn, impatient clients, killed web
workers.

Eight client threads post cash-game buy-ins, top-ups and cash-outs to the cage's one door,
`POST /api/cashier/transactions/`, of a real gunicorn (3 workers x 2 threads, production
settings) on this test's PostgreSQL database. Each player at tables 1-4 follows a script (a
buy-in at his seat, top-ups with the dealer's count, for most a cash-out of at most what he
brought), sent step by step; the players seated at tables 5 and 6 before the storm only cash out,
and ask more than their table holds in all, so the last cash-outs there are refused (CAG-1), many
right at the edge while their retries race. A third of the attempts give up after a few
milliseconds (the client's time-out aborts the request, the server carries on), every key is
sent one to three times by different threads, often at the same moment or after its player has
moved on (a top-up repeated after the cash-out), and every attempt that got no answer is sent
again with the same key and body until it gets one. Meanwhile web workers are killed with
SIGKILL: twice in the middle of their database transactions (the test holds the receipt
counter's row lock, so every request in flight has written its session, posting and audit record
and waits for its receipt number; the worker with the most such requests is killed) and once at
a random moment. gunicorn starts new workers.

Afterwards the ledger and the games' records must be exact: every posting and the whole ledger
sum to zero; every key made exactly one transaction, one posting, one audit record and one
request record (or none, when every answer it got was a refusal), and every answer for a key is
that transaction; every drawer holds its float plus its cash movements (also as the API reports
it); every session holds what its receipts say; receipt numbers have no gaps; and the books
check agrees, in this process and as `manage.py check_books` in its own.
"""

import http.client
import json
import os
import random
import signal
import threading
from collections import Counter

import pytest
from django.db.models import Count, Sum
from rest_framework.authtoken.models import Token

from cardroom.models import AuditRecord, IdempotentRequest
from cardroom.roles import Role
from cardroom.selectors import venue_get
from cashgame.models import PlayerSession
from cashgame.services.sessions import session_buy_in
from cashier.models import AccountKind, CashierTransaction, Entry, Posting, ReceiptCounter
from cashier.selectors import account_amount, drawer_expected, ledger_total, unbalanced_postings
from cashier.services import shift_open
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory, cage_stock
from tests.faults.cashier_clients import Clients, Step, kill_mid_transaction, request, wait_until
from tests.faults.processes import check_books, children, start_gunicorn, stop, wait_for_children

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WEB_WORKERS = 3
CLIENTS = 8
DESKS = 4
FLOAT_CENTS = 1_000_000
SCRIPT_TABLES = [1, 2, 3, 4]  # NLHE 1/2: buy-in 100.00 to 300.00 EUR, half of the minimum 50.00
SCRIPT_SEATS = 9
PAYOUT_TABLES = [5, 6]
PAYOUT_BUY_IN_CENTS = 20_000  # nine players each: 1,800.00 EUR on each payout table
CARD = 0.2  # the share of buy-ins and top-ups paid by card (card clearing, never the drawer)


def seat_payout_tables(desk: dict, tables: dict) -> dict[int, int]:
    """Before the storm: nine players at each payout table with 200.00 EUR each, through the
    game's own service. Returns player id -> table id."""
    seated = {}
    for number in PAYOUT_TABLES:
        for seat in range(1, SCRIPT_SEATS + 1):
            player = PlayerFactory(id_verified_at="2026-01-01T00:00:00Z")
            session_buy_in(
                actor=desk["user"],
                shift=desk["shift"],
                table=tables[number],
                player=player,
                seat=seat,
                amount_cents=PAYOUT_BUY_IN_CENTS,
                idempotency_key=f"fault-seed-{number}-{seat}",
            )
            seated[player.pk] = tables[number].pk
    return seated


def plan_steps(rng: random.Random, desks: list[dict], tables: dict, payout_players: dict) -> dict[str, Step]:
    """Every request of the storm: key -> Step. A scripted player's cash-out never exceeds what
    he brought, so it is never refused however the players interleave; a payout table's nine
    cash-outs ask 1,845.00 EUR or more of its 1,800.00, so at least one is refused, and chips
    only leave a payout table: a refused cash-out stays refused whenever it is retried."""
    steps: dict[str, Step] = {}

    def add(player: int, index: int, data: dict) -> None:
        desk = rng.choice(desks)
        key = f"fault-{len(steps):05d}"
        data = {**data, "shift": desk["shift"].pk, "player": player}
        steps[key] = Step(key=key, player=player, index=index, token=desk["token"], data=data)

    def method() -> str:
        return "card" if rng.random() < CARD else "cash"

    for number in SCRIPT_TABLES:
        table = tables[number].pk
        for seat in range(1, SCRIPT_SEATS + 1):
            player = PlayerFactory(id_verified_at="2026-01-01T00:00:00Z").pk
            brought = rng.randint(20, 60) * 500
            script = [
                {
                    "kind": "cash_buy_in",
                    "table": table,
                    "seat": seat,
                    "amount_cents": brought,
                    "method": method(),
                }
            ]
            for _ in range(rng.choice([0, 1, 1, 2, 3])):
                amount = rng.randint(6, 40) * 500  # with 20.00-60.00 counted: 50.00 to 260.00 in all
                script.append(
                    {
                        "kind": "top_up",
                        "table": table,
                        "amount_cents": amount,
                        "chips_on_table_cents": rng.randint(4, 12) * 500,
                        "method": method(),
                    }
                )
                brought += amount
            if rng.random() < 0.6:
                script.append(
                    {"kind": "cash_out", "table": table, "amount_cents": rng.randint(1, brought // 500) * 500}
                )
            for index, data in enumerate(script):
                add(player, index, data)
    for player, table in payout_players.items():
        add(player, 0, {"kind": "cash_out", "table": table, "amount_cents": rng.randint(41, 60) * 500})
    return steps


def probe_replays(port: int, steps: dict[str, Step], answers: dict) -> None:
    """After the storm: a repeat answers 200 with the first result, a different amount under the
    same key is a 409, for a buy-in, a top-up and a cash-out (whose session has ended)."""
    for kind in ("cash_buy_in", "top_up", "cash_out"):
        key = next(k for k in sorted(steps) if steps[k].data["kind"] == kind and answers[k][0][0] == "done")
        step = steps[key]
        status, text, replayed = request(port, step)
        body = json.loads(text)
        assert (status, replayed, body["id"], body["receipt_number"]) == (200, "true", *answers[key][0][1:])
        changed = {**step.data, "amount_cents": step.data["amount_cents"] + 100}
        status, text, _replayed = request(port, step, data=changed)
        body = json.loads(text)
        assert (status, body["code"], body["rule"]) == (409, "idempotency_key_reused", "CAG-2"), key


def drawers_by_api(port: int, desks: list[dict]) -> dict[int, int]:
    drawers = {}
    for desk in desks:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(
            "GET",
            f"/api/cashier/shifts/{desk['shift'].pk}/",
            headers={"Authorization": f"Token {desk['token']}"},
        )
        drawers[desk["shift"].pk] = json.loads(conn.getresponse().read())["drawer_now_cents"]
        conn.close()
    return drawers


@pytest.mark.long
def test_killed_web_workers_and_impatient_clients_lose_no_money__CAG_1_CAG_2_CAG_3_CAG_4_CAG_6(tmp_path):
    ReceiptCounter.objects.get_or_create(venue=venue_get())
    desks = []
    for number in range(DESKS):
        cashier = make_staff(f"fault-cashier-{number}", Role.CASHIER)
        shift = shift_open(actor=cashier, opening_float_cents=FLOAT_CENTS)
        desks.append({"token": Token.objects.create(user=cashier).key, "shift": shift, "user": cashier})
    cage_stock(desks[0]["user"])  # the cage's chips, which follow the cash (CHP-2)
    game = make_game()
    tables = {number: make_table(game, number) for number in SCRIPT_TABLES + PAYOUT_TABLES}
    payout_players = seat_payout_tables(desks[0], tables)
    seeds = set(CashierTransaction.objects.values_list("idempotency_key", flat=True))
    setup_postings = set(Posting.objects.values_list("pk", flat=True))
    steps = plan_steps(random.Random(41), desks, tables, payout_players)

    server, port = start_gunicorn(tmp_path / "gunicorn.log", workers=WEB_WORKERS, threads=2)
    kills = []
    try:
        clients = Clients(port, steps, seed=42)
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
        probe_replays(port, steps, clients.answers)
        drawers_api = drawers_by_api(port, desks)
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

    # CAG-2: one key, one effect; every answer for a key is that same effect. Only a payout
    # table's cash-out may be refused, and only for want of chips.
    everything = {t.idempotency_key: t for t in CashierTransaction.objects.all()}
    transactions = {key: t for key, t in everything.items() if key not in seeds}
    assert set(transactions) <= set(steps)
    assert set(clients.answers) == set(steps)
    for key, answers in clients.answers.items():
        step, record = steps[key], transactions.get(key)
        if record is None:
            assert set(answers) == {("refused", "insufficient_balance")}, (key, answers)
            assert step.player in payout_players, (key, step.data)
            continue
        assert set(answers) == {("done", record.pk, record.receipt_number)}, (key, answers)
        data = step.data
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
            data["amount_cents"],
            data.get("method", "cash"),
            f"table:{data['table']}",
        )
    refused = [key for key, answers in clients.answers.items() if answers[0][0] == "refused"]
    assert len(refused) >= len(PAYOUT_TABLES), refused  # at least one at each payout table
    assert set(IdempotentRequest.objects.values_list("key", flat=True)) == set(everything)
    new_postings = set(Posting.objects.values_list("pk", flat=True)) - setup_postings
    assert sorted(new_postings) == sorted(t.posting_id for t in transactions.values())
    audits = Counter(
        AuditRecord.objects.filter(action__startswith="cashier.", object_type="cashier.posting").values_list(
            "object_id", flat=True
        )
    )
    assert audits == Counter(str(t.posting_id) for t in everything.values())
    assert not CashierTransaction.objects.values("posting").annotate(n=Count("pk")).filter(n__gt=1).exists()

    # CAG-6: every session holds what its receipts say, and ends exactly when it was cashed out.
    for player in {step.player for step in steps.values()}:
        mine = [t for t in everything.values() if t.player_id == player]
        session = PlayerSession.objects.get(player_id=player)
        paid_out = [t.amount_cents for t in mine if t.kind == "cash_out"]
        assert (
            session.buy_in_cents,
            session.top_up_cents,
            session.ended_at is not None,
            session.cash_out_cents if paid_out else None,
        ) == (
            sum(t.amount_cents for t in mine if t.kind == "cash_buy_in"),
            sum(t.amount_cents for t in mine if t.kind == "top_up"),
            bool(paid_out),
            paid_out[0] if paid_out else None,
        ), player

    # CAG-3: every drawer is its float plus its cash in and out, in the ledger and in the API.
    for desk in desks:
        mine = [t for t in everything.values() if t.shift_id == desk["shift"].pk and t.method == "cash"]
        cash_in = sum(t.amount_cents for t in mine if t.kind != "cash_out")
        cash_out = sum(t.amount_cents for t in mine if t.kind == "cash_out")
        drawer_entries = Entry.objects.filter(account=desk["shift"].drawer).aggregate(
            total=Sum("amount_cents")
        )
        assert (
            drawer_expected(shift=desk["shift"])
            == drawer_entries["total"]
            == FLOAT_CENTS + cash_in - cash_out
        )
        assert drawers_api[desk["shift"].pk] == drawer_entries["total"]
    for table in tables.values():
        moves = [t for t in everything.values() if t.reference == table.reference]
        held = sum(t.amount_cents if t.kind != "cash_out" else -t.amount_cents for t in moves)
        assert account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference) == held >= 0
    card = sum(t.amount_cents for t in everything.values() if t.method == "card")
    assert account_amount(kind=AccountKind.CARD_CLEARING) == card

    # CAG-4: receipt numbers 1..n without a gap, and the counter stands at n.
    numbers = sorted(t.receipt_number for t in everything.values())
    assert numbers == list(range(1, len(everything) + 1))
    assert ReceiptCounter.objects.get().last_number == len(everything)

    # The books agree, here and for an operator running the check in a process of its own.
    assert books_problems() == []
    checked = check_books()
    assert checked.returncode == 0, checked.stdout + checked.stderr
