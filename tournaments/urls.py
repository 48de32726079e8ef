from django.urls import include, path, re_path

from tournaments import api, views
from tournaments.api import counts as counts_api
from tournaments.api import entries as entries_api
from tournaments.api import payouts as payouts_api
from tournaments.api import seating as seating_api
from tournaments.views import cashier as cashier_views
from tournaments.views import colour_up as colour_up_views
from tournaments.views import counts as counts_views
from tournaments.views import editors as editor_views
from tournaments.views import entries as entries_views
from tournaments.views import event_setup as event_setup_views
from tournaments.views import events as event_views
from tournaments.views import hand_for_hand as hand_for_hand_views
from tournaments.views import levels as levels_views
from tournaments.views import payouts as payouts_views
from tournaments.views import seating as seating_views
from tournaments.views import slip_print as slip_print_views
from tournaments.views import tickets as ticket_views

app_name = "tournaments"

# The pages of one entry, under /tournaments/<pk>/entries/<entry_id>/.
entry_patterns = [
    path("present/", entries_views.EntryPresentView.as_view(), name="entry-present"),
    re_path(
        r"^(?P<action>rebuy|add-on|refund|prize|bounty)/$",
        cashier_views.CashierEntryActionView.as_view(),
        name="entry-pay",
    ),
]

# The pages of one tournament, under /tournaments/<pk>/.
tournament_patterns = [
    path("", views.TournamentDetailView.as_view(), name="detail"),
    re_path(
        r"^(?P<action>open-registration|start|pause|resume|add-minute|remove-minute|"
        r"next-level|previous-level|finish|cancel)/$",
        views.TournamentActionView.as_view(),
        name="action",
    ),
    path("entries/", entries_views.EntryDeskView.as_view(), name="entries"),
    path("entries/<number:entry_id>/", include(entry_patterns)),
    path("rules/", entries_views.RulesView.as_view(), name="rules"),
    path("postpone/", entries_views.PostponeView.as_view(), name="postpone"),
    path("register/", cashier_views.RegisterView.as_view(), name="register"),
    path("tickets/", ticket_views.TicketListView.as_view(), name="tickets"),
    re_path(
        r"^tickets/(?P<action>grant|refund|pay-refund|expire|satellite)/$",
        ticket_views.TicketActionView.as_view(),
        name="ticket-action",
    ),
    path("seating/", seating_views.SeatingView.as_view(), name="seating"),
    re_path(
        r"^seating/(?P<action>draw|open-table|final-table|confirm-moves|reopen-registration)/$",
        seating_views.SeatingActionView.as_view(),
        name="seating-action",
    ),
    path("seating/bust/", seating_views.SeatBustView.as_view(), name="seat-bust"),
    path("bags/", event_views.BagSheetView.as_view(), name="bags"),
    path("bags/end-day/", event_views.FlightEndView.as_view(), name="flight-end"),
    path("bags/accept/", event_views.FlightAcceptView.as_view(), name="flight-accept"),
    path("levels/", levels_views.LevelsEditView.as_view(), name="levels"),
    re_path(
        r"^hand-for-hand/(?P<action>start|stop|next)/$",
        hand_for_hand_views.HandForHandActionView.as_view(),
        name="hand-for-hand",
    ),
    path(
        "hand-for-hand/tables/<number:table_id>/done/",
        hand_for_hand_views.HandDoneView.as_view(),
        name="hand-done",
    ),
    path("colour-up/", colour_up_views.ColourUpView.as_view(), name="colour-up"),
    path("colour-up/print/", slip_print_views.ChipRaceSheetsPrintView.as_view(), name="colour-up-print"),
    path("payouts/table/", editor_views.PayoutTableEditView.as_view(), name="payout-table"),
    path("tables/<number:table_id>/button/", seating_views.ButtonDrawView.as_view(), name="button-draw"),
    path("tables/<number:table_id>/counts/", counts_views.TableCountsView.as_view(), name="table-counts"),
    path("slips/<number:slip_id>/confirm/", seating_views.SlipConfirmView.as_view(), name="slip-confirm"),
    path("slips/print/", slip_print_views.MoveSlipsPrintView.as_view(), name="slips-print"),
    path("seat-tickets/print/", slip_print_views.SeatTicketsPrintView.as_view(), name="seat-tickets-print"),
    path("bust/", payouts_views.BustView.as_view(), name="bust"),
    path("bust/undo/", payouts_views.BustUndoView.as_view(), name="bust-undo"),
    path("payouts/", payouts_views.PayoutsView.as_view(), name="payouts"),
    path("payouts/finalise/", payouts_views.PayoutsFinaliseView.as_view(), name="payouts-finalise"),
    path("deal/accept/", payouts_views.DealAcceptView.as_view(), name="deal-accept"),
]

# The pages of one multi-day event (SER-2), under /tournaments/events/<pk>/.
event_patterns = [
    path("", event_views.EventView.as_view(), name="event"),
    path("draw/", event_views.EventDrawView.as_view(), name="event-draw"),
    path("seats/", event_views.DayTwoSeatListView.as_view(), name="event-seats"),
    path("flights/", event_views.EventFlightAddView.as_view(), name="event-flight-add"),
    path("day-two/", event_views.EventDayTwoView.as_view(), name="event-day-two"),
]

# The pages of one blind structure, under /tournaments/structures/<pk>/.
structure_patterns = [
    path("", views.StructureDetailView.as_view(), name="structure-detail"),
    path("edit/", editor_views.StructureEditView.as_view(), name="structure-edit"),
    re_path(
        r"^export\.(?P<file_format>csv|json|xlsx)$",
        views.StructureExportView.as_view(),
        name="structure-export",
    ),
]

