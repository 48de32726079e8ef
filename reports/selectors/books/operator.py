"""The books of each venue and the operator's (VEN-1): each venue's checks (checks.py) run on
its own rows, with the venue active, and name the venue; the operator's are every venue's
ledger together, and no posting across two venues' books."""

from dataclasses import dataclass, replace

from django.db.models import F, Q, Sum
from django.utils.translation import gettext_lazy as _

from cardroom.models import Venue
from cardroom.venues import venue_activate, venue_all
from cashier.models import Entry
from chips.models import ChipEntry
from reports.selectors.books.checks import BookCheck, venue_checks


def _operator_checks() -> list[BookCheck]:
    """The operator's books: every venue's ledger together, and each posting within one venue
    (the ledger refuses a posting across venues: cashier.services.ledger_post)."""
    total = Entry.all_venues.aggregate(total=Sum("amount_cents"))["total"] or 0
    unbalanced = (
        Entry.all_venues.values("posting_id").annotate(total=Sum("amount_cents")).exclude(total=0).count()
    )
    across = Entry.all_venues.filter(
        ~Q(account__venue_id=F("posting__venue_id")) | ~Q(venue_id=F("posting__venue_id"))
    ).count()
    chips_across = ChipEntry.all_venues.filter(
        ~Q(account__venue_id=F("posting__venue_id")) | ~Q(venue_id=F("posting__venue_id"))
    ).count()
    return [
        BookCheck(str(_("Ledger: every entry of every venue sums to zero")), 0, total),
        BookCheck(str(_("Ledger: postings that do not balance")), 0, unbalanced, "postings"),
        BookCheck(
            str(_("Ledger: entries on an account of another venue than their posting's")),
            0,
            across,
            "entries",
        ),
        BookCheck(
            str(_("Chips: entries on an account of another venue than their posting's")),
            0,
            chips_across,
            "chips",
        ),
    ]


@dataclass(frozen=True)
class VenueBooks:
    """The books of one venue, or the operator's (`venue` None: every venue together)."""

    venue: Venue | None
    checks: list[BookCheck]

    @property
    def problems(self) -> list[BookCheck]:
        return [check for check in self.checks if not check.ok]


def venue_books_check(venue: Venue) -> VenueBooks:
    """Every reconciliation of one venue's books, on its own rows only."""
    with venue_activate(venue):
        checks = venue_checks()
    return VenueBooks(venue=venue, checks=[replace(check, venue=venue.name) for check in checks])


def books_by_venue() -> list[VenueBooks]:
    """Each venue's books in turn, then the operator's."""
    return [*(venue_books_check(venue) for venue in venue_all()), VenueBooks(None, _operator_checks())]


def books_check() -> list[BookCheck]:
    """Every reconciliation of the books, each venue's and the operator's, in the order
    `check_books` prints them (whichever venue is active: the books are all checked)."""
    return [check for books in books_by_venue() for check in books.checks]


def books_problems() -> list[BookCheck]:
    """The checks that found a difference (an empty list: the books agree)."""
    return [check for check in books_check() if not check.ok]
