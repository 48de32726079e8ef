from django.urls import path, re_path

from cashgame.api import calculators, dropbox, jackpot, rulings, sessions, tables, waiting
from cashgame.views import calculators as calculator_views
from cashgame.views import dealer as dealer_views
from cashgame.views import desk as desk_views
from cashgame.views import dropbox as dropbox_views
from cashgame.views import games as game_views
from cashgame.views import jackpot as jackpot_views
from cashgame.views import promotions as promotion_views
from cashgame.views import rulings as ruling_views
from cashgame.views import seats as seat_views
from cashgame.views import tables as table_views
from cashgame.views import waiting as waiting_views

app_name = "cashgame"

urlpatterns = [
    path("", table_views.TableListView.as_view(), name="tables"),
    path("tables/new/", table_views.TableCreateView.as_view(), name="table-create"),
    path("tables/<number:pk>/", table_views.TableDetailView.as_view(), name="table"),
    re_path(
        r"^tables/(?P<pk>[0-9]+)/(?P<action>open|close)/$",
        table_views.TableActionView.as_view(),
        name="table-action",
    ),
    path("tables/<number:pk>/seat/", table_views.SeatPlayerView.as_view(), name="seat"),
    path("tables/<number:pk>/house/", table_views.TableHousePlayersView.as_view(), name="table-house"),
    path("tables/<number:pk>/live/", table_views.TableLiveView.as_view(), name="table-live"),
    path("tables/<number:pk>/seats/<number:seat>/", seat_views.SeatPanelView.as_view(), name="seat-panel"),
    re_path(
        rf"^tables/(?P<pk>[0-9]+)/seats/(?P<seat>[0-9]+)/(?P<action>{'|'.join(seat_views.SEAT_ACTIONS)})/$",
        seat_views.SeatActionView.as_view(),
        name="seat-action",
    ),
    path("tables/<number:pk>/dealer/", dealer_views.DealerView.as_view(), name="dealer"),
    re_path(
        r"^tables/(?P<pk>[0-9]+)/dealer/(?P<action>start|flop|end|void)/$",
        dealer_views.DealerActionView.as_view(),
        name="dealer-action",
    ),
    path("sessions/<number:pk>/state/", table_views.SeatStateView.as_view(), name="seat-state"),
    path("sessions/<number:pk>/stack/", table_views.StackView.as_view(), name="stack"),
    path("sessions/<number:pk>/move/", table_views.MoveView.as_view(), name="move"),
    path("games/", game_views.GameListView.as_view(), name="games"),
    path("games/new/", game_views.GameCreateView.as_view(), name="game-create"),
    path("games/<number:pk>/", game_views.GameEditView.as_view(), name="game-edit"),
    path("desk/", desk_views.CashierDeskView.as_view(), name="cashier"),
    re_path(
        r"^desk/(?P<action>buy-in|top-up|cash-out)/$",
        desk_views.CashierActionView.as_view(),
        name="cashier-action",
    ),
    path("desk/jackpot/<number:pk>/pay/", desk_views.SharePayView.as_view(), name="share-pay"),
    path("drop-counts/", dropbox_views.DropCountView.as_view(), name="drop-counts"),
    path("jackpot/", jackpot_views.JackpotView.as_view(), name="jackpot"),
    path("high-hand/", promotion_views.HighHandView.as_view(), name="high-hand"),
    path("promotions/", promotion_views.PromotionListView.as_view(), name="promotions"),
    path("promotions/new/", promotion_views.PromotionCreateView.as_view(), name="promotion-create"),
    path("promotions/<number:pk>/", promotion_views.PromotionEditView.as_view(), name="promotion-edit"),
    path("waiting/", waiting_views.WaitingView.as_view(), name="waiting"),
    re_path(
        r"^waiting/(?P<action>add|call-next|open-table)/$",
        waiting_views.WaitingActionView.as_view(),
        name="waiting-action",
    ),
    path("waiting/<number:pk>/log/", waiting_views.WaitingHistoryView.as_view(), name="waiting-history"),
    re_path(
        r"^waiting/(?P<pk>[0-9]+)/(?P<action>seat|remove|check-in)/$",
        waiting_views.WaitingEntryActionView.as_view(),
        name="waiting-entry-action",
    ),
    path("rulings/", ruling_views.RulingsView.as_view(), name="rulings"),
    path("calculators/", calculator_views.CalculatorsView.as_view(), name="calculators"),
]

