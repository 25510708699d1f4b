from django.apps import AppConfig


class MailinConfig(AppConfig):
    name = "campaigns.mailin"
    label = "mailin"
    verbose_name = "Mail in"
    default_auto_field = "django.db.models.BigAutoField"
