"""The books checked: the ledger against itself and against the games' own records (CAG-1,
CAG-4, CAG-6), each venue's and the operator's (VEN-1). `manage.py check_books` prints them;
tests call `books_problems()` after every journey and fault."""

from reports.selectors.books.checks import BookCheck
from reports.selectors.books.operator import (
    VenueBooks,
    books_by_venue,
    books_check,
    books_problems,
    venue_books_check,
)

__all__ = ["BookCheck", "VenueBooks", "books_by_venue", "books_check", "books_problems", "venue_books_check"]
