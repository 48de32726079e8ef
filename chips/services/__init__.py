"""Every write of the chips app: the chip ledger (CHP-2) and its movements."""

from chips.services.cash import (
    cage_short,
    cash_chips_redeem,
    cash_chips_reversal_check,
    cash_chips_reverse,
    cash_chips_sell,
)
from chips.services.ledger import ChipLine, chip_account_for, chip_posting_post
from chips.services.moves import (
    TableRef,
    chip_count_record,
    chips_receive,
    chips_transfer,
    table_credit,
    table_fill,
)

__all__ = [
    "ChipLine",
    "TableRef",
    "cage_short",
    "cash_chips_redeem",
    "cash_chips_reversal_check",
    "cash_chips_reverse",
    "cash_chips_sell",
    "chip_account_for",
    "chip_count_record",
    "chip_posting_post",
    "chips_receive",
    "chips_transfer",
    "table_credit",
    "table_fill",
]
