from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import accounts  # noqa: F401  (connects the token revocation on password change)
