from django.urls import path

from screens.views import floor as views

app_name = "floor"

urlpatterns = [
    path("", views.RoomView.as_view(), name="room"),
    path("live/", views.RoomLiveView.as_view(), name="live"),
]
