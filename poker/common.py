"""Shared vocabulary of the `poker` package: player identifiers and the rule-carrying error."""

from __future__ import annotations

# A player is whatever the caller uses to tell players apart: a database id, a seat number or a
# name in a floor calculator. Functions only compare and hash these, never order them.
PlayerId = int | str


class PokerError(ValueError):
    """Input that breaks a house rule or cannot describe a real hand.

    Mirrors `cardroom.errors.DomainError` (code, message, rule) without importing Django, so a
    service can re-raise it as `DomainError(err.code, err.message, rule=err.rule)`. It is a
    `ValueError` because every case is a bad argument value.
    """

    def __init__(self, code: str, message: str, *, rule: str = "") -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.code = code
        self.message = message
        self.rule = rule
