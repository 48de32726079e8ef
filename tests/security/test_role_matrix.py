"""ROL-1, route by route: every URL pattern and API route, with every method its view answers, as
anonymous, floor, cashier, manager and administrator. A route missing from EXPECTED fails the
test, so a new route cannot ship without saying who may use it.

Letters: f floor, c cashier, m manager, a administrator. Allowed roles get an answer that is
neither 401/403 nor a redirect to log-in for permission (and never a 5xx); every other role gets
403.
Anonymous visitors are sent to log-in (pages) or refused (API), except on PUBLIC routes.
"""

import pytest

from tests.security.route_probe import routes

pytestmark = pytest.mark.django_db

PUBLIC = {
    "login",
    "set_language",
    "tv:clock",
    "tv:state",
    "tv:event-seats",
    "board:board",
    "board:rows",
    "api-cashgame-board",
    # Players' phones (WTL-1): the join page and the signed status link need no log-in.
    "wait:join",
    "wait:status",
    "wait:rows",
    "wait:leave",
    "wait:more-time",
    "api-token",
    # The players' public pages (WTL-3: public names only): the room page, its live part, its QR
    # code and each tournament's page.
    "lobby:room",
    "lobby:live",
    "lobby:qr",
    "lobby:tournament",
    # A league's standings (SER-4): on the room's TV and the players' pages, public names only.
    "tv:league",
    # The high-hand promotions' TV screen (LOY-2): public names only.
    "tv:promotions",
    "tv:promotions-rows",
    "lobby:leagues",
    "lobby:league",
    # The rule book: the room's rules are no secret, and the players' pages link them too.
    "rules",
    # The dealer tablet's pages (ROL-2) need its paired cookie, not a log-in: a stranger is sent
    # to the pairing page, staff are refused (403).
    "devices:pair",
    "devices:tablet",
    "devices:tablet-seats",
    "devices:tablet-action",
    # A player's private points page (LOY-1): the signed link is the key, no log-in.
    "loyalty_room:me",
    "notices:service-worker",
    "notices:consent",
    "notices:subscription",
    "notices:withdraw",
}

