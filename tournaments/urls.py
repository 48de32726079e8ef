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
    path("<int:pk>/", views.TournamentDetailView.as_view(), name="detail"),
    re_path(
        r"^(?P<pk>[0-9]+)/(?P<action>open-registration|start|pause|resume|add-minute|remove-minute|"
        r"next-level|previous-level|finish|cancel)/$",
        views.TournamentActionView.as_view(),
        name="action",
    ),
    path("<int:pk>/entries/", entries_views.EntryDeskView.as_view(), name="entries"),
    path(
        "<int:pk>/entries/<int:entry_id>/present/",
        entries_views.EntryPresentView.as_view(),
        name="entry-present",
    ),
    path("<int:pk>/rules/", entries_views.RulesView.as_view(), name="rules"),
    path("<int:pk>/postpone/", entries_views.PostponeView.as_view(), name="postpone"),
    path("<int:pk>/register/", cashier_views.RegisterView.as_view(), name="register"),
    re_path(
        r"^(?P<pk>[0-9]+)/entries/(?P<entry_id>[0-9]+)/(?P<action>rebuy|add-on|refund|prize|bounty)/$",
        cashier_views.CashierEntryActionView.as_view(),
        name="entry-pay",
    ),
    path("<int:pk>/seating/", seating_views.SeatingView.as_view(), name="seating"),
    re_path(
        r"^(?P<pk>[0-9]+)/seating/(?P<action>draw|final-table|confirm-moves|reopen-registration)/$",
        seating_views.SeatingActionView.as_view(),
        name="seating-action",
    ),
    path("<int:pk>/seating/bust/", seating_views.SeatBustView.as_view(), name="seat-bust"),
    path("<int:pk>/levels/", levels_views.LevelsEditView.as_view(), name="levels"),
    path("<int:pk>/colour-up/", colour_up_views.ColourUpView.as_view(), name="colour-up"),
    path("<int:pk>/payouts/table/", editor_views.PayoutTableEditView.as_view(), name="payout-table"),
    path(
        "<int:pk>/tables/<int:table_id>/button/", seating_views.ButtonDrawView.as_view(), name="button-draw"
    ),
    path(
        "<int:pk>/slips/<int:slip_id>/confirm/", seating_views.SlipConfirmView.as_view(), name="slip-confirm"
    ),
    path("<int:pk>/bust/", payouts_views.BustView.as_view(), name="bust"),
    path("<int:pk>/bust/undo/", payouts_views.BustUndoView.as_view(), name="bust-undo"),
    path("<int:pk>/payouts/", payouts_views.PayoutsView.as_view(), name="payouts"),
    path("<int:pk>/payouts/finalise/", payouts_views.PayoutsFinaliseView.as_view(), name="payouts-finalise"),
    path("<int:pk>/deal/accept/", payouts_views.DealAcceptView.as_view(), name="deal-accept"),
    path("structures/", views.StructureListView.as_view(), name="structure-list"),
    path("structures/import/", views.StructureImportView.as_view(), name="structure-import"),
    path("structures/new/", editor_views.StructureEditView.as_view(), name="structure-new"),
    path("structures/<int:pk>/edit/", editor_views.StructureEditView.as_view(), name="structure-edit"),
    path("structures/<int:pk>/", views.StructureDetailView.as_view(), name="structure-detail"),
    re_path(
        r"^structures/(?P<pk>[0-9]+)/export\.(?P<file_format>csv|json)$",
        views.StructureExportView.as_view(),
        name="structure-export",
    ),
]

structure_api_urlpatterns = [
    path("", api.StructureListApi.as_view(), name="api-structure-list"),
    path("import/", api.StructureImportApi.as_view(), name="api-structure-import"),
    path("<int:pk>/", api.StructureDetailApi.as_view(), name="api-structure-detail"),
    re_path(
        r"^(?P<pk>[0-9]+)/export/(?P<file_format>csv|json)/$",
        api.StructureExportApi.as_view(),
        name="api-structure-export",
    ),
]