urlpatterns = [
    path("", views.TournamentListView.as_view(), name="list"),
    path("new/", views.TournamentCreateView.as_view(), name="create"),
    path("cashier/", cashier_views.CashierTournamentListView.as_view(), name="cashier-list"),
    path("<number:pk>/", include(tournament_patterns)),
    path("events/", event_setup_views.EventListView.as_view(), name="event-list"),
    path("events/new/", event_setup_views.EventCreateView.as_view(), name="event-create"),
    path("events/<number:pk>/", include(event_patterns)),
    path("structures/", views.StructureListView.as_view(), name="structure-list"),
    path("structures/import/", views.StructureImportView.as_view(), name="structure-import"),
    path("structures/new/", editor_views.StructureEditView.as_view(), name="structure-new"),
    path("structures/<number:pk>/", include(structure_patterns)),
]

structure_api_urlpatterns = [
    path("", api.StructureListApi.as_view(), name="api-structure-list"),
    path("import/", api.StructureImportApi.as_view(), name="api-structure-import"),
    path("<number:pk>/", api.StructureDetailApi.as_view(), name="api-structure-detail"),
    re_path(
        r"^(?P<pk>[0-9]+)/export/(?P<file_format>csv|json|xlsx)/$",
        api.StructureExportApi.as_view(),
        name="api-structure-export",
    ),
]

# The API of one entry, under /api/tournaments/<pk>/entries/<entry_id>/.
entry_api_patterns = [
    path("present/", entries_api.EntryPresentApi.as_view(), name="api-entry-present"),
    path("rebuy/", entries_api.EntryRebuyApi.as_view(), name="api-entry-rebuy"),
    path("add-on/", entries_api.EntryAddOnApi.as_view(), name="api-entry-add-on"),
    path("refund/", entries_api.EntryRefundApi.as_view(), name="api-entry-refund"),
    path("prize/", payouts_api.EntryPrizeApi.as_view(), name="api-entry-prize"),
    path("bounty/", payouts_api.EntryBountyApi.as_view(), name="api-entry-bounty"),
]

# The API of one tournament, under /api/tournaments/<pk>/.
tournament_api_patterns = [
    path("", api.TournamentDetailApi.as_view(), name="api-tournament-detail"),
    path("clock/", api.TournamentClockApi.as_view(), name="api-tournament-clock"),
    path("levels/<number:order>/", api.TournamentLevelApi.as_view(), name="api-tournament-level"),
    path(
        "open-registration/",
        api.TournamentOpenRegistrationApi.as_view(),
        name="api-tournament-open-registration",
    ),
    path("start/", api.TournamentStartApi.as_view(), name="api-tournament-start"),
    path("pause/", api.TournamentPauseApi.as_view(), name="api-tournament-pause"),
    path("resume/", api.TournamentResumeApi.as_view(), name="api-tournament-resume"),
    path("add-time/", api.TournamentAddTimeApi.as_view(), name="api-tournament-add-time"),
    path("next-level/", api.TournamentNextLevelApi.as_view(), name="api-tournament-next-level"),
    path("previous-level/", api.TournamentPreviousLevelApi.as_view(), name="api-tournament-previous-level"),
    path("finish/", api.TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("cancel/", api.TournamentCancelApi.as_view(), name="api-tournament-cancel"),
    path("postpone/", entries_api.PostponeApi.as_view(), name="api-tournament-postpone"),
    path("rules/", entries_api.RulesApi.as_view(), name="api-tournament-rules"),
    path("field/", entries_api.FieldApi.as_view(), name="api-tournament-field"),
    path("entries/", entries_api.EntryListApi.as_view(), name="api-entry-list"),
    path("entries/<number:entry_id>/", include(entry_api_patterns)),
    path("bounties/", payouts_api.BountyListApi.as_view(), name="api-bounty-list"),
    path("seating/", seating_api.SeatingApi.as_view(), name="api-seating"),
    path("seating/draw/", seating_api.SeatingDrawApi.as_view(), name="api-seating-draw"),
    path("seating/final-table/", seating_api.FinalTableApi.as_view(), name="api-final-table"),
    path("tables/<number:table_id>/button/", seating_api.ButtonDrawApi.as_view(), name="api-button-draw"),
    path("tables/<number:table_id>/counts/", counts_api.TableCountsApi.as_view(), name="api-table-counts"),
    path("counts/", counts_api.ChipCountListApi.as_view(), name="api-chip-counts"),
    path("slips/<number:slip_id>/confirm/", seating_api.SlipConfirmApi.as_view(), name="api-slip-confirm"),
    path("bust/", payouts_api.BustApi.as_view(), name="api-bust"),
    path("bust/undo/", payouts_api.BustUndoApi.as_view(), name="api-bust-undo"),
    path("payouts/", payouts_api.PayoutTableApi.as_view(), name="api-payout-table"),
    path("payouts/finalise/", payouts_api.PayoutsFinaliseApi.as_view(), name="api-payouts-finalise"),
    path("deal/calculate/", payouts_api.DealCalculateApi.as_view(), name="api-deal-calculate"),
    path("deal/accept/", payouts_api.DealAcceptApi.as_view(), name="api-deal-accept"),
]

api_urlpatterns = [
    path("", api.TournamentListApi.as_view(), name="api-tournament-list"),
    path("<number:pk>/", include(tournament_api_patterns)),
]
