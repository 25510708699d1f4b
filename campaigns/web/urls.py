from django.contrib.auth import views as auth_views
from django.urls import path

from campaigns import accounts

from . import agenda, battles, campaign, held, ordering, unsubscribe, views

urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page says (the SVG map, a download): no 404 for it.
    path("favicon.ico", views.favicon),
    path("", views.my_games, name="my_games"),
    path("turns/", agenda.my_turns, name="my_turns"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/settings/", views.my_settings, name="my_settings"),
    path("accounts/calendar/", agenda.calendar_address, name="calendar_address"),
    path("calendar/<str:token>.ics", agenda.calendar_feed, name="calendar_feed"),
    path("accounts/address/<str:token>/", views.confirm_address, name="confirm_address"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("handovers/<str:token>/", views.side_offer, name="side_offer"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/orders/compose/", ordering.compose, name="order_compose"),
    path("games/<int:game_id>/orders/check/", ordering.check, name="order_check"),
    path("games/<int:game_id>/ready/", views.set_ready, name="set_ready"),
    path("games/<int:game_id>/absence/", views.set_absence, name="set_absence"),
    path("games/<int:game_id>/turns/<int:number>/", views.turn_history, name="turn_history"),
    path("games/<int:game_id>/turns/", views.turn_jump, name="turn_jump"),
    path("games/<int:game_id>/verification/", views.verification, name="verification"),
    path("games/<int:game_id>/map.svg", views.game_map, name="game_map"),
    path("games/<int:game_id>/umpire/", views.umpire_page, name="umpire"),
    path("campaigns/<int:campaign_id>/", campaign.campaign_page, name="campaign"),
    path("games/<int:game_id>/battles/<str:battle>/", battles.battle_action, name="battle_action"),
    path("games/<int:game_id>/seats/", views.game_seats, name="game_seats"),
    # The held-mail page kept its address and name from when mail-in served it.
    path("mail/games/<int:game_id>/held/", held.held_mail, name="mailin_held"),
    path("mail/unsubscribe/<str:token>/", unsubscribe.mail_less, name="mail_unsubscribe"),
]
