"""Loyalty points (LOY-1): earned, redeemed for comps, expired, and the venue's terms.

- awards: the sweep, a lot per ended session and played entry, points of a given-back entry
  taken back
- expiry: points after the venue's months without play
- redeem: vouchers and tickets bought with points
- terms: settings, rates and tiers; a player's private link revoked
"""

from loyalty.services.awards import (
    entry_points_award,
    entry_points_take_back,
    points_award_due,
    session_points_award,
)
from loyalty.services.expiry import player_points_expire, points_expire_due
from loyalty.services.redeem import loyalty_redeem, voucher_value_parse
from loyalty.services.terms import (
    earn_rate_set,
    loyalty_settings_update,
    member_link_revoke,
    tier_delete,
    tier_save,
)

__all__ = [
    "earn_rate_set",
    "entry_points_award",
    "entry_points_take_back",
    "loyalty_redeem",
    "loyalty_settings_update",
    "member_link_revoke",
    "player_points_expire",
    "points_award_due",
    "points_expire_due",
    "session_points_award",
    "tier_delete",
    "tier_save",
    "voucher_value_parse",
]
