"""Every write of the chips app: the chip ledger (CHP-2) and its movements."""

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
    "chip_account_for",
    "chip_count_record",
    "chip_posting_post",
    "chips_receive",
    "chips_transfer",
    "table_credit",
    "table_fill",
]