api_urlpatterns = [
    path("games/", tables.GameListApi.as_view(), name="api-cashgame-game-list"),
    path("games/<number:pk>/", tables.GameDetailApi.as_view(), name="api-cashgame-game-detail"),
    path("tables/", tables.TableListApi.as_view(), name="api-cashgame-table-list"),
    path("tables/<number:pk>/", tables.TableDetailApi.as_view(), name="api-cashgame-table-detail"),
    path("tables/<number:pk>/open/", tables.TableOpenApi.as_view(), name="api-cashgame-table-open"),
    path("tables/<number:pk>/close/", tables.TableCloseApi.as_view(), name="api-cashgame-table-close"),
    path("tables/<number:pk>/seat/", sessions.TableSeatApi.as_view(), name="api-cashgame-table-seat"),
    path("tables/<number:pk>/hands/", tables.TableHandsApi.as_view(), name="api-cashgame-table-hands"),
    path("hands/<number:pk>/flop/", tables.HandFlopApi.as_view(), name="api-cashgame-hand-flop"),
    path("hands/<number:pk>/end/", tables.HandEndApi.as_view(), name="api-cashgame-hand-end"),
    path("hands/<number:pk>/void/", tables.HandVoidApi.as_view(), name="api-cashgame-hand-void"),
    path("sessions/", sessions.SessionListApi.as_view(), name="api-cashgame-session-list"),
    path("sessions/buy-in/", sessions.BuyInApi.as_view(), name="api-cashgame-buy-in"),
    path("sessions/<number:pk>/", sessions.SessionDetailApi.as_view(), name="api-cashgame-session-detail"),
    path("sessions/<number:pk>/top-up/", sessions.TopUpApi.as_view(), name="api-cashgame-top-up"),
    path("sessions/<number:pk>/cash-out/", sessions.CashOutApi.as_view(), name="api-cashgame-cash-out"),
    path("sessions/<number:pk>/move/", sessions.MoveApi.as_view(), name="api-cashgame-move"),
    path("sessions/<number:pk>/state/", sessions.StateApi.as_view(), name="api-cashgame-state"),
    path("sessions/<number:pk>/stack/", sessions.StackApi.as_view(), name="api-cashgame-stack"),
    path("drop-counts/", dropbox.DropCountListApi.as_view(), name="api-cashgame-drop-counts"),
    path("jackpot/claims/", jackpot.ClaimListApi.as_view(), name="api-cashgame-claims"),
    path("jackpot/shares/<number:pk>/pay/", jackpot.SharePayApi.as_view(), name="api-cashgame-share-pay"),
    path("waiting/", waiting.WaitingListApi.as_view(), name="api-cashgame-waiting"),
    path("waiting/call-next/", waiting.WaitingCallNextApi.as_view(), name="api-cashgame-call-next"),
    path("waiting/<number:pk>/seat/", waiting.WaitingSeatApi.as_view(), name="api-cashgame-waiting-seat"),
    path(
        "waiting/<number:pk>/remove/",
        waiting.WaitingRemoveApi.as_view(),
        name="api-cashgame-waiting-remove",
    ),
    path("board/", waiting.BoardApi.as_view(), name="api-cashgame-board"),
    path("rulebook/", rulings.RuleBookApi.as_view(), name="api-cashgame-rulebook"),
    path("rulings/", rulings.RulingListApi.as_view(), name="api-cashgame-rulings"),
    path("calculators/side-pots/", calculators.SidePotApi.as_view(), name="api-cashgame-calc-pots"),
    path("calculators/showdown/", calculators.ShowdownApi.as_view(), name="api-cashgame-calc-showdown"),
    path(
        "calculators/best-hand/",
        calculators.BestHandApi.as_view(),
        name="api-cashgame-calc-best-hand",
    ),
    path("calculators/raise/", calculators.RaiseApi.as_view(), name="api-cashgame-calc-raise"),
]
