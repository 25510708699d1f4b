"""Forms of the web pages: orders, the umpire's commands, a new game."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import get_language_info, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import render
from campaigns.models import Campaign
from campaigns.turns import absences, commands
from campaigns.turns.lifecycle import DEFAULT_SETTINGS
from campaigns.turns.mailaddress import verified_address
from campaigns.turns.press import PRESS_CHOICES, PRESS_DEFAULT
from rules import catalog

ORDERS_WIDGET = forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off", "class": "orders"})


class OrdersForm(forms.Form):
    text = forms.CharField(
        label=_("Your orders"), widget=ORDERS_WIDGET, required=False, max_length=commands.MAX_ORDERS_CHARS
    )
    ready = forms.BooleanField(label=_("Ready: close the turn when every side is ready"), required=False, initial=False)


class ProfileForm(forms.Form):
    """A player's own settings: the time zone deadlines are shown in and the language, on the web and in mail."""

    timezone = forms.ChoiceField(
        label=_("Time zone"), help_text=_("Deadlines on every page and in every report use it.")
    )
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[
            ("", _("As my browser asks")),  # each language in its own words
            *((code, get_language_info(code)["name_local"]) for code, _n in settings.LANGUAGES),
        ],
        help_text=_("Your pages and your seats' mail are written in it."),
    )

    def __init__(self, *args, **kwargs):
        import zoneinfo

        super().__init__(*args, **kwargs)
        zones = sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC")
        self.fields["timezone"].choices = [(z, z) for z in zones]


class AddressForm(forms.Form):
    """A user's own mail address: it is used once confirmed by the link mailed to it."""

    email = forms.EmailField(
        label=_("Your mail address"),
        help_text=_("We mail it a link; it is used for your seats once you follow that link."),
    )


class InvitationForm(forms.Form):
    """Accept or decline an invitation (a POST, so a mail scanner following the link changes nothing)."""

    answer = forms.ChoiceField(choices=[("accept", _("accept")), ("decline", _("decline"))])


class InviteForm(forms.Form):
    """Invite someone to a free seat (the creator or the umpire)."""

    seat = forms.ChoiceField(label=_("Seat"))
    username = forms.CharField(label=_("Invite (username)"), max_length=150)

    def __init__(self, *args, seats: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: name}).first()
        if user is None:
            raise forms.ValidationError(_("There is no user called '%(name)s'.") % {"name": name})
        return user


class ReadyForm(forms.Form):
    ready = forms.BooleanField(required=False)


