from django.urls import path

from . import views, webhook

urlpatterns = [
    path("inbound/mailgun/mime", webhook.InboundWebhookView.as_view(), name="mailin_webhook"),
    path("games/<int:game_id>/held/", views.held_mail, name="mailin_held"),
]
