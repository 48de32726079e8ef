"""The room's periodic work, sent by the one beat (OPS-2, cardroom/beat.py): the safety nets that
carry out whatever is overdue every 2 seconds (STYLE.md: an ETA message fires on time, and the
reconciler catches what a lost message missed), the daily closes, and the heartbeat /health/
reads. Each message expires after its own period: the next one does the same work."""

BEAT_SCHEDULE: dict = {
    # Balances read ended gaming days from the ledger's day totals; this closes a day soon after
    # it ends (and again after a posting dated into it reopened it).
    "cashier-ledger-days-close": {
        "task": "cashier.ledger_days_close",
        "schedule": 300.0,
        "options": {"expires": 300},
    },
    # Reports read ended gaming days from rollups; this builds them soon after a day ends.
    "reports-rollup-missing": {
        "task": "reports.rollup_missing",
        "schedule": 300.0,
        "options": {"expires": 300},
    },
    # The tournament clock's safety net (TRN-8): raises overdue levels, sends near ETA messages.
    # A message older than its period is dropped: the next one does the same work.
    "tournaments-clock-reconcile": {
        "task": "tournaments.clock_reconcile",
        "schedule": 2.0,
        "options": {"expires": 2.0},
    },
    # The waiting lists' safety net (CSH-7): passes called players whose seat hold is over.
    "cashgame-waiting-reconcile": {
        "task": "cashgame.waiting_reconcile",
        "schedule": 2.0,
        "options": {"expires": 2.0},
    },
    # The dealer rotation's safety net (DLR-2): carries out overdue pushes and replans when a
    # table opened or closed or a tournament broke one (the games do not call the dealers).
    "dealers-rotation-reconcile": {
        "task": "dealers.rotation_reconcile",
        "schedule": 2.0,
        "options": {"expires": 2.0},
    },
    # OPS-2: a worker stamps its heartbeat (ops/tasks.py), read by /health/ and /metrics.
    "ops-heartbeat": {"task": "ops.heartbeat", "schedule": 5.0, "options": {"expires": 5.0}},
    # WTL-3: phone numbers of players off the lists for 24 hours are erased, within the hour.
    "cashgame-waiting-phones-erase": {
        "task": "cashgame.waiting_phones_erase",
        "schedule": 15 * 60.0,
        "options": {"expires": 15 * 60.0},
    },
    # SER-1: tickets past their expiry leave the tickets liability (the desk refuses them at once).
    "tournaments-tickets-expire": {
        "task": "tournaments.tickets_expire",
        "schedule": 15 * 60.0,
        "options": {"expires": 15 * 60.0},
    },
    # GDP-1: the sealed identities of erased players whose retention is over are destroyed.
    "players-identities-destroy": {
        "task": "players.identities_destroy",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    # LOY-2: high-hand periods that ended are settled (won, split or carried) within the minute.
    "cashgame-high-hand-sweep": {
        "task": "cashgame.high_hand_sweep",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
    # LOY-1: points for ended sessions and played entries, and points expired after months idle.
    "loyalty-points-award": {
        "task": "loyalty.points_award",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # NOT-1 with WTL-3: a phone joiner's consent (and SMS number) ends 24 hours after his lists.
    "notices-consents-end": {
        "task": "notices.consents_end",
        "schedule": 15 * 60.0,
        "options": {"expires": 15 * 60.0},
    },
}
