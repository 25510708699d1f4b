"""The web pages. Each page is built from one viewer's ``Seen`` (see access.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST

from campaigns import maps
from campaigns.i18n import render as in_language
from campaigns.mailout import outbox
from campaigns.mailout.reports import VERIFY_TEXT
from campaigns.mailout.verification import TooManyConfirmations, request_verification
from campaigns.models import Game, Profile, Seat
from campaigns.turns import (
    absences,
    commands,
    creation,
    deadlines,
    failures,
    invitations,
    listing,
    mailaddress,
    rulings,
    seats,
    versions,
    viewing,
)
from campaigns.turns.addresses import renew
from campaigns.turns.eventcursor import BadCursor
from campaigns.turns.localtime import local_time
from campaigns.turns.state import GameStatus, TurnStatus
from rules.core.i18n import message_of
from rules.core.protocol import RulesError, UmpireDesk

from . import held, present, umpirelog
from .access import Seen, seat_required, user_timezone
from .battles import battles_context
from .forms import (
    AbsenceForm,
    AddressForm,
    AmendForm,
    ApproveForm,
    DeadlineForm,
    InvitationForm,
    InviteForm,
    NewAddressForm,
    NewGameForm,
    OnBehalfForm,
    OrdersForm,
    ProfileForm,
    ReadyForm,
    ReplacePlayerForm,
    RulingForm,
)


def _game_url(seen: Seen) -> str:
    return reverse("game", args=[seen.game.pk])


def _umpire_url(seen: Seen) -> str:
    return reverse("umpire", args=[seen.game.pk])


def _accepted_message(result: commands.SubmitResult, ready: bool) -> str:
    if result.closed:
        return _("Orders accepted. Every side was ready, so the turn has closed.")
    return _("Orders accepted and marked ready.") if ready else _("Orders accepted; not marked ready yet.")


def favicon(request):
    """Browsers ask for /favicon.ico whatever a page says (the SVG map, a download): no 404 for it.
    The static URL is looked up when asked, so a hashed file name after collectstatic is followed."""
    return HttpResponsePermanentRedirect(static("kb/favicon.svg"))


# --- my games ---------------------------------------------------------------


@login_required
def my_games(request):
    games = list(
        Game.objects.filter(seats__user=request.user, seats__status=Seat.Status.ACTIVE)
        .distinct()
        .select_related("campaign")
        .order_by("-created_at")
    )
    tz = user_timezone(request.user)
    rows = [
        {
            "game": row.game,
            "viewer": row.viewer,
            "title": row.title,
            "turn": present.turn_panel(row.turn, row.viewer, lambda iso: local_time(iso, tz), row.game.ruleset),
        }
        for row in listing.rows(request.user, games)
    ]
    return render(
        request,
        "web/my_games.html",
        {
            "rows": rows,
            "invitations": invitations.pending_for(request.user),
            "verified": mailaddress.verified_address(request.user),
        },
    )


# --- invitations ------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def side_offer(request, token: str):
    """A standby's offer of a side (campaigns/turns/seats.py): what it is, and the yes (POST)."""
    try:
        seat = seats.read_offer(token, request.user)
    except seats.SeatError as exc:
        return render(request, "web/side_offer.html", {"error": str(exc)}, status=400)
    if request.method == "POST":
        try:
            seat = seats.accept_side(token, request.user)
        except seats.SeatError as exc:
            return render(request, "web/side_offer.html", {"error": str(exc)}, status=400)
        messages.success(
            request,
            _("You play %(side)s in %(game)s from now on; its first mail is on its way to you.")
            % {"side": pgettext("side", seat.side), "game": seat.game.name},
        )
        return redirect("game", seat.game_id)
    return render(
        request,
        "web/side_offer.html",
        {"seat": seat, "game": seat.game, "verified": mailaddress.verified_address(request.user)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def invitation(request, token: str):
    """An invitation: what the game is and who is in it; accept or decline (POST only)."""
    try:
        seat = invitations.read(token, request.user)
    except invitations.InvitationError as exc:
        return render(request, "web/invitation.html", {"error": str(exc)}, status=400)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        answer = form.cleaned_data["answer"]
        try:
            seat = (invitations.accept if answer == "accept" else invitations.decline)(token, request.user)
        except invitations.InvitationError as exc:
            messages.error(request, str(exc))
            return redirect("my_games")
        if answer == "decline":
            messages.success(
                request, _("You declined the seat in %(game)s; its creator has been told.") % {"game": seat.game.name}
            )
            return redirect("my_games")
        seat.game.refresh_from_db()
        messages.success(
            request,
            _("You joined %(game)s.") % {"game": seat.game.name}
            + (
                ""
                if seat.game.turn_number
                else " " + _("The game starts when every player and the umpire have accepted.")
            ),
        )
        return redirect("game", seat.game_id)
    return render(
        request,
        "web/invitation.html",
        {
            "seat": seat,
            "game": seat.game,
            "roster": invitations.roster(seat.game),
            "token": token,
            "expires": invitations.expires_at(seat),
            "verified": mailaddress.verified_address(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_seats(request, game_id: int):
    """Who holds, is invited to or declined each seat; the creator or umpire invites to free seats."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not (invitations.may_manage(game, request.user) or viewing.viewer_for(game, request.user)):
        raise Http404(_("No such game"))
    manager = invitations.may_manage(game, request.user)
    free = [
        seat
        for seat in game.seats.order_by("role", "side", "pk")
        if seat.status == Seat.Status.DECLINED or invitations.is_expired(seat)
    ]
    form = InviteForm(request.POST or None, seats=[(str(s.pk), s.side or s.role) for s in free])
    if request.method == "POST":
        if not manager:
            raise Http404(_("No such game"))
        if form.is_valid():
            try:
                seat = invitations.reinvite(
                    game.pk, int(form.cleaned_data["seat"]), form.cleaned_data["username"], by=request.user
                )
            except invitations.InvitationError as exc:
                form.add_error("username", str(exc))
            else:
                messages.success(
                    request,
                    _("%(user)s is invited to %(seat)s.")
                    % {"user": seat.user.get_username(), "seat": seat.side or seat.role},
                )
                return redirect("game_seats", game.pk)
    return render(
        request,
        "web/game_seats.html",
        {"game": game, "roster": invitations.roster(game), "form": form if manager and free else None},
    )


# --- my settings ------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def my_settings(request):
    profile = Profile.objects.get_or_create(user=request.user)[0]
    posted = request.POST if request.method == "POST" else None
    is_address = posted is not None and posted.get("action") == "address"
    form = ProfileForm(
        None if is_address else posted, initial={"timezone": profile.timezone, "language": profile.language}
    )
    address_form = AddressForm(posted if is_address else None)
    if is_address and address_form.is_valid():
        email = address_form.cleaned_data["email"]
        try:
            request_verification(request.user, email)
        except TooManyConfirmations as exc:
            messages.error(
                request,
                _("Too many confirmation mails in an hour: ask again in %(minutes)s minutes.")
                % {"minutes": max(1, exc.retry_after // 60)},
            )
            return redirect("my_settings")
        messages.success(
            request, _("We have mailed a link to %(email)s: follow it to confirm the address.") % {"email": email}
        )
        return redirect("my_settings")
    if posted is not None and not is_address and form.is_valid():
        profile.timezone = form.cleaned_data["timezone"]
        profile.language = form.cleaned_data["language"]
        profile.save(update_fields=["timezone", "language"])
        # The confirmation already in the new language (the browser's, if the choice was cleared).
        translation.activate(profile.language or translation.get_language_from_request(request))
        messages.success(request, _("Settings saved: time zone %(zone)s.") % {"zone": profile.timezone})
        return redirect("my_settings")
    profile.refresh_from_db()
    return render(request, "web/settings.html", {"form": form, "address_form": address_form, "profile": profile})


@login_required
@require_http_methods(["GET", "POST"])
def confirm_address(request, token: str):
    """The link mailed to a new address: confirming is a POST by the signed-in user it was asked for."""
    if request.method == "POST":
        try:
            email = mailaddress.confirm(token, request.user)
        except mailaddress.AddressError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("%(email)s is confirmed: your seats' mail goes there.") % {"email": email})
        return redirect("my_settings")
    return render(request, "web/confirm_address.html", {"token": token})


# --- a new game -------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request):
    form = NewGameForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            game = creation.create_game(
                campaign=form.campaign_obj(),
                name=form.cleaned_data["name"],
                ruleset=form.cleaned_data["ruleset"],
                seats=form.cleaned_data["seats"],
                settings=form.settings(),
                created_by=request.user,
                commands=form.commands(),
                scenario=form.scenario_name(),
                options=form.game_options(),
            )
        except (commands.TurnError, RulesError) as exc:
            form.add_error(None, in_language(message_of(exc)))
        else:
            invited = sorted({s.user.get_username() for s in game.seats.filter(status=Seat.Status.INVITED)})
            messages.success(
                request,
                (
                    _(
                        "Game '%(game)s' created; invited: %(invited)s. Turn 1 opens when every player and the umpire "
                        "have accepted."
                    )
                    if invited
                    else _("Game '%(game)s' created; turn 1 is open.")
                )
                % {"game": game.name, "invited": ", ".join(invited)},
            )
            return redirect("game_seats", game.pk)
    return render(request, "web/new_game.html", {"form": form})


# --- the game page ----------------------------------------------------------


def log_links(base: str, older: str | None, cursor: str | None, query: dict[str, str] | None = None) -> dict:
    """A paged log's links: to its older events (``older``: the cursor of the page's oldest, when
    older ones exist) and, on an older page (``cursor``), back to the latest; ``query`` (the
    umpire's filter) kept in both."""
    query = query or {}
    latest = f"{base}?{urlencode(query)}" if query else base
    return {
        "older_log": older,
        "older_url": f"{base}?{urlencode({**query, 'cursor': older})}" if older else "",
        "latest_url": latest if cursor else "",
    }


def _bad_cursor():
    return HttpResponseBadRequest(
        _("That link to older events is not one this game's page gave you: open the game page again."),
        content_type="text/plain; charset=utf-8",
    )


TURN_LINKS = 10  # a long game's page links its first turn and its last ten; the rest by number


def turn_links(published: list[int]) -> dict:
    """The past turns the game page links (a 600-turn campaign's page held 600 links, a third of its
    time), and whether more are reached by number (``turn_jump``)."""
    if len(published) <= TURN_LINKS + 2:
        return {"past_turns": published, "turns_elided": None}
    return {"past_turns": [published[0], *published[-TURN_LINKS:]], "turns_elided": published[-1]}


@require_http_methods(["GET"])
@seat_required()
def turn_jump(request, seen: Seen):
    """``?turn=N`` from the page's box: that turn's page (which says so if it is not published)."""
    try:
        number = int(request.GET.get("turn", ""))
    except ValueError:
        messages.error(request, _("Give a turn's number."))
        return redirect(_game_url(seen))
    return redirect("turn_history", seen.game.pk, number)


def game_context(seen: Seen, cursor: str | None = None, **extra) -> dict:
    log, older = present.log_page(seen, cursor)
    return {
        "seen": seen,
        "view": seen.view,
        "viewer": seen.viewer,
        "game": seen.game,
        "turn": present.turn_summary(seen),
        "svg": present.svg(seen),
        "log": log,
        **log_links(reverse("game", args=[seen.game.pk]), older, cursor),
        "orders_help": in_language(seen.ruleset.orders_help),
        "may_order": present.may_order(seen),
        "own_orders": present.own_orders(seen),
        "away_until": present.away_until(seen),
        **turn_links(sorted(seen.published_turns())),
        "roster": invitations.roster(seen.game),
        "map_orders": present.map_orders(seen),
        "ready_closes": present.ready_closes(seen),
        **present.board_extras(seen),
        **battles_context(seen),
        **extra,
    }


@require_http_methods(["GET", "POST"])
@seat_required()
def game_page(request, seen: Seen):
    if request.method == "GET":
        form = (
            OrdersForm(initial={"text": present.own_orders(seen), "ready": False}) if present.may_order(seen) else None
        )
        try:
            context = game_context(seen, request.GET.get("cursor") or None, form=form)
        except BadCursor:
            return _bad_cursor()
        return render(request, "web/game.html", context)
    if not present.may_order(seen):
        messages.error(request, _("You have no orders to give now."))
        return redirect(_game_url(seen))
    form = OrdersForm(request.POST)
    if not form.is_valid():
        return render(request, "web/game.html", game_context(seen, form=form))
    ready = form.cleaned_data["ready"]
    try:
        result = commands.submit_orders(
            seen.game.pk,
            seen.viewer.side,
            form.cleaned_data["text"],
            source="web",
            by=request.user.get_username(),
            ready=ready,
            command=seen.viewer.command,
        )
    except commands.TurnError as exc:
        messages.error(request, str(exc))
        return redirect(_game_url(seen))
    if not result.accepted:
        return render(
            request, "web/game.html", game_context(seen, form=form, order_errors=present.line_errors(result.errors))
        )
    messages.success(request, _accepted_message(result, ready))
    return redirect(_game_url(seen))


@require_http_methods(["GET"])
@seat_required()
def turn_history(request, seen: Seen, number: int):
    """A published turn as this viewer saw it then: the map after its results, and its log."""
    published = seen.published_turns()
    if number not in published:
        raise Http404(_("That turn has not been published."))
    then = seen.as_of(published[number])
    turns_seen = sorted(published)
    # that turn's events only (lines show no numbers), not the whole log
    turn_log = present.log_by_turn(seen, seen.events().filter(turn=number))
    lines = next((g["lines"] for g in turn_log if g["turn"] == number), [])
    return render(
        request,
        "web/turn_history.html",
        {
            "seen": seen,
            "game": seen.game,
            "number": number,
            "svg": present.svg(then),
            "lines": lines,
            "previous": max((n for n in turns_seen if n < number), default=None),
            "next": min((n for n in turns_seen if n > number), default=None),
        },
    )


@require_POST
@seat_required()
def set_absence(request, seen: Seen):
    if seen.viewer.role != "player":
        return HttpResponseBadRequest(_("only a player's seat is away or back"))
    seat = seen.seat
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    elif form.cleaned_data["back"]:
        messages.success(
            request,
            _("Welcome back: reminders start again, and the umpire has been told.")
            if absences.end(seat)
            else _("You had no absence in force; nothing changed."),
        )
    else:
        until = form.cleaned_data["until"]
        try:
            moved = absences.declare(seat, until)
        except absences.AbsenceError as exc:
            messages.error(request, _("Away until %(date)s: %(error)s") % {"date": until.isoformat(), "error": exc})
        else:
            messages.success(
                request,
                _("Away until %(date)s: recorded, and the umpire has been told. No reminders until then.")
                % {"date": until.isoformat()}
                + " "
                + absences.deadline_words(seat, moved),
            )
    return redirect(_game_url(seen))


@require_POST
@seat_required()
def set_ready(request, seen: Seen):
    form = ReadyForm(request.POST)
    if seen.viewer.role != "player" or not form.is_valid():
        return HttpResponseBadRequest(_("not a player"))
    ready = form.cleaned_data["ready"]
    try:
        closed = commands.set_ready(seen.game.pk, seen.viewer.side, ready, command=seen.viewer.command)
    except commands.TurnError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Every side was ready: the turn has closed.")
            if closed
            else (_("Marked ready.") if ready else _("No longer marked ready.")),
        )
    return redirect(_game_url(seen))


@require_http_methods(["GET"])
@seat_required()
def verification(request, seen: Seen):
    """The seeds and dice commitments among the events this viewer sees, to check the dice with
    (kept out of the log's lines, as out of the mailed reports' bodies)."""
    lines = [
        {"turn": e.turn, "text": VERIFY_TEXT[e.type](e.payload)}
        for e in seen.events().filter(type__in=list(VERIFY_TEXT))
    ]
    return render(request, "web/verification.html", {"seen": seen, "game": seen.game, "lines": lines})


@seat_required()
def game_map(request, seen: Seen):
    return maps.svg_response(seen.svg())


# --- the umpire's page ------------------------------------------------------


class UmpireForms:
    """The umpire's forms, unbound until the one that was posted is bound."""

    def __init__(self, seen: Seen, data=None, action: str = ""):
        turn = seen.view["turn"]
        self.used = seen.orders_used() if turn["status"] == TurnStatus.ADJUDICATED else {}

        def bound(name: str):  # the posted data goes to the form of the action posted only
            return data if action == name else None

        self.approve = ApproveForm(bound("approve"), prefix="approve")
        self.amend = AmendForm(bound("amend"), prefix="amend", orders_used=self.used)
        self.submit = OnBehalfForm(bound("submit"), prefix="submit", sides=list(turn["sides"]))
        self.ruling = RulingForm(bound("ruling"), prefix="ruling")
        self.deadline = DeadlineForm(bound("deadline"), prefix="deadline")
        self.replace = ReplacePlayerForm(
            bound("replace"),
            prefix="replace",
            sides=sorted(seen.game.seats.filter(role="player").values_list("side", flat=True)),
        )
        self.address = NewAddressForm(
            bound("address"),
            prefix="address",
            seats=[(str(seat.pk), seats.seat_label(seat)) for seat in seen.game.seats.order_by("role", "side", "pk")],
        )
        self.amend_errors: list[str] = []


def _approve(request, seen: Seen, forms: UmpireForms):
    if not forms.approve.is_valid():
        return None
    commands.approve(seen.game.pk, seen.view["turn"]["number"], note=forms.approve.cleaned_data["note"])
    messages.success(request, _("Turn %(number)s published.") % {"number": seen.view["turn"]["number"]})
    return redirect(_umpire_url(seen))


def _require_status(seen: Seen, status: TurnStatus, message: str) -> None:
    if seen.view["turn"]["status"] != status or seen.view["turn"]["game_status"] != GameStatus.ACTIVE:
        raise commands.TurnError(message)


def _amend(request, seen: Seen, forms: UmpireForms):
    _require_status(
        seen,
        TurnStatus.ADJUDICATED,
        _("turn %(number)s has no results awaiting approval") % {"number": seen.view["turn"]["number"]},
    )
    if not forms.amend.is_valid():
        return None
    changed = forms.amend.orders(forms.used)
    if not changed:
        forms.amend.add_error(None, _("Change some side's orders to amend, or approve the results as they are."))
        return None
    errors = commands.amend(seen.game.pk, seen.view["turn"]["number"], changed, forms.amend.cleaned_data["reason"])
    if errors:
        forms.amend_errors = present.line_errors(errors)
        return None
    messages.success(request, _("Results voided and the turn adjudicated again with the amended orders."))
    return redirect(_umpire_url(seen))


def _close(request, seen: Seen, forms: UmpireForms):
    if commands.close_turn(seen.game.pk, "closed by the umpire"):
        messages.success(request, _("Turn closed."))
    else:
        messages.error(request, _("There is no open turn to close."))
    return redirect(_umpire_url(seen))


def _resend(request, seen: Seen, forms: UmpireForms):
    # Only this game's dead mail: the umpire sees and resends nothing of another game.
    count = outbox.resend(outbox.dead(seen.game))
    messages.success(
        request,
        ngettext("%(count)d message queued again.", "%(count)d messages queued again.", count) % {"count": count},
    )
    return redirect(_umpire_url(seen))


def _submit(request, seen: Seen, forms: UmpireForms):
    _require_status(
        seen, TurnStatus.OPEN, _("turn %(number)s is not open for orders") % {"number": seen.view["turn"]["number"]}
    )
    form = forms.submit
    if not form.is_valid():
        return None
    side, ready = form.cleaned_data["side"], form.cleaned_data["ready"]
    result = commands.submit_orders(
        seen.game.pk, side, form.cleaned_data["text"], source="umpire", by=request.user.get_username(), ready=ready
    )
    if not result.accepted:
        for line in present.line_errors(result.errors):
            form.add_error("text", line)
        return None
    messages.success(request, f"{pgettext('side', side)}: " + _accepted_message(result, ready))
    return redirect(_umpire_url(seen))


def _ruling(request, seen: Seen, forms: UmpireForms):
    if not forms.ruling.is_valid():
        return None
    count, errors = rulings.rule(seen.game.pk, forms.ruling.cleaned_data["text"])
    if errors:
        for line in present.line_errors(errors):
            forms.ruling.add_error("text", line)
        return None
    messages.success(
        request,
        ngettext("Ruling written: %(count)d event.", "Ruling written: %(count)d events.", count) % {"count": count},
    )
    return redirect(_umpire_url(seen))


def _deadline(request, seen: Seen, forms: UmpireForms):
    _require_status(
        seen,
        TurnStatus.OPEN,
        _("turn %(number)s is not open: its deadline cannot move") % {"number": seen.view["turn"]["number"]},
    )
    if not forms.deadline.is_valid():
        return None
    number = seen.view["turn"]["number"]
    new = deadlines.moved_deadline(seen.game.pk, number, forms.deadline.cleaned_data["hours"])
    try:
        deadlines.set_deadline(seen.game.pk, number, new, forms.deadline.cleaned_data["note"])
    except commands.TurnError as exc:
        forms.deadline.add_error("hours", str(exc))
        return None
    messages.success(
        request,
        _("The deadline of turn %(number)s is now %(deadline)s; every player has been told.")
        % {"number": number, "deadline": seen.local(new.isoformat())},
    )
    return redirect(_umpire_url(seen))


def _address(request, seen: Seen, forms: UmpireForms):
    if not forms.address.is_valid():
        return None
    seat = seen.game.seats.get(pk=int(forms.address.cleaned_data["seat"]))
    renew(seat, reason=gettext_noop("replaced by the umpire"))  # a msgid: each seat reads it in its language
    messages.success(
        request,
        _(
            "%(seat)s has a new reply address; the old one is refused from now on, and the "
            "seat has been told from the new one."
        )
        % {"seat": seats.seat_label(seat)},
    )
    return redirect(_umpire_url(seen))


def _replace(request, seen: Seen, forms: UmpireForms):
    form = forms.replace
    if not form.is_valid():
        return None
    user = form.cleaned_data["user"]
    try:
        seats.offer_side(seen.game.pk, form.cleaned_data["side"], user, by=request.user)
    except seats.SeatError as exc:
        form.add_error("username", str(exc))
        return None
    messages.success(
        request,
        _(
            "%(user)s has been offered %(side)s by mail: the side is theirs once they accept, and until then "
            "it stays with its player."
        )
        % {"side": pgettext("side", form.cleaned_data["side"]), "user": user.get_username()},
    )
    return redirect(_umpire_url(seen))


def _rules_version(request, seen: Seen, forms: UmpireForms):
    """The umpire moves the game to a newer version of its rules (campaigns/turns/versions.py);
    TurnError (off a turn boundary, a version not kept) is shown as the page's error."""
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        messages.error(request, _("Choose a version of the rules."))
        return redirect(_umpire_url(seen))
    versions.change_rules_version(seen.game.pk, version, by=request.user.get_username())
    messages.success(request, _("The game is played by version %(v)s of its rules from now on.") % {"v": version})
    return redirect(_umpire_url(seen))


def _retry(request, seen: Seen, forms: UmpireForms):
    """The umpire adjudicates a failed turn again (campaigns/turns/failures.py)."""
    number = failures.retry(seen.game.pk, by=request.user.get_username())
    messages.success(request, _("Turn %(number)s is being adjudicated again.") % {"number": number})
    return redirect(_umpire_url(seen))


UMPIRE_ACTIONS = {
    "retry": _retry,
    "rules_version": _rules_version,
    "approve": _approve,
    "amend": _amend,
    "close": _close,
    "submit": _submit,
    "ruling": _ruling,
    "deadline": _deadline,
    "address": _address,
    "replace": _replace,
    "resend": _resend,
}


@require_http_methods(["GET", "POST"])
@seat_required(umpire_only=True)
def umpire_page(request, seen: Seen):
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms = UmpireForms(seen, request.POST if action else None, action)
    if request.method == "POST":
        handler = UMPIRE_ACTIONS.get(action)
        if handler is None:
            return HttpResponseBadRequest(_("unknown action"))
        try:
            response = handler(request, seen, forms)
        except commands.TurnError as exc:
            messages.error(request, str(exc))
            return redirect(_umpire_url(seen))
        if response is not None:
            return response
    try:
        context = umpire_context(seen, forms, request.GET)
    except BadCursor:
        return _bad_cursor()
    return render(request, "web/umpire.html", context)


def umpire_context(seen: Seen, forms: UmpireForms, query=None) -> dict:
    """The console; its log is the newest page of the filtered log, or the page before ``query``'s
    ``cursor`` (``BadCursor`` if it is not the umpire's for this game)."""
    turn = present.turn_summary(seen)
    log_filter = umpirelog.LogFilter(seen, query or {})
    cursor = (query or {}).get("cursor") or None
    log, older = present.log_page(seen, cursor, log_filter.events())
    awaiting = turn["status"] == TurnStatus.ADJUDICATED
    return {
        "seen": seen,
        "view": seen.view,
        "game": seen.game,
        "turn": turn,
        "forms": forms,
        "awaiting_approval": awaiting,
        "preview_svg": present.svg(seen, "preview") if "preview" in seen.view else "",
        "svg": "" if awaiting else present.svg(seen),
        "pending_log": present.log_by_turn(seen, seen.pending_events()) if awaiting else [],
        "orders_used": sorted(forms.used.items()),
        "submitted": sorted(seen.view["turn"]["orders"].items()),
        "orders_help": in_language(seen.ruleset.orders_help),
        "desk_help": in_language(seen.ruleset.umpire_help) if isinstance(seen.ruleset, UmpireDesk) else "",
        "held_mail": held.held_messages(seen.game).count(),
        "rules_version": seen.rules_version,
        "roster": invitations.roster(seen.game),
        "dead_mail": sorted(set(outbox.dead(seen.game).values_list("to", flat=True))),
        "dead_count": outbox.dead(seen.game).count(),
        "log_filter": log_filter,
        "log": log,
        **log_links(reverse("umpire", args=[seen.game.pk]), older, cursor, log_filter.query()),
    }
