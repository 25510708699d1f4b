from django.contrib import admin
from django.urls import include, path

from . import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("mail/", include("campaigns.mailin.urls")),
    path("", include("campaigns.web.urls")),
]
