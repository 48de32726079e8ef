from django.urls import path

from dealers import views

app_name = "dealers"

urlpatterns = [
    path("", views.BoardView.as_view(), name="board"),
    path("live/", views.BoardLiveView.as_view(), name="live"),
    path("add/", views.DealerAddView.as_view(), name="add"),
    path("<number:pk>/clock-in/", views.ClockInView.as_view(), name="clock-in"),
    path("<number:pk>/clock-out/", views.ClockOutView.as_view(), name="clock-out"),
    path("<number:pk>/send/", views.SendView.as_view(), name="send"),
]