class AbsenceForm(forms.Form):
    """A player away: no reminders through that date (and, with the game's allowance, later deadlines)."""

    until = forms.DateField(
        label=_("Away until (your own date)"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    back = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if not data.get("back") and not data.get("until"):
            raise forms.ValidationError(_("Give the last day you are away, or say you are back."))
        return data


class ApproveForm(forms.Form):
    note = forms.CharField(label=_("Note to the players (optional)"), required=False, max_length=500)


class AmendForm(forms.Form):
    """One textarea per side whose orders were used, plus the reason."""

    reason = forms.CharField(label=_("Reason (kept in the umpire's log)"), max_length=500)

    def __init__(self, *args, orders_used: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = list(orders_used)
        for side, text in orders_used.items():
            self.fields[f"orders_{side}"] = forms.CharField(
                label=_("Orders of %(side)s") % {"side": side}, initial=text, required=False, widget=ORDERS_WIDGET
            )

    def side_fields(self):
        return [self[f"orders_{side}"] for side in self.sides]

    def orders(self, original: dict[str, str]) -> dict[str, str]:
        """Only the sides the umpire changed."""
        out = {}
        for side in self.sides:
            text = self.cleaned_data[f"orders_{side}"]
            if text.replace("\r\n", "\n").strip() != (original.get(side) or "").strip():
                out[side] = text
        return out


class DeadlineForm(forms.Form):
    """Move the open turn's deadline by some hours (negative: earlier)."""

    hours = forms.FloatField(
        label=_("Move the deadline by (hours; negative brings it forward)"), min_value=-24 * 30, max_value=24 * 60
    )
    note = forms.CharField(label=_("Note every player reads with it (optional)"), required=False, max_length=200)


class ReplacePlayerForm(forms.Form):
    """Hand a side to another player (a standby)."""

    side = forms.ChoiceField(label=_("Side"))
    username = forms.CharField(
        label=_("New player (username)"),
        max_length=150,
        help_text=_("Their seat's mail goes to the address they confirmed themselves."),
    )

    def __init__(self, *args, sides: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(s, pgettext_lazy("side", s)) for s in sides]

    def clean(self):
        data = super().clean()
        name = data.get("username")
        if name:
            user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: name}).first()
            if user is None:
                self.add_error("username", _("There is no user called '%(name)s'.") % {"name": name})
            elif not verified_address(user):
                self.add_error(
                    "username",
                    _("%(name)s has not confirmed a mail address yet (on their settings page).") % {"name": name},
                )
            data["user"] = user
        return data


class NewAddressForm(forms.Form):
    """Replace a seat's secret reply address (the old one leaked, was forwarded, quoted...)."""

    seat = forms.ChoiceField(label=_("Seat"))

    def __init__(self, *args, seats: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats


class RulingForm(forms.Form):
    """The umpire's desk: umpire-only orders the rule set checks line by line (all or nothing)."""

    text = forms.CharField(label=_("Umpire's orders"), widget=ORDERS_WIDGET)


class OnBehalfForm(forms.Form):
    side = forms.ChoiceField(label=_("Side"))
    text = forms.CharField(label=_("Orders"), widget=ORDERS_WIDGET)
    ready = forms.BooleanField(label=_("Mark the side ready"), required=False, initial=False)

    def __init__(self, *args, sides: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(s, pgettext_lazy("side", s)) for s in sides]


# --- a new game -----------------------------------------------------------


def _usernames(text: str) -> list[str]:
    return [u for u in (part.strip() for part in text.replace(",", " ").split()) if u]


def all_sides() -> list[str]:
    """Every side of every rule set, in a stable order (fields are per side)."""
    out: list[str] = []
    for name in catalog.names():
        out += [s for s in catalog.get(name).sides if s not in out]
    return out


def scenario_choices() -> list:
    """Optgroups per rule set; a value is 'ruleset:scenario' ('ruleset:' its default), so the page
    works without a script and the pair is checked on the server."""
    groups = []
    for name in catalog.names():
        rs = catalog.get(name)
        groups.append(
            (
                rs.title,
                [(f"{name}:", _("%(title)s: its default scenario") % {"title": rs.title})]
                + [(f"{name}:{sc}", f"{title} ({sc})") for sc, title in rs.scenarios()],
            )
        )
    return groups


def option_field(rs, option) -> forms.Field:
    # a label the rule set marked for translation (rules.core.i18n) is read in the reader's language
    label = _("%(option)s (%(title)s only)") % {"option": render(option.label), "title": rs.title}
    if option.choices:
        return forms.ChoiceField(
            label=label, required=False, initial=option.default, choices=[("", "—")] + list(option.choices)
        )
    return forms.BooleanField(label=label, required=False, initial=option.default)


class NewGameForm(forms.Form):
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(), required=False, empty_label=_("— a new campaign —"), label=_("Campaign")
    )
    new_campaign = forms.CharField(label=_("New campaign name"), max_length=200, required=False)
    name = forms.CharField(label=_("Game name"), max_length=200)
    ruleset = forms.ChoiceField(label=_("Rule set"))
    scenario = forms.ChoiceField(
        label=_("Scenario"),
        required=False,
        help_text=_("One of the chosen rule set's scenarios; none chosen: its default."),
    )
    umpire = forms.CharField(label=_("Umpire (username)"), max_length=150)
    observers = forms.CharField(label=_("Observers (usernames, comma separated)"), required=False)
    deadline_hours = forms.FloatField(
        label=_("Deadline for a turn (hours)"), min_value=0.01, initial=DEFAULT_SETTINGS["deadline_hours"]
    )
    decision_deadline_hours = forms.FloatField(
        label=_("Deadline for a decision turn (hours)"),
        min_value=0.01,
        initial=DEFAULT_SETTINGS["decision_deadline_hours"],
    )
    ready_delay_seconds = forms.IntegerField(
        label=_("Delay after all sides are ready (seconds)"),
        min_value=0,
        initial=DEFAULT_SETTINGS["ready_delay_seconds"],
    )
    grace_hours = forms.FloatField(
        label=_("Grace after a missed deadline (hours)"),
        min_value=0,
        max_value=168,
        required=False,
        initial=DEFAULT_SETTINGS["grace_hours"],
        help_text=_(
            "0: a side without orders at the deadline gets its default orders at once. Else it is told and "
            "the turn waits this long for it."
        ),
    )
    require_approval = forms.BooleanField(
        label=_("The umpire approves every turn's results before they are published"),
        required=False,
        initial=DEFAULT_SETTINGS["require_approval"],
    )
    absence_days = forms.IntegerField(
        label=_("Days each side's absences may push deadlines back, in all"),
        min_value=0,
        max_value=absences.MAX_DAYS,
        initial=DEFAULT_SETTINGS["absence_days"],
        required=False,
        help_text=_("0: an absence (ABSENT UNTIL by mail) only stops reminders; the umpire moves deadlines."),
    )
    umpire_plays = forms.BooleanField(
        label=_("The umpire also plays"),
        required=False,
        initial=DEFAULT_SETTINGS["umpire_plays"],
        help_text=_(
            "Only then may the umpire also hold a side; the umpire sees every side's orders. Every invitation "
            "and the game page say so."
        ),
    )
    press = forms.ChoiceField(
        label=_("Messages between seats (MESSAGE by mail)"),
        choices=PRESS_CHOICES,
        initial=PRESS_DEFAULT,
        required=False,
        help_text=_("Who a player may write to through the game's mail address."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["campaign"].queryset = (
            (Campaign.objects.filter(created_by=user) | Campaign.objects.filter(games__seats__user=user))
            .distinct()
            .order_by("name")
        )
        self.fields["ruleset"].choices = [(n, f"{catalog.get(n).title} ({n})") for n in catalog.names()]
        self.fields["scenario"].choices = [("", _("— the rule set's default —"))] + scenario_choices()
        self.fields["umpire"].initial = user.get_username()
        self.options = [(name, opt) for name in catalog.names() for opt in catalog.get(name).game_options]
        for name, opt in self.options:
            self.fields[f"option_{name}_{opt.name}"] = option_field(catalog.get(name), opt)
        self.sides = all_sides()
        for side in self.sides:
            self.fields[f"player_{side}"] = forms.CharField(
                label=_("%(side)s player (username)") % {"side": side.capitalize()},
                max_length=600,
                required=False,
                help_text=_("Several players a side (Little Wars, Kriegspiel): 'bob as commander, frank as cavalry'."),
            )
            self.fields[f"commands_{side}"] = forms.CharField(
                label=_("%(side)s commands") % {"side": side.capitalize()},
                max_length=600,
                required=False,
                help_text=_(
                    "With several players: each command's groups and guns, e.g. "
                    "'infantry: foot1 foot2; cavalry: horse gun1'. The commander orders the whole side."
                ),
            )

    def option_rows(self):
        """[(rule set title, [bound fields])] of the rule sets that have game options."""
        rows: dict[str, list] = {}
        for name, opt in self.options:
            rows.setdefault(catalog.get(name).title, []).append(self[f"option_{name}_{opt.name}"])
        return list(rows.items())

    def game_options(self) -> dict:
        """{option: value} of the chosen rule set's options that were set."""
        d, ruleset = self.cleaned_data, self.cleaned_data["ruleset"]
        return {
            opt.name: d[f"option_{name}_{opt.name}"]
            for name, opt in self.options
            if name == ruleset and d.get(f"option_{name}_{opt.name}")
        }

    def scenario_name(self) -> str | None:
        """The chosen scenario's name (None: the rule set's default)."""
        return (self.cleaned_data.get("scenario") or "").partition(":")[2] or None

    def _check_scenario(self, data: dict, ruleset: str) -> None:
        """A scenario and options of another rule set are refused, naming the field."""
        owner = (data.get("scenario") or "").partition(":")[0]
        if owner and owner != ruleset:
            self.add_error(
                "scenario",
                _("That scenario belongs to %(owner)s, not to %(ruleset)s: choose one listed under it, or its default.")
                % {"owner": catalog.get(owner).title, "ruleset": catalog.get(ruleset).title},
            )
        for name, opt in self.options:
            if name != ruleset and data.get(f"option_{name}_{opt.name}"):
                self.add_error(
                    f"option_{name}_{opt.name}",
                    _("This option is for %(title)s only.") % {"title": catalog.get(name).title},
                )

    def side_rows(self):
        return [(side, self[f"player_{side}"], self[f"commands_{side}"]) for side in self.sides]

    def commands(self) -> dict:
        """{side: {command: [names]}} from the commands fields (LW-61, KS-9)."""
        out = {}
        for side in self.sides:
            text = (self.cleaned_data.get(f"commands_{side}") or "").strip()
            if text:
                out[side] = {
                    c.split(":", 1)[0].strip(): c.split(":", 1)[1].replace(",", " ").split()
                    for c in text.split(";")
                    if c.strip()
                }
        return out

    def _players(self, side: str, text: str) -> list[dict]:
        """'bob' (the whole side) or 'bob as commander, frank as cavalry'."""
        seats = []
        for part in [p.strip() for p in text.split(",") if p.strip()]:
            username, _, command = (w.strip() for w in part.partition(" as "))
            user = self._user(f"player_{side}", username)
            if user:
                seats.append(
                    {"role": "player", "side": side, "user": user, **({"command": command} if command else {})}
                )
        return seats

    # -- validation ------------------------------------------------------
    def _user(self, field: str, username: str):
        try:
            return get_user_model().objects.get(**{get_user_model().USERNAME_FIELD: username})
        except get_user_model().DoesNotExist:
            self.add_error(field, _("There is no user called '%(name)s'.") % {"name": username})
            return None

    def clean(self):
        data = super().clean()
        if not data.get("campaign") and not data.get("new_campaign", "").strip():
            self.add_error("new_campaign", _("Choose a campaign or name a new one."))
        ruleset = data.get("ruleset")
        seats = []
        if data.get("umpire"):
            umpire = self._user("umpire", data["umpire"].strip())
            if umpire:
                seats.append({"role": "umpire", "user": umpire})
        if ruleset:
            self._check_scenario(data, ruleset)
            for side in catalog.get(ruleset).sides:
                username = (data.get(f"player_{side}") or "").strip()
                if not username:
                    self.add_error(
                        f"player_{side}",
                        _("%(ruleset)s needs a %(side)s player.")
                        % {"ruleset": catalog.get(ruleset).title, "side": side},
                    )
                    continue
                seats += self._players(side, username)
        for username in _usernames(data.get("observers") or ""):
            user = self._user("observers", username)
            if user:
                seats.append({"role": "observer", "user": user})
        for side in self.sides:
            text = data.get(f"commands_{side}") or ""
            if any(":" not in c for c in text.split(";") if c.strip()):
                self.add_error(
                    f"commands_{side}", _("Write each command as 'name: group group gun', separated by ';'.")
                )
        data["seats"] = seats
        return data

    def settings(self) -> dict:
        d = self.cleaned_data
        return {
            **{
                key: d[key]
                for key in (
                    "deadline_hours",
                    "decision_deadline_hours",
                    "ready_delay_seconds",
                    "require_approval",
                    "umpire_plays",
                )
            },
            "absence_days": d.get("absence_days") or 0,
            "grace_hours": d.get("grace_hours") or 0.0,
            "press": d.get("press") or PRESS_DEFAULT,
        }

    def campaign_obj(self) -> Campaign:
        d = self.cleaned_data
        return d["campaign"] or Campaign.objects.create(name=d["new_campaign"].strip(), created_by=self.user)
