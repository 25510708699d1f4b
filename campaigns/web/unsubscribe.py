"""The page behind every seat mail's List-Unsubscribe (RFC 2369, RFC 8058): "mail me less".

``/mail/unsubscribe/<token>/``: no login, the signed token names the seat (campaigns/mailout/
unsubscribe.py). A GET only shows what the button does (a link scanner that fetches it changes
nothing); a POST does it: a mail provider's one-click POST (body ``List-Unsubscribe=One-Click``,
no cookies, no CSRF token: RFC 8058 3.2) or the page's button. Less mail is no reminders and no
waiting notices; the page's other button brings them back. Posting twice is posting once.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from campaigns.i18n import for_seat
from campaigns.mailout import unsubscribe
from campaigns.models import Seat
from campaigns.turns.seats import seat_label


@csrf_exempt  # the token is the key; a provider's one-click POST carries nothing else (RFC 8058)
@require_http_methods(["GET", "HEAD", "POST"])
def mail_less(request, token: str) -> HttpResponse:
    seat = unsubscribe.seat_for(token)
    if seat is None:
        response = render(request, "web/unsubscribe.html", {"seat": None}, status=404)
        return _private(response)
    done = ""
    if request.method == "POST":
        wanted = Seat.Mail.ALL if request.POST.get("mail") == Seat.Mail.ALL else Seat.Mail.LESS
        unsubscribe.set_mail(seat, wanted)
        done = wanted
    with for_seat(seat):  # the page in the language of the seat's mail
        response = render(
            request,
            "web/unsubscribe.html",
            {
                "seat": seat,
                "game": seat.game,
                "you": seat_label(seat),
                "less": seat.mail == Seat.Mail.LESS,
                "done": done,
            },
        )
    return _private(response)


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response
