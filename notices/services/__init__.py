"""Every write of the notices (NOT-1)."""

from notices.services.consent import (
    consent_give,
    consent_text,
    consent_withdraw,
    consents_end_after_lists,
    subscription_add,
)
from notices.services.delivery import MAX_ATTEMPTS, RETRY, backoff_seconds, notice_deliver
from notices.services.links import PLAYER_PAGE, WAITING_PAGE, link_owner
from notices.services.triggers import (
    notices_payout_ready,
    notices_seat_ready,
    notices_table_draw,
    notices_tournament_break,
    notices_tournament_start,
)

__all__ = [
    "MAX_ATTEMPTS",
    "PLAYER_PAGE",
    "RETRY",
    "WAITING_PAGE",
    "backoff_seconds",
    "consent_give",
    "consent_text",
    "consent_withdraw",
    "consents_end_after_lists",
    "link_owner",
    "notice_deliver",
    "notices_payout_ready",
    "notices_seat_ready",
    "notices_table_draw",
    "notices_tournament_break",
    "notices_tournament_start",
    "subscription_add",
]