EXPECTED = {
    "home": {"get": "fcma"},
    "login": {"get": "fcma", "post": "fcma", "put": "fcma"},
    "logout": {"post": "fcma"},
    "set_language": {"get": "fcma"},
    "venue-settings": {"get": "m", "post": "m", "put": "m"},
    "venue-pick": {"get": "fcma", "post": "fcma"},
    "audit-list": {"get": "ma"},
    "rules": {"get": "fcma"},
    "players:list": {"get": "fcm"},
    "players:create": {"get": "fcm", "post": "fcm", "put": "fcm"},
    "players:detail": {"get": "fcm"},
    "players:update": {"get": "fcm", "post": "fcm", "put": "fcm"},
    "players:action": {"post": "fcm"},
    "players:export": {"get": "m"},
    "players:erase": {"get": "m", "post": "m", "put": "m"},
    "players:identity": {"get": "m", "post": "m", "put": "m"},
    "tournaments:list": {"get": "fm"},
    "tournaments:create": {"get": "fm", "post": "fm", "put": "fm"},
    "tournaments:cashier-list": {"get": "c"},
    "tournaments:detail": {"get": "fm"},
    "tournaments:action": {"post": "fm"},
    "tournaments:entries": {"get": "fcm"},
    "tournaments:entry-present": {"post": "fm"},
    "tournaments:rules": {"post": "fm"},
    "tournaments:postpone": {"post": "fm"},
    "tournaments:register": {"get": "c", "post": "c", "put": "c"},
    "tournaments:entry-pay": {"post": "c"},
    # SER-1: the tickets page for the cage, the floor and managers; each action checks its role.
    "tournaments:tickets": {"get": "fcm"},
    "tournaments:ticket-action": {"post": "fcm"},
    "tournaments:seating": {"get": "fm"},
    "tournaments:seating-action": {"post": "fm"},
    "tournaments:button-draw": {"post": "fm"},
    "tournaments:slip-confirm": {"post": "fm"},
    "tournaments:seat-bust": {"post": "fm"},
    "tournaments:levels": {"get": "fm", "post": "fm"},
    "tournaments:colour-up": {"get": "fm", "post": "fm"},
    "tournaments:table-counts": {"get": "fm", "post": "fm"},
    "tournaments:hand-for-hand": {"post": "fm"},
    "tournaments:hand-done": {"post": "fm"},
    "tournaments:bags": {"get": "fm", "post": "fm"},
    "tournaments:flight-end": {"post": "fm"},
    "tournaments:flight-accept": {"post": "m"},
    "tournaments:event": {"get": "fm"},
    "tournaments:event-draw": {"post": "fm"},
    "tournaments:event-seats": {"get": "fm"},
    "tournaments:event-list": {"get": "fm"},
    "tournaments:event-create": {"post": "m"},
    "tournaments:event-flight-add": {"post": "m"},
    "tournaments:event-day-two": {"post": "m"},
    "tournaments:payout-table": {"get": "fm", "post": "fm"},
    "tournaments:bust": {"get": "fm", "post": "fm"},
    "tournaments:bust-undo": {"post": "fm"},
    "tournaments:payouts": {"get": "fm", "post": "fm"},
    "tournaments:payouts-finalise": {"post": "fm"},
    "tournaments:deal-accept": {"post": "fm"},
    "tournaments:structure-list": {"get": "fm"},
    "tournaments:structure-import": {"get": "m", "post": "m", "put": "m"},
    "tournaments:structure-detail": {"get": "fm"},
    "tournaments:structure-new": {"get": "m", "post": "m"},
    "tournaments:structure-edit": {"get": "m", "post": "m"},
    "tournaments:structure-export": {"get": "fm"},
    "tv:clock": {"get": "fcma"},
    "tv:state": {"get": "fcma"},
    "tv:event-seats": {"get": "fcma"},
    "cashier:desk": {"get": "c", "post": "c", "put": "c"},
    "cashier:player-pick": {"get": "c"},
    "cashier:shifts": {"get": "cm"},
    "cashier:shift-open": {"get": "c", "post": "c", "put": "c"},
    "cashier:shift-detail": {"get": "cm"},
    "cashier:shift-close": {"get": "cm", "post": "cm", "put": "cm"},
    "cashier:receipt": {"get": "cm"},
    "cashier:receipt-pdf": {"get": "cm"},
    "cashier:reversal-request": {"post": "cm"},
    "cashier:reversals": {"get": "m"},
    "cashier:reversal-decide": {"post": "m"},
    "cashier:chips": {"get": "cm"},
    "cashier:chip-slip-new": {"get": "c", "post": "c", "put": "c"},
    "cashier:chip-move": {"get": "c", "post": "c", "put": "c"},
    "cashier:chip-count-new": {"get": "c", "post": "c", "put": "c"},
    "cashier:chip-slip": {"get": "fcm"},
    "cashier:chip-slip-pdf": {"get": "fcm"},
    "cashier:chip-count": {"get": "cm"},
    "reports:daily": {"get": "m"},
    "reports:range": {"get": "m"},
    "reports:players": {"get": "m"},
    "reports:aml": {"get": "m"},
    "reports:daily-pdf": {"get": "m"},
    "reports:shift-pdf": {"get": "cm"},
    # The operator's consolidated report (VEN-1): only a manager of two venues or more, which no
    # one-venue role here is (tests/reports/test_venues.py opens it as one).
    "reports:operator": {"get": ""},
    "reports:operator-range": {"get": ""},
    "cashgame:tables": {"get": "fm"},
    "cashgame:table-create": {"get": "m", "post": "m", "put": "m"},
    "cashgame:table": {"get": "fm"},
    "cashgame:table-action": {"post": "fm"},
    "cashgame:seat": {"post": "fm"},
    "cashgame:table-house": {"post": "fm"},
    "cashgame:table-live": {"get": "fm"},
    "cashgame:seat-panel": {"get": "fm"},
    "cashgame:seat-action": {"post": "fm"},
    "floor:room": {"get": "fcm"},
    "floor:live": {"get": "fcm"},
    "dealers:board": {"get": "fm"},
    "dealers:live": {"get": "fm"},
    "dealers:add": {"post": "m"},
    "dealers:clock-in": {"post": "fm"},
    "dealers:clock-out": {"post": "fm"},
    "dealers:send": {"post": "fm"},
    "cashgame:dealer": {"get": "fm"},
    "cashgame:dealer-action": {"post": "fm"},
    "cashgame:seat-state": {"post": "fm"},
    "cashgame:stack": {"post": "fm"},
    "cashgame:move": {"post": "fm"},
    "cashgame:games": {"get": "m"},
    "cashgame:game-create": {"get": "m", "post": "m", "put": "m"},
    "cashgame:game-edit": {"get": "m", "post": "m", "put": "m"},
    "cashgame:cashier": {"get": "c"},
    "cashgame:cashier-action": {"post": "c"},
    "cashgame:share-pay": {"post": "c"},
    "cashgame:drop-counts": {"get": "cm", "post": "cm", "put": "cm"},
    "cashgame:jackpot": {"get": "fm", "post": "fm", "put": "fm"},
    "cashgame:high-hand": {"get": "fm", "post": "fm", "put": "fm"},
    "cashgame:promotions": {"get": "m"},
    "cashgame:promotion-create": {"get": "m", "post": "m", "put": "m"},
    "cashgame:promotion-edit": {"get": "m", "post": "m", "put": "m"},
    "cashgame:waiting": {"get": "fm"},
    "cashgame:waiting-action": {"post": "fm"},
    "cashgame:waiting-entry-action": {"post": "fm"},
    "cashgame:waiting-history": {"get": "fm"},
    "cashgame:rulings": {"get": "fm", "post": "fm", "put": "fm"},
    "cashgame:calculators": {"get": "fcm"},
    "board:board": {"get": "fcma"},
    "devices:list": {"get": "m", "post": "m"},
    "devices:unpair": {"post": "m"},
    "devices:pair": {"get": "fcma", "post": "fcma"},
    "devices:tablet": {"get": ""},
    "devices:tablet-seats": {"get": ""},
    "devices:tablet-action": {"post": ""},
    "board:rows": {"get": "fcma"},
    "wait:join": {"get": "fcma", "post": "fcma"},
    "wait:status": {"get": "fcma"},
    "wait:rows": {"get": "fcma"},
    "wait:leave": {"post": "fcma"},
    "wait:more-time": {"post": "fcma"},
    "lobby:room": {"get": "fcma"},
    "lobby:live": {"get": "fcma"},
    "lobby:qr": {"get": "fcma"},
    "lobby:tournament": {"get": "fcma"},
    "tv:league": {"get": "fcma"},
    "tv:promotions": {"get": "fcma"},
    "tv:promotions-rows": {"get": "fcma"},
    "lobby:leagues": {"get": "fcma"},
    "lobby:league": {"get": "fcma"},
    "leagues:list": {"get": "fcm"},
    "leagues:create": {"get": "m", "post": "m"},
    "leagues:detail": {"get": "fcm"},
    "leagues:edit": {"get": "m", "post": "m"},
    "leagues:tournaments": {"post": "m"},
    "leagues:csv": {"get": "fcm"},
    "leagues:xlsx": {"get": "fcm"},
    "api-token": {"post": "fcma"},
    "api-schema": {"get": "fcma"},
    "api-docs": {"get": "fcma"},
    "api-player-list": {"get": "fcm", "post": "fcm"},
    "api-player-detail": {"get": "fcm", "patch": "fcm"},
    "api-player-verify-id": {"post": "fcm"},
    "api-player-exclude": {"post": "m"},
    "api-player-lift-exclusion": {"post": "m"},
    "api-structure-list": {"get": "fm", "post": "m"},
    "api-structure-import": {"post": "m"},
    "api-structure-detail": {"get": "fm", "patch": "m"},
    "api-structure-export": {"get": "fm"},
    "api-tournament-list": {"get": "fm", "post": "fm"},
    "api-tournament-detail": {"get": "fm"},
    "api-tournament-clock": {"get": "fm"},
    "api-tournament-level": {"patch": "fm"},
    "api-tournament-open-registration": {"post": "fm"},
    "api-tournament-start": {"post": "fm"},
    "api-tournament-pause": {"post": "fm"},
    "api-tournament-resume": {"post": "fm"},
    "api-tournament-add-time": {"post": "fm"},
    "api-tournament-next-level": {"post": "fm"},
    "api-tournament-previous-level": {"post": "fm"},
    "api-tournament-finish": {"post": "fm"},
    "api-tournament-cancel": {"post": "fm"},
    "api-tournament-postpone": {"post": "fm"},
    "api-tournament-rules": {"patch": "fm"},
    "api-tournament-field": {"get": "fcm"},
    "api-entry-list": {"get": "fcm", "post": "c"},
    "api-entry-present": {"post": "fm"},
    "api-entry-rebuy": {"post": "c"},
    "api-entry-add-on": {"post": "c"},
    "api-entry-refund": {"post": "c"},
    "api-entry-prize": {"post": "c"},
    "api-entry-bounty": {"post": "c"},
    "api-bounty-list": {"get": "fcm"},
    "api-seating": {"get": "fm"},
    "api-seating-draw": {"post": "fm"},
    "api-final-table": {"post": "fm"},
    "api-button-draw": {"post": "fm"},
    "api-table-counts": {"post": "fm"},
    "api-chip-counts": {"get": "fm"},
    "api-slip-confirm": {"post": "fm"},
    "api-bust": {"post": "fm"},
    "api-bust-undo": {"post": "fm"},
    "api-payout-table": {"put": "fm"},
    "api-payouts-finalise": {"post": "fm"},
    "api-deal-calculate": {"post": "fm"},
    "api-deal-accept": {"post": "fm"},
    "api-balances": {"get": "m"},
    "api-shift-list": {"get": "cm", "post": "c"},
    "api-shift-detail": {"get": "cm"},
    "api-shift-close": {"post": "cm"},
    "api-shift-handover": {"post": "c"},
    "api-transaction-list": {"get": "cm", "post": "c"},
    "api-transaction-detail": {"get": "cm"},
    "api-reversal-list": {"get": "cm", "post": "cm"},
    "api-reversal-approve": {"post": "m"},
    "api-reversal-reject": {"post": "m"},
    "api-cashgame-game-list": {"get": "fcm", "post": "m"},
    "api-cashgame-game-detail": {"get": "fcm", "patch": "m"},
    "api-cashgame-table-list": {"get": "fcm", "post": "m"},
    "api-cashgame-table-detail": {"get": "fcm"},
    "api-cashgame-table-open": {"post": "fm"},
    "api-cashgame-table-close": {"post": "fm"},
    "api-cashgame-table-seat": {"post": "fm"},
    "api-cashgame-table-hands": {"get": "fm", "post": "fm"},
    "api-cashgame-hand-flop": {"post": "fm"},
    "api-cashgame-hand-end": {"post": "fm"},
    "api-cashgame-hand-void": {"post": "fm"},
    "api-cashgame-session-list": {"get": "fcm"},
    "api-cashgame-buy-in": {"post": "c"},
    "api-cashgame-session-detail": {"get": "fcm"},
    "api-cashgame-top-up": {"post": "c"},
    "api-cashgame-cash-out": {"post": "c"},
    "api-cashgame-move": {"post": "fm"},
    "api-cashgame-state": {"post": "fm"},
    "api-cashgame-stack": {"post": "fm"},
    "api-cashgame-drop-counts": {"get": "cm", "post": "cm"},
    "api-cashgame-claims": {"get": "fcm", "post": "fm"},
    "api-cashgame-share-pay": {"post": "c"},
    "api-cashgame-waiting": {"get": "fm", "post": "fm"},
    "api-cashgame-call-next": {"post": "fm"},
    "api-cashgame-waiting-seat": {"post": "fm"},
    "api-cashgame-waiting-remove": {"post": "fm"},
    "api-cashgame-board": {"get": "fcma"},
    "api-cashgame-rulebook": {"get": "fm"},
    "api-cashgame-rulings": {"get": "fm", "post": "fm"},
    "api-cashgame-calc-pots": {"post": "fm"},
    "api-cashgame-calc-showdown": {"post": "fm"},
    "api-cashgame-calc-best-hand": {"post": "fm"},
    "api-cashgame-calc-raise": {"post": "fm"},
    # Loyalty (LOY-1): comps from the player card, the venue's terms, the API.
    "loyalty:settings": {"get": "m", "post": "m"},
    "loyalty:redeem": {"post": "fcm"},
    "loyalty:link-revoke": {"post": "fcm"},
    "loyalty_room:me": {"get": "fcma"},
    "loyalty-api-standing": {"get": "fcm"},
    "loyalty-api-history": {"get": "fcm"},
    "loyalty-api-redeem": {"post": "fcm"},
    # Printing (CAG-4): printers per desk for managers, "print again" at the desks.
    "printing:printers": {"get": "m", "post": "m"},
    "printing:desk-printer": {"post": "c"},
    "printing:job-retry": {"post": "fcm"},
    "tournaments:slips-print": {"post": "fm"},
    "tournaments:seat-tickets-print": {"post": "fm"},
    "tournaments:colour-up-print": {"post": "fm"},
    # Notices (NOT-1): the player's own phone pages, keyed by their signed link; no log-in.
    "notices:service-worker": {"get": "fcma"},
    "notices:consent": {"post": "fcma"},
    "notices:subscription": {"post": "fcma"},
    "notices:withdraw": {"post": "fcma"},
}

