from django.urls import path

from . import webhook

urlpatterns = [
    path("inbound/mailgun/mime", webhook.InboundWebhookView.as_view(), name="mailin_webhook"),
]
