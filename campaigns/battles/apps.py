from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "campaigns.battles"
    label = "battles"
    verbose_name = "Campaigns of linked battles"
    default_auto_field = "django.db.models.BigAutoField"
