"""What cashier tells the apps above it, which it may not import (docs/architecture.md, Layers)."""

from django.dispatch import Signal

# A cashier transaction was written, with `record` (a CashierTransaction), inside the transaction
# that writes it: every door that takes or pays money (the cage's desk, a tournament's cashier
# page, the cash-game desk, the API) writes through cashier, so the cage prints each receipt
# from here (CAG-4). A receiver must not write unless the transaction commits.
transaction_recorded = Signal()
