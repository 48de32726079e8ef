"""Tournaments API (DRF), one module per part of the game:

- structures: blind structures, import and export (TRN-7)
- tournaments: tournaments, their levels, the clock and status actions (TRN-8)
- entries: registration, presence, rebuys and add-ons, refunds, the field (TRN-1 to TRN-6)
- seating: the chart, draws, move slips and the button draw (TRN-9, HND-2)
- payouts: bust-outs, the payout table, prizes, bounties and deals (TRN-5, TRN-10)

The names that lived here before the split are importable from here as before.
"""

from tournaments.api.common import GuaranteeModeField, KindField, TournamentStatusField, inline_choices
from tournaments.api.structures import (
    FloorReadsManagerWrites,
    LevelSerializer,
    StructureDetailApi,
    StructureExportApi,
    StructureImportApi,
    StructureImportSerializer,
    StructureInputSerializer,
    StructureListApi,
    StructureSerializer,
    StructureSummarySerializer,
    StructureUpdateSerializer,
    structure_export_response,
)
from tournaments.api.tournaments import (
    AddTimeSerializer,
    ClockGuaranteeSerializer,
    ClockLevelSerializer,
    ClockStateSerializer,
    TournamentActionApi,
    TournamentAddTimeApi,
    TournamentCancelApi,
    TournamentClockApi,
    TournamentDetailApi,
    TournamentFinishApi,
    TournamentInputSerializer,
    TournamentLevelApi,
    TournamentLevelSerializer,
    TournamentLevelUpdateSerializer,
    TournamentListApi,
    TournamentNextLevelApi,
    TournamentOpenRegistrationApi,
    TournamentPauseApi,
    TournamentPreviousLevelApi,
    TournamentResumeApi,
    TournamentSerializer,
    TournamentStartApi,
    TournamentSummarySerializer,
)

__all__ = [
    "AddTimeSerializer",
    "ClockGuaranteeSerializer",
    "ClockLevelSerializer",
    "ClockStateSerializer",
    "FloorReadsManagerWrites",
    "GuaranteeModeField",
    "KindField",
    "LevelSerializer",
    "StructureDetailApi",
    "StructureExportApi",
    "StructureImportApi",
    "StructureImportSerializer",
    "StructureInputSerializer",
    "StructureListApi",
    "StructureSerializer",
    "StructureSummarySerializer",
    "StructureUpdateSerializer",
    "TournamentActionApi",
    "TournamentAddTimeApi",
    "TournamentCancelApi",
    "TournamentClockApi",
    "TournamentDetailApi",
    "TournamentFinishApi",
    "TournamentInputSerializer",
    "TournamentLevelApi",
    "TournamentLevelSerializer",
    "TournamentLevelUpdateSerializer",
    "TournamentListApi",
    "TournamentNextLevelApi",
    "TournamentOpenRegistrationApi",
    "TournamentPauseApi",
    "TournamentPreviousLevelApi",
    "TournamentResumeApi",
    "TournamentSerializer",
    "TournamentStartApi",
    "TournamentStatusField",
    "TournamentSummarySerializer",
    "inline_choices",
    "structure_export_response",
]