api_urlpatterns = [
    path("", api.TournamentListApi.as_view(), name="api-tournament-list"),
    path("<int:pk>/", api.TournamentDetailApi.as_view(), name="api-tournament-detail"),
    path("<int:pk>/clock/", api.TournamentClockApi.as_view(), name="api-tournament-clock"),
    path(
        "<int:pk>/levels/<int:order>/",
        api.TournamentLevelApi.as_view(),
        name="api-tournament-level",
    ),
    path(
        "<int:pk>/open-registration/",
        api.TournamentOpenRegistrationApi.as_view(),
        name="api-tournament-open-registration",
    ),
    path("<int:pk>/start/", api.TournamentStartApi.as_view(), name="api-tournament-start"),
    path("<int:pk>/pause/", api.TournamentPauseApi.as_view(), name="api-tournament-pause"),
    path("<int:pk>/resume/", api.TournamentResumeApi.as_view(), name="api-tournament-resume"),
    path("<int:pk>/add-time/", api.TournamentAddTimeApi.as_view(), name="api-tournament-add-time"),
    path(
        "<int:pk>/next-level/",
        api.TournamentNextLevelApi.as_view(),
        name="api-tournament-next-level",
    ),
    path(
        "<int:pk>/previous-level/",
        api.TournamentPreviousLevelApi.as_view(),
        name="api-tournament-previous-level",
    ),
    path("<int:pk>/finish/", api.TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("<int:pk>/cancel/", api.TournamentCancelApi.as_view(), name="api-tournament-cancel"),
    path("<int:pk>/postpone/", entries_api.PostponeApi.as_view(), name="api-tournament-postpone"),
    path("<int:pk>/rules/", entries_api.RulesApi.as_view(), name="api-tournament-rules"),
    path("<int:pk>/field/", entries_api.FieldApi.as_view(), name="api-tournament-field"),
    path("<int:pk>/entries/", entries_api.EntryListApi.as_view(), name="api-entry-list"),
    path(
        "<int:pk>/entries/<int:entry_id>/present/",
        entries_api.EntryPresentApi.as_view(),
        name="api-entry-present",
    ),
    path(
        "<int:pk>/entries/<int:entry_id>/rebuy/",
        entries_api.EntryRebuyApi.as_view(),
        name="api-entry-rebuy",
    ),
    path(
        "<int:pk>/entries/<int:entry_id>/add-on/",
        entries_api.EntryAddOnApi.as_view(),
        name="api-entry-add-on",
    ),
    path(
        "<int:pk>/entries/<int:entry_id>/refund/",
        entries_api.EntryRefundApi.as_view(),
        name="api-entry-refund",
    ),
    path(
        "<int:pk>/entries/<int:entry_id>/prize/",
        payouts_api.EntryPrizeApi.as_view(),
        name="api-entry-prize",
    ),
    path(
        "<int:pk>/entries/<int:entry_id>/bounty/",
        payouts_api.EntryBountyApi.as_view(),
        name="api-entry-bounty",
    ),
    path("<int:pk>/bounties/", payouts_api.BountyListApi.as_view(), name="api-bounty-list"),
    path("<int:pk>/seating/", seating_api.SeatingApi.as_view(), name="api-seating"),
    path("<int:pk>/seating/draw/", seating_api.SeatingDrawApi.as_view(), name="api-seating-draw"),
    path(
        "<int:pk>/seating/final-table/",
        seating_api.FinalTableApi.as_view(),
        name="api-final-table",
    ),
    path(
        "<int:pk>/tables/<int:table_id>/button/",
        seating_api.ButtonDrawApi.as_view(),
        name="api-button-draw",
    ),
    path(
        "<int:pk>/slips/<int:slip_id>/confirm/",
        seating_api.SlipConfirmApi.as_view(),
        name="api-slip-confirm",
    ),
    path("<int:pk>/bust/", payouts_api.BustApi.as_view(), name="api-bust"),
    path("<int:pk>/bust/undo/", payouts_api.BustUndoApi.as_view(), name="api-bust-undo"),
    path("<int:pk>/payouts/", payouts_api.PayoutTableApi.as_view(), name="api-payout-table"),
    path(
        "<int:pk>/payouts/finalise/",
        payouts_api.PayoutsFinaliseApi.as_view(),
        name="api-payouts-finalise",
    ),
    path(
        "<int:pk>/deal/calculate/",
        payouts_api.DealCalculateApi.as_view(),
        name="api-deal-calculate",
    ),
    path("<int:pk>/deal/accept/", payouts_api.DealAcceptApi.as_view(), name="api-deal-accept"),
]
