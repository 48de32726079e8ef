from django.urls import path, re_path

from tournaments import api, views
from tournaments.api import entries as entries_api
from tournaments.api import payouts as payouts_api
from tournaments.api import seating as seating_api
from tournaments.views import cashier as cashier_views
from tournaments.views import colour_up as colour_up_views
from tournaments.views import editors as editor_views
from tournaments.views import entries as entries_views
from tournaments.views import levels as levels_views
from tournaments.views import payouts as payouts_views
from tournaments.views import seating as seating_views

app_name = "tournaments"

urlpatterns = [
    path("", views.TournamentListView.as_view(), name="list"),
    path("new/", views.TournamentCreateView.as_view(), name="create"),
    path("cashier/", cashier_views.CashierTournamentListView.as_view(), name="cashier-list"),
    path("<number:pk>/", views.TournamentDetailView.as_view(), name="detail"),
    re_path(
        r"^(?P<pk>[0-9]+)/(?P<action>open-registration|start|pause|resume|add-minute|remove-minute|"
        r"next-level|previous-level|finish|cancel)/$",
        views.TournamentActionView.as_view(),
        name="action",
    ),
    path("<number:pk>/entries/", entries_views.EntryDeskView.as_view(), name="entries"),
    path(
        "<number:pk>/entries/<number:entry_id>/present/",
        entries_views.EntryPresentView.as_view(),
        name="entry-present",
    ),
    path("<number:pk>/rules/", entries_views.RulesView.as_view(), name="rules"),
    path("<number:pk>/postpone/", entries_views.PostponeView.as_view(), name="postpone"),
    path("<number:pk>/register/", cashier_views.RegisterView.as_view(), name="register"),
    re_path(
        r"^(?P<pk>[0-9]+)/entries/(?P<entry_id>[0-9]+)/(?P<action>rebuy|add-on|refund|prize|bounty)/$",
        cashier_views.CashierEntryActionView.as_view(),
        name="entry-pay",
    ),
    path("<number:pk>/seating/", seating_views.SeatingView.as_view(), name="seating"),
    re_path(
        r"^(?P<pk>[0-9]+)/seating/(?P<action>draw|open-table|final-table|confirm-moves|reopen-registration)/$",
        seating_views.SeatingActionView.as_view(),
        name="seating-action",
    ),
    path("<number:pk>/seating/bust/", seating_views.SeatBustView.as_view(), name="seat-bust"),
    path("<number:pk>/levels/", levels_views.LevelsEditView.as_view(), name="levels"),
    path("<number:pk>/colour-up/", colour_up_views.ColourUpView.as_view(), name="colour-up"),
    path("<number:pk>/payouts/table/", editor_views.PayoutTableEditView.as_view(), name="payout-table"),
    path(
        "<number:pk>/tables/<number:table_id>/button/",
        seating_views.ButtonDrawView.as_view(),
        name="button-draw",
    ),
    path(
        "<number:pk>/slips/<number:slip_id>/confirm/",
        seating_views.SlipConfirmView.as_view(),
        name="slip-confirm",
    ),
    path("<number:pk>/bust/", payouts_views.BustView.as_view(), name="bust"),
    path("<number:pk>/bust/undo/", payouts_views.BustUndoView.as_view(), name="bust-undo"),
    path("<number:pk>/payouts/", payouts_views.PayoutsView.as_view(), name="payouts"),
    path(
        "<number:pk>/payouts/finalise/", payouts_views.PayoutsFinaliseView.as_view(), name="payouts-finalise"
    ),
    path("<number:pk>/deal/accept/", payouts_views.DealAcceptView.as_view(), name="deal-accept"),
    path("structures/", views.StructureListView.as_view(), name="structure-list"),
    path("structures/import/", views.StructureImportView.as_view(), name="structure-import"),
    path("structures/new/", editor_views.StructureEditView.as_view(), name="structure-new"),
    path("structures/<number:pk>/edit/", editor_views.StructureEditView.as_view(), name="structure-edit"),
    path("structures/<number:pk>/", views.StructureDetailView.as_view(), name="structure-detail"),
    re_path(
        r"^structures/(?P<pk>[0-9]+)/export\.(?P<file_format>csv|json)$",
        views.StructureExportView.as_view(),
        name="structure-export",
    ),
]

structure_api_urlpatterns = [
    path("", api.StructureListApi.as_view(), name="api-structure-list"),
    path("import/", api.StructureImportApi.as_view(), name="api-structure-import"),
    path("<number:pk>/", api.StructureDetailApi.as_view(), name="api-structure-detail"),
    re_path(
        r"^(?P<pk>[0-9]+)/export/(?P<file_format>csv|json)/$",
        api.StructureExportApi.as_view(),
        name="api-structure-export",
    ),
]

