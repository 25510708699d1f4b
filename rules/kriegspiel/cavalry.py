"""Cavalry charges (KS-68..86): the tables of the appendix as arithmetic.

"x per y" in the seed means x men lost for every y men of the other side. Losses are
rounded to the nearest whole figure, halves up (the rounding KS-48 uses for supply;
the seed gives no other), and never exceed the group.

Distance bands (decision, following the wording of each table):
- open order, KS-70:  d > 2 ft "far"; 1 ft <= d <= 2 ft "mid"; d < 1 ft "near"
- close order, KS-71: d >= 2 ft "far"; 1 ft <= d < 2 ft "mid"; d < 1 ft "near"
"""

from __future__ import annotations

import math
from random import Random
from typing import Any

from rules.core.i18n import _
from rules.littlewars.melee import outcome as lw_melee

from .numbers import CHARGE_MIN, FOOT


class ChargeError(ValueError):
    pass


def rnd(x: float) -> int:
    """Nearest whole number, halves up."""
    return int(math.floor(x + 0.5))


def band_open(d: float) -> str:
    return "far" if d > 2 * FOOT else ("mid" if d >= FOOT else "near")


def band_close(d: float) -> str:
    return "far" if d >= 2 * FOOT else ("mid" if d >= FOOT else "near")


# cavalry lose 1 per N infantry / infantry lose K per cavalryman (open order, KS-70)
_OPEN = {"far": (5, 1), "mid": (10, 2), "near": (15, 3)}
# cavalry lose K per infantryman / infantry lose 1 per N cavalry (close order, KS-71)
_CLOSE = {"far": (3, 15), "mid": (2, 10), "near": (1, 5)}


def check_charge(cavalry: int, formed: bool = True) -> None:
    if cavalry < CHARGE_MIN:
        raise ChargeError(
            _(
                "{cavalry} cavalry cannot charge: no group of fewer than {CHARGE_MIN} charges (KS-68)",
                cavalry=cavalry,
                CHARGE_MIN=CHARGE_MIN,
            )
        )
    if not formed:
        raise ChargeError(_("cavalry charge only in proper formation (KS-69): form them first"))


def vs_infantry(cav: int, inf: int, d: float, order: str) -> dict[str, Any]:
    """Losses when ``cav`` cavalry charge ``inf`` infantry from ``d`` inches (KS-70..73, KS-76)."""
    check_charge(cav)
    if order == "open":
        per_inf, per_cav = _OPEN[band_open(d)]
        lost_cav, lost_inf = rnd(inf / per_inf), per_cav * cav
        after = "fall back 1 ft next turn (KS-73)"
    elif order == "close":
        per_inf, per_cav = _CLOSE[band_close(d)]
        lost_cav, lost_inf = per_inf * inf, rnd(cav / per_cav)
        after = "cannot move next turn (KS-72)"
    else:
        raise ChargeError(_("infantry stands in open or close order, not {order}", order=repr(order)))
    return {"cav_lost": min(cav, lost_cav), "inf_lost": min(inf, lost_inf), "after": after}


def vs_retreating_infantry(cav: int, inf: int, d: float, formation: str) -> dict[str, Any]:
    """Infantry caught while withdrawing (KS-82, KS-83). The charging cavalry loses nothing
    (the seed is silent; the English original says so)."""
    check_charge(cav)
    if formation == "open":
        lost = 2 * vs_infantry(cav, inf, d, "open")["inf_lost"]
    elif formation == "column":
        lost = (2 if d > 2 * FOOT else 3) * cav
    else:
        raise ChargeError(
            _("withdrawing infantry is in open order or column, not {formation}", formation=repr(formation))
        )
    return {"cav_lost": 0, "inf_lost": min(inf, lost), "after": _("keeps withdrawing while pursued (KS-84)")}


def vs_standing_cavalry(attackers: int, defenders: int) -> dict[str, Any]:
    """KS-75: cavalry that neither dismounted, charged nor withdrew: 5 lost per attacker and
    15 per attacker fall back 3 ft."""
    check_charge(attackers)
    lost = min(defenders, 5 * attackers)
    return {"att_lost": 0, "def_lost": lost, "fall_back": min(defenders - lost, 15 * attackers)}


def effective(number: int, levels_down: int) -> int:
    """KS-79: charging downhill multiplies the number by levels crossed + 1."""
    return number * (max(0, levels_down) + 1)


def vs_cavalry(att: int, dfn: int, rng: Random, levels_down: int = 0, smaller_isolated: bool = False) -> dict[str, Any]:
    """Cavalry against cavalry (KS-77..79). Equal numbers on level ground: a coin; the loser
    loses 3/4 and withdraws, the winner 1/4. Otherwise the Little Wars melee (LW-35..38) of the
    charger's number multiplied downhill (each real horseman counts as levels + 1 men) against
    the defenders, ``smaller_isolated`` saying whether the smaller side (in that count) is
    isolated (LW-32): an isolated smaller side is partly taken prisoner (KS-78).
    The charger's losses in that count fall on its real figures divided by the multiplier
    (nearest, halves up; decision): 10 horse charging down two levels at 20 count as 30 and,
    losing 20 men's worth, lose 7 horse, not all 10."""
    check_charge(att)
    if att == dfn and levels_down == 0:
        att_wins = rng.random() < 0.5
        win, lose = (att, dfn) if att_wins else (dfn, att)
        res: dict[str, Any] = {"coin": "attacker" if att_wins else "defender"}
        lw, ll = rnd(win / 4), rnd(lose * 3 / 4)
        res.update(
            att_lost=lw if att_wins else ll,
            def_lost=ll if att_wins else lw,
            att_captured=0,
            def_captured=0,
            withdraws="defender" if att_wins else "attacker",
        )
        return res
    mult = max(0, levels_down) + 1
    out = lw_melee(att * mult, dfn, smaller_isolated)
    att_killed, att_captured = rnd(out["a_killed"] / mult), rnd(out["a_captured"] / mult)
    att_captured = min(att_captured, att - min(att, att_killed))
    return {
        "coin": None,
        "att_lost": min(att, att_killed + att_captured),
        "att_captured": att_captured,
        "def_lost": min(dfn, out["b_killed"] + out["b_captured"]),
        "def_captured": out["b_captured"],
        "withdraws": None,
    }


def vs_guns(cav: int, d: float) -> dict[str, Any]:
    """KS-85: cavalry charging guns with no other forces near: one gun taken; cavalry lose 4 / 3 / 1."""
    check_charge(cav)
    lost = 4 if d > 2 * FOOT else (3 if d >= FOOT else 1)
    return {"cav_lost": min(cav, lost), "guns_taken": 1}


REACTIONS = ("dismount", "charge", "withdraw", "stand")


def reaction_error(reaction: str) -> str | None:
    """KS-74: cavalry within the enemy's charge reach must dismount, charge or withdraw (standing order)."""
    if reaction not in REACTIONS:
        return f"a cavalry reaction is one of {', '.join(REACTIONS[:3])} (KS-74), not {reaction!r}"
    return None
