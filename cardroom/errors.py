"""Domain errors: a broken house rule, with the rule's ID from docs/house-rules.md."""


class DomainError(Exception):
    """A request that the house rules refuse.

    `code` is a stable machine-readable slug, `message` a translated sentence that says what to
    do next, `rule` the house rule's ID in docs/house-rules.md (e.g. "CSH-5") when one applies.
    The API maps it to a 4xx JSON body {"code", "detail", "rule"}; pages show the message with
    the rule as a link to its text in the rule book (cardroom/refusals.py), never as a code.
    """

    status_code = 400

    def __init__(self, code: str, message: str, *, rule: str = "", status_code: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.rule = rule
        if status_code is not None:
            self.status_code = status_code

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.message, "rule": self.rule}

    def __str__(self) -> str:
        # Words only: a page links the rule (cardroom/refusals.py), the API answers it apart.
        return self.message


class NotFound(DomainError):
    status_code = 404


class Conflict(DomainError):
    """The request collides with what is already recorded (e.g. an idempotency key reuse)."""

    status_code = 409


class PermissionDenied(DomainError):
    status_code = 403