api_urlpatterns = [
    path("", api.TournamentListApi.as_view(), name="api-tournament-list"),
    path("<number:pk>/", api.TournamentDetailApi.as_view(), name="api-tournament-detail"),
    path("<number:pk>/clock/", api.TournamentClockApi.as_view(), name="api-tournament-clock"),
    path(
        "<number:pk>/levels/<number:order>/",
        api.TournamentLevelApi.as_view(),
        name="api-tournament-level",
    ),
    path(
        "<number:pk>/open-registration/",
        api.TournamentOpenRegistrationApi.as_view(),
        name="api-tournament-open-registration",
    ),
    path("<number:pk>/start/", api.TournamentStartApi.as_view(), name="api-tournament-start"),
    path("<number:pk>/pause/", api.TournamentPauseApi.as_view(), name="api-tournament-pause"),
    path("<number:pk>/resume/", api.TournamentResumeApi.as_view(), name="api-tournament-resume"),
    path("<number:pk>/add-time/", api.TournamentAddTimeApi.as_view(), name="api-tournament-add-time"),
    path(
        "<number:pk>/next-level/",
        api.TournamentNextLevelApi.as_view(),
        name="api-tournament-next-level",
    ),
    path(
        "<number:pk>/previous-level/",
        api.TournamentPreviousLevelApi.as_view(),
        name="api-tournament-previous-level",
    ),
    path("<number:pk>/finish/", api.TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("<number:pk>/cancel/", api.TournamentCancelApi.as_view(), name="api-tournament-cancel"),
    path("<number:pk>/postpone/", entries_api.PostponeApi.as_view(), name="api-tournament-postpone"),
    path("<number:pk>/rules/", entries_api.RulesApi.as_view(), name="api-tournament-rules"),
    path("<number:pk>/field/", entries_api.FieldApi.as_view(), name="api-tournament-field"),
    path("<number:pk>/entries/", entries_api.EntryListApi.as_view(), name="api-entry-list"),
    path(
        "<number:pk>/entries/<number:entry_id>/present/",
        entries_api.EntryPresentApi.as_view(),
        name="api-entry-present",
    ),
    path(
        "<number:pk>/entries/<number:entry_id>/rebuy/",
        entries_api.EntryRebuyApi.as_view(),
        name="api-entry-rebuy",
    ),
    path(
        "<number:pk>/entries/<number:entry_id>/add-on/",
        entries_api.EntryAddOnApi.as_view(),
        name="api-entry-add-on",
    ),
    path(
        "<number:pk>/entries/<number:entry_id>/refund/",
        entries_api.EntryRefundApi.as_view(),
        name="api-entry-refund",
    ),
    path(
        "<number:pk>/entries/<number:entry_id>/prize/",
        payouts_api.EntryPrizeApi.as_view(),
        name="api-entry-prize",
    ),
    path(
        "<number:pk>/entries/<number:entry_id>/bounty/",
        payouts_api.EntryBountyApi.as_view(),
        name="api-entry-bounty",
    ),
    path("<number:pk>/bounties/", payouts_api.BountyListApi.as_view(), name="api-bounty-list"),
    path("<number:pk>/seating/", seating_api.SeatingApi.as_view(), name="api-seating"),
    path("<number:pk>/seating/draw/", seating_api.SeatingDrawApi.as_view(), name="api-seating-draw"),
    path(
        "<number:pk>/seating/final-table/",
        seating_api.FinalTableApi.as_view(),
        name="api-final-table",
    ),
    path(
        "<number:pk>/tables/<number:table_id>/button/",
        seating_api.ButtonDrawApi.as_view(),
        name="api-button-draw",
    ),
    path(
        "<number:pk>/slips/<number:slip_id>/confirm/",
        seating_api.SlipConfirmApi.as_view(),
        name="api-slip-confirm",
    ),
    path("<number:pk>/bust/", payouts_api.BustApi.as_view(), name="api-bust"),
    path("<number:pk>/bust/undo/", payouts_api.BustUndoApi.as_view(), name="api-bust-undo"),
    path("<number:pk>/payouts/", payouts_api.PayoutTableApi.as_view(), name="api-payout-table"),
    path(
        "<number:pk>/payouts/finalise/",
        payouts_api.PayoutsFinaliseApi.as_view(),
        name="api-payouts-finalise",
    ),
    path(
        "<number:pk>/deal/calculate/",
        payouts_api.DealCalculateApi.as_view(),
        name="api-deal-calculate",
    ),
    path("<number:pk>/deal/accept/", payouts_api.DealAcceptApi.as_view(), name="api-deal-accept"),
]
