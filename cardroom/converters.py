"""The path converter every URL uses for a number (an id, a seat, a level's place)."""

# Eighteen digits always fit a database integer (bigint, at most 9,223,372,036,854,775,807).
# Django's own `int` takes any length, and a longer number reached the query, where SQLite cannot
# bind it (a server error); with this converter such an address is simply not found.
MAX_DIGITS = 18
LARGEST = 10**MAX_DIGITS - 1


class NumberConverter:
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
