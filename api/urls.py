"""/api/: games, seats, token auth, the OpenAPI schema and its Swagger UI."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from . import agenda, auth, campaigns, views

router = SimpleRouter(use_regex_path=False)
router.register("games", views.GameViewSet, basename="api-game")
router.register("seats", views.SeatViewSet, basename="api-seat")

urlpatterns = [
    path("auth/token/", auth.LoginView.as_view(), name="api-token"),
    path("auth/logout/", auth.LogoutView.as_view(), name="api-logout"),
    path("auth/logout-all/", auth.LogoutAllView.as_view(), name="api-logout-all"),
    path("games/<int:pk>/map.svg", views.GameMapView.as_view(), name="api-game-map"),
    path("me/turns/", agenda.MyTurnsView.as_view(), name="api-my-turns"),
    path("campaigns/<str:campaign_id>/", campaigns.CampaignView.as_view(), name="api-campaign"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    *router.urls,
]