LETTERS = {"f": "floor", "c": "cashier", "m": "manager", "a": "administrator"}


def check_anonymous(name: str, path: str, status: int, location: str) -> str | None:
    if name in PUBLIC:
        return None if status not in (401, 403) and status < 500 else f"public route answered {status}"
    if path.startswith("/api/"):
        return None if status in (401, 403) else f"anonymous API call answered {status}"
    return None if status == 302 and location.startswith("/login/") else f"anonymous page answered {status}"


def test_every_route_has_an_entry__ROL_1():
    missing = sorted({name for name, _path, _methods in routes()} - set(EXPECTED))
    assert missing == [], f"routes without an entry in EXPECTED: {missing}"
    stale = sorted(set(EXPECTED) - {name for name, _path, _methods in routes()})
    assert stale == [], f"EXPECTED names routes that no longer exist: {stale}"


def call(client, method: str, path: str):
    # API requests are JSON documents, as the API's own clients send them.
    if path.startswith("/api/") and method != "get":
        return getattr(client, method)(path, "{}", content_type="application/json")
    return getattr(client, method)(path)


@pytest.mark.long
def test_each_role_gets_exactly_its_routes__ROL_1(client, floor, cashier, manager, administrator):
    users = {"floor": floor, "cashier": cashier, "manager": manager, "administrator": administrator}
    problems = []
    for name, path, methods in routes():
        expected = EXPECTED.get(name, {})
        assert sorted(expected) == sorted(methods), f"{name}: methods {methods}, table has {sorted(expected)}"
        for method in methods:
            client.logout()
            response = call(client, method, path)
            problem = check_anonymous(name, path, response.status_code, response.get("Location", ""))
            if problem:
                problems.append(f"{method.upper()} {path} anonymous: {problem}")
            allowed = {LETTERS[letter] for letter in expected[method]}
            for role, user in users.items():
                client.force_login(user)
                response = call(client, method, path)
                status, location = response.status_code, response.get("Location", "")
                if status >= 500:
                    problems.append(f"{method.upper()} {path} as {role}: {status}")
                elif role in allowed and (status in (401, 403) or location.startswith("/login/?next=")):
                    problems.append(
                        f"{method.upper()} {path} as {role}: refused ({status}), should be allowed"
                    )
                elif role not in allowed and status != 403:
                    problems.append(f"{method.upper()} {path} as {role}: {status}, should be 403")
    assert problems == [], "\n".join(problems)
