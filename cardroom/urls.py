from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from cage.urls import api_urlpatterns as cage_api
from cage.urls import urlpatterns as cage_pages
from cardroom import views
from cardroom.auth_api import obtain_auth_token
from cashgame.urls import api_urlpatterns as cashgame_api
from cashier.urls import api_urlpatterns as cashier_api
from cashier.urls import urlpatterns as cashier_pages
from loyalty.urls import api_urlpatterns as loyalty_api
from loyalty.urls import room_urlpatterns as loyalty_room
from players.urls import api_urlpatterns as players_api
from tournaments.urls import api_urlpatterns as tournaments_api
from tournaments.urls import structure_api_urlpatterns as structures_api

# Swagger UI comes from its CDN (drf-spectacular's default) and styles itself inline.
SWAGGER_CDN = "https://cdn.jsdelivr.net"
swagger_policy = csp_update(
    {
        "script-src": [SWAGGER_CDN],
        "style-src": [SWAGGER_CDN],
        "style-src-elem": [SWAGGER_CDN, UNSAFE_INLINE],
        "img-src": [SWAGGER_CDN, "data:"],
    }
)

api_urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", swagger_policy(SpectacularSwaggerView.as_view(url_name="api-schema")), name="api-docs"),
    # One include per app: a request is matched against its own app's routes only.
    path("cashier/", include([*cage_api, *cashier_api])),
    path("cashgame/", include(cashgame_api)),
    path("players/", include(players_api)),
    path("structures/", include(structures_api)),
    path("tournaments/", include(tournaments_api)),
    path("loyalty/", include(loyalty_api)),
]

urlpatterns = [
    path("api/", include(api_urlpatterns)),
    path("", views.HomeView.as_view(), name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("venue/", views.VenueSettingsView.as_view(), name="venue-settings"),
    path("venue/pick/", views.VenuePickView.as_view(), name="venue-pick"),
    path("audit/", views.AuditListView.as_view(), name="audit-list"),
    path("rules/", views.RuleBookView.as_view(), name="rules"),
    path("players/", include("players.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("leagues/", include("leagues.urls")),
    path("tv/", include("screens.urls.tv")),
    # The cage's desk and corrections share the cashier's paths and names.
    path("cashier/", include(([*cage_pages, *cashier_pages], "cashier"))),
    path("reports/", include("reports.urls")),
    path("cashgame/", include("cashgame.urls")),
    path("floor/", include("screens.urls.floor")),
    path("dealers/", include("dealers.urls")),
    path("board/", include("screens.urls.board")),
    path("wait/", include("cashgame.wait_urls")),
    path("room/me/", include((loyalty_room, "loyalty_room"))),
    path("room/", include("screens.urls.public")),
    path("loyalty/", include("loyalty.urls")),
    path("printing/", include("printing.urls")),
    path("notices/", include("notices.urls")),
    path("", include("devices.urls")),
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico on pages that do not link one (the TV clock, the board).
    path("favicon.ico", views.favicon),
]

handler403 = "cardroom.views.permission_denied"
handler404 = "cardroom.views.page_not_found"
