from django.urls import path, re_path

from cashgame import views
from cashgame.api import floor, sessions, tables

app_name = "cashgame"

urlpatterns = [
    path("", views.TableListView.as_view(), name="tables"),
    path("tables/new/", views.TableCreateView.as_view(), name="table-create"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="table"),
    re_path(
        r"^tables/(?P<pk>[0-9]+)/(?P<action>open|close)/$",
        views.TableActionView.as_view(),
        name="table-action",
    ),
    path("tables/<int:pk>/seat/", views.SeatPlayerView.as_view(), name="seat"),
    path("tables/<int:pk>/dealer/", views.DealerView.as_view(), name="dealer"),
    re_path(
        r"^tables/(?P<pk>[0-9]+)/dealer/(?P<action>start|flop|end|void)/$",
        views.DealerActionView.as_view(),
        name="dealer-action",
    ),
    path("sessions/<int:pk>/state/", views.SeatStateView.as_view(), name="seat-state"),
    path("sessions/<int:pk>/stack/", views.StackView.as_view(), name="stack"),
    path("sessions/<int:pk>/move/", views.MoveView.as_view(), name="move"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/new/", views.GameCreateView.as_view(), name="game-create"),
    path("games/<int:pk>/", views.GameEditView.as_view(), name="game-edit"),
    path("desk/", views.CashierDeskView.as_view(), name="cashier"),
    re_path(
        r"^desk/(?P<action>buy-in|top-up|cash-out)/$",
        views.CashierActionView.as_view(),
        name="cashier-action",
    ),
    path("desk/jackpot/<int:pk>/pay/", views.SharePayView.as_view(), name="share-pay"),
    path("drop-counts/", views.DropCountView.as_view(), name="drop-counts"),
    path("jackpot/", views.JackpotView.as_view(), name="jackpot"),
    path("waiting/", views.WaitingView.as_view(), name="waiting"),
    re_path(
        r"^waiting/(?P<action>add|call-next)/$", views.WaitingActionView.as_view(), name="waiting-action"
    ),
    re_path(
        r"^waiting/(?P<pk>[0-9]+)/(?P<action>seat|remove)/$",
        views.WaitingEntryActionView.as_view(),
        name="waiting-entry-action",
    ),
    path("rulings/", views.RulingsView.as_view(), name="rulings"),
    path("calculators/", views.CalculatorsView.as_view(), name="calculators"),
]

api_urlpatterns = [
    path("cashgame/games/", tables.GameListApi.as_view(), name="api-cashgame-game-list"),
    path("cashgame/games/<int:pk>/", tables.GameDetailApi.as_view(), name="api-cashgame-game-detail"),
    path("cashgame/tables/", tables.TableListApi.as_view(), name="api-cashgame-table-list"),
    path("cashgame/tables/<int:pk>/", tables.TableDetailApi.as_view(), name="api-cashgame-table-detail"),
    path("cashgame/tables/<int:pk>/open/", tables.TableOpenApi.as_view(), name="api-cashgame-table-open"),
    path("cashgame/tables/<int:pk>/close/", tables.TableCloseApi.as_view(), name="api-cashgame-table-close"),
    path("cashgame/tables/<int:pk>/seat/", sessions.TableSeatApi.as_view(), name="api-cashgame-table-seat"),
    path("cashgame/tables/<int:pk>/hands/", tables.TableHandsApi.as_view(), name="api-cashgame-table-hands"),
    path("cashgame/hands/<int:pk>/flop/", tables.HandFlopApi.as_view(), name="api-cashgame-hand-flop"),
    path("cashgame/hands/<int:pk>/end/", tables.HandEndApi.as_view(), name="api-cashgame-hand-end"),
    path("cashgame/hands/<int:pk>/void/", tables.HandVoidApi.as_view(), name="api-cashgame-hand-void"),
    path("cashgame/sessions/", sessions.SessionListApi.as_view(), name="api-cashgame-session-list"),
    path("cashgame/sessions/buy-in/", sessions.BuyInApi.as_view(), name="api-cashgame-buy-in"),
    path(
        "cashgame/sessions/<int:pk>/", sessions.SessionDetailApi.as_view(), name="api-cashgame-session-detail"
    ),
    path("cashgame/sessions/<int:pk>/top-up/", sessions.TopUpApi.as_view(), name="api-cashgame-top-up"),
    path("cashgame/sessions/<int:pk>/cash-out/", sessions.CashOutApi.as_view(), name="api-cashgame-cash-out"),
    path("cashgame/sessions/<int:pk>/move/", sessions.MoveApi.as_view(), name="api-cashgame-move"),
    path("cashgame/sessions/<int:pk>/state/", sessions.StateApi.as_view(), name="api-cashgame-state"),
    path("cashgame/sessions/<int:pk>/stack/", sessions.StackApi.as_view(), name="api-cashgame-stack"),
    path("cashgame/drop-counts/", floor.DropCountListApi.as_view(), name="api-cashgame-drop-counts"),
    path("cashgame/jackpot/claims/", floor.ClaimListApi.as_view(), name="api-cashgame-claims"),
    path("cashgame/jackpot/shares/<int:pk>/pay/", floor.SharePayApi.as_view(), name="api-cashgame-share-pay"),
    path("cashgame/waiting/", floor.WaitingListApi.as_view(), name="api-cashgame-waiting"),
    path("cashgame/waiting/call-next/", floor.WaitingCallNextApi.as_view(), name="api-cashgame-call-next"),
    path("cashgame/waiting/<int:pk>/seat/", floor.WaitingSeatApi.as_view(), name="api-cashgame-waiting-seat"),
    path(
        "cashgame/waiting/<int:pk>/remove/",
        floor.WaitingRemoveApi.as_view(),
        name="api-cashgame-waiting-remove",
    ),
    path("cashgame/board/", floor.BoardApi.as_view(), name="api-cashgame-board"),
    path("cashgame/rulebook/", floor.RuleBookApi.as_view(), name="api-cashgame-rulebook"),
    path("cashgame/rulings/", floor.RulingListApi.as_view(), name="api-cashgame-rulings"),
    path("cashgame/calculators/side-pots/", floor.SidePotApi.as_view(), name="api-cashgame-calc-pots"),
    path("cashgame/calculators/showdown/", floor.ShowdownApi.as_view(), name="api-cashgame-calc-showdown"),
    path("cashgame/calculators/best-hand/", floor.BestHandApi.as_view(), name="api-cashgame-calc-best-hand"),
    path("cashgame/calculators/raise/", floor.RaiseApi.as_view(), name="api-cashgame-calc-raise"),
]
