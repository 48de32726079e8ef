"""The mathematics of the card room, in pure Python (no Django import anywhere in this package).

Plain functions and small frozen dataclasses on plain values: money is integer cents, tournament
chips are integers, cards are two-character strings ("As", "Td"). Each module names the house
rules (docs/house-rules.md) it implements: `rake` (RAK, JKP-1/2), `pots` (POT), `hands` (HND,
JKP-3, FLR-2), `betting` (BET), `payouts` and `deals` (TRN-10), `seating` (TRN-9). Broken rules
raise `PokerError`, a `ValueError` that carries the rule ID so services can re-raise it as
`cardroom.errors.DomainError`.
"""
