"""Rules of thumb for the report's Answers: a few short rules per game, each one chart
cell told in words, with its number, its 95% interval and its verdict under the other players.

A rule is a plain dict (it goes into the analysis's ``reports/tables/<name>.json`` as
``"rules_of_thumb"``, a list; ``"rules"`` there already names the game's rule options):

* ``game``: the game's name for people ("Vint", "501", "Five Hundred");
* ``text``: the advice, a template filled from one table row ("Dealer with 13-15 points and a
  balanced hand: bid 1NT");
* ``value`` / ``lo`` / ``hi``: the gain of the advised option over the option it is compared with
  and its 95% interval, in ``unit``; ``versus``: that option in words ("over 1S");
  ``number``: value, versus and interval as the page prints them;
* ``holds``: ``"holds"`` (never clearly beaten under another player profile, with the power
  stated), ``"depends"`` (clearly beaten under some: ``flips_under`` names them; the charts' †
  mark), ``"undecided"`` (not clearly beaten, but the replay's power below 80%: not decidable at
  this size) or ``"untested"`` (no robustness columns); ``power``: the replay's power, or None;
* ``worth`` / ``worth_unit``: what the rule is worth, by which the rules are ordered (e.g. score
  points per deal dealt: the gain times how often the hand comes); ``order``: that in words;
* ``table`` / ``row`` / ``columns`` / ``sign``: where the numbers come from: ``value``, ``lo``,
  ``hi`` are ``sign`` times the row's ``columns`` (``row``: its position in the table as written,
  0-based), ``lo`` and ``hi`` swapped when ``sign`` is -1;
* ``group``: the situation the rule belongs to (:func:`pick` takes the best of each first);
* ``holds_table`` / ``holds_row``: the chart row whose robustness columns give ``holds``;
  ``holds_prefix``: those columns' prefix in that row ('' for the plain :data:`robustness.COLUMNS`);
* what the rule settles for a player (:data:`RULE`, :func:`pick`): ``players`` (who among the
  players makes the call the rule beats: "the default players", "the bold players", "the previous
  default" … ; '' for a call no player makes), ``moved_from`` (the previous default's best call where it differs, else ''),
  ``close`` (a close call decided clearly, set by :func:`pick`), ``settles`` (how many of the
  three) and ``settles_text`` (them in words).

Only a cell whose best option is clearly best (the chart's own verdict) becomes a rule.
"""
from __future__ import annotations

import json
import math
import statistics

from cardsim.analysis import robustness as RB

MAX_RULES = 6
"""Rules per game at most."""
PER_GROUP = 2
"""Rules per group (chart, trump count, own score …) at most: six rules cover several situations."""
HOLDS, DEPENDS, UNTESTED, UNDECIDED = "holds", "depends", "untested", "undecided"
DEFAULT_PLAYERS = "the default players"
"""How a rule names the default strategy as the maker of the call it beats."""
PREVIOUS = "previous"
"""The player profile that is the previous default (cardsim profiles GAME): where its best call differs
from the chart's, the answer moved."""
RULE = ("An answer ranks by what it settles for a player, one point each: the call it beats is one the players "
        "themselves make with that hand (the default strategy's usual call, or a player profile's own best), the "
        "best call moved from the previous default's, and a close call decided clearly (a gain below the median "
        "of the clear gains it is chosen among, its 95% interval above 0); ties by {order}.")
"""The choice rule of the Answers in one sentence (``{order}``: the chart's worth in words)."""


def verdict(row) -> tuple[str, str]:
    """``(holds, flips_under)`` of a chart row: :data:`UNTESTED` without the robustness columns
    (or a row not replayed: ``robust_deals`` 0), :data:`UNDECIDED` where the replay was not
    decidable at its size (``robust_verdict``, :func:`cardsim.analysis.robustness.replay`),
    :data:`DEPENDS` where the best option is clearly beaten under some profile
    (:func:`cardsim.analysis.robustness.depends`), else :data:`HOLDS`."""
    get = row.get if hasattr(row, "get") else lambda k, d=None: getattr(row, k, d)
    holds = get("holds", None)
    if get("robust_deals", 1) != 0 and RB.undecided(row):
        return UNDECIDED, ""
    if holds is None or holds != holds or (get("robust_deals", 1) == 0):
        return UNTESTED, ""
    return (DEPENDS, str(get("flips_under", "") or "")) if RB.depends(row) else (HOLDS, "")


def rule(game: str, text: str, table: str, row: int, columns: tuple[str, str, str], values: tuple, unit: str,
         versus: str, fmt: str, worth: float, worth_unit: str, order: str, group: str, robust_row,
         sign: float = 1.0, robust_at: tuple[str, int] | None = None, holds_prefix: str = "",
         players: str = "", moved_from: str = "") -> dict:
    """One rule (the module's docstring gives the fields).  ``values``: the row's values of
    ``columns`` (value, lo, hi) as read from the table; ``fmt``: how a number is printed
    (``"{:+.0f}"``); ``robust_row``: the row whose robustness columns give ``holds``, at
    ``robust_at`` (table, row; default the rule's own table and row: ``holds_table`` /
    ``holds_row``); ``holds_prefix``: where that row keeps this rule's robustness columns under a
    prefix (``"points_"``: ``points_holds`` …, a second option judged by another outcome; ``robust_row``
    is then those columns under their plain names); ``players``: who makes the call the rule beats
    ('' for nobody: :func:`players_of`), ``moved_from``: the previous default's best where it
    differs (:func:`moved_from`)."""
    v, lo, hi = (float(x) for x in values)
    if sign < 0:
        v, lo, hi = -v, -hi, -lo
    v, lo, hi = v + 0.0, lo + 0.0, hi + 0.0  # no -0
    holds, flips = verdict(robust_row)
    get = robust_row.get if hasattr(robust_row, "get") else lambda k, d=None: getattr(robust_row, k, d)
    power = get(holds_prefix + "power", None) if holds_prefix else get("power", None)
    number = f"{fmt.format(v)} {unit} {versus} [{fmt.format(lo)}, {fmt.format(hi)}]"
    return {"game": game, "text": text, "value": v, "lo": lo, "hi": hi, "unit": unit, "versus": versus,
            "number": number, "holds": holds, "flips_under": flips, "worth": float(worth), "worth_unit": worth_unit,
            "order": order, "table": table, "row": int(row), "columns": list(columns), "sign": float(sign),
            "group": group, "holds_table": (robust_at or (table, row))[0],
            "holds_row": int((robust_at or (table, row))[1]), "holds_prefix": holds_prefix,
            "power": None if power is None or power != power else float(power),
            "players": str(players), "moved_from": str(moved_from), "close": False}


def call_text(value) -> str:
    """A call, level or option as the tables write it, for comparing: '' for a missing one, ``7``
    for 7.0, else the text stripped."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def profile_bests(value) -> dict[str, str]:
    """Each profile's own best option of a cell (the ``best_under`` column the robust replay adds):
    a dict, a JSON object, or text ``name: call; name: call`` (``=`` and ``,`` also read); missing
    or empty: ``{}``.  Raises ValueError for text that names no profile."""
    if isinstance(value, dict):
        return {str(k): call_text(v) for k, v in value.items() if call_text(v)}
    text = call_text(value)
    if not text:
        return {}
    if text.startswith("{"):
        return profile_bests(json.loads(text))
    out = {}
    for part in text.replace(";", ",").split(","):
        name, sep, call = part.replace("=", ":").partition(":")
        if not sep or not name.strip():
            raise ValueError(f"best_under: cannot read {part.strip()!r} as 'profile: call'")
        if call.strip():
            out[name.strip()] = call.strip()
    return out


def players_of(compared, default_call=None, bests: dict[str, str] | None = None) -> str:
    """Who among the players makes ``compared`` (the call a rule beats) with the cell's hands: the
    default strategy (``default_call``: its usual call there; :data:`DEFAULT_PLAYERS`) and the
    profiles whose own best it is (``bests``, :func:`profile_bests`; its ``default`` entry, the
    default players' best on the replay's deals, is the chart's own best and not another player),
    comma-separated; '' for a call no player makes (as far as the tables know)."""
    call = call_text(compared)
    who = [DEFAULT_PLAYERS] if call and call == call_text(default_call) else []
    return ", ".join(who + [profile_words(name) for name, b in (bests or {}).items()
                            if call and b == call and name != "default"])


def profile_words(name: str) -> str:
    """A player profile as a rule names it: 'the previous default', 'the bold players'."""
    return "the previous default" if name == PREVIOUS else f"the {name} players"


def moved_from(best, bests: dict[str, str] | None) -> str:
    """The previous default's best call where it differs from ``best`` (the :data:`PREVIOUS`
    profile's, from :func:`profile_bests`), else ''."""
    before = (bests or {}).get(PREVIOUS, "")
    return before if before and before != call_text(best) else ""


def settles(r: dict) -> int:
    """How many of the three things of :data:`RULE` a rule settles (0-3)."""
    return int(bool(r.get("players"))) + int(bool(r.get("moved_from"))) + int(bool(r.get("close")))


def settles_text(r: dict) -> str:
    """What a rule settles, in words ('' for none): "beats the call of the default players; moved
    from 1H under the previous default; a close call decided clearly"."""
    parts = []
    if r.get("players"):
        parts.append(f"beats the call of {r['players']}")
    if r.get("moved_from"):
        parts.append(f"moved from {r['moved_from']} under the previous default")
    if r.get("close"):
        parts.append("a close call decided clearly")
    return "; ".join(parts)


def pick(rules: list[dict], k: int = MAX_RULES, per_group: int = PER_GROUP) -> list[dict]:
    """At most ``k`` rules ordered by :data:`RULE`: by how many things they settle
    (:func:`settles`), then by worth (highest first; a tie keeps the given order), at most
    ``per_group`` from one group, so that the few rules cover several situations.  ``close`` is
    set here: a gain (``value``) below the median of every candidate's, its interval above 0 (every
    candidate is a clear cell; a lone candidate is not close).  Rules with a missing or infinite
    worth are left out.  Each rule chosen gets ``settles`` and ``settles_text``."""
    finite = [r for r in rules if math.isfinite(r["worth"])]
    median = statistics.median(r["value"] for r in finite) if len(finite) > 1 else -math.inf
    for r in finite:
        r["close"] = bool(r["value"] < median and r["lo"] > 0)
        r["settles"] = settles(r)
        r["settles_text"] = settles_text(r)
    ranked = sorted(finite, key=lambda r: (-r["settles"], -r["worth"]))
    chosen, taken = [], {}
    for r in ranked:
        if len(chosen) == k:
            break
        if taken.get(r["group"], 0) < per_group:
            chosen.append(r)
            taken[r["group"]] = taken.get(r["group"], 0) + 1
    return chosen


def rank_key(r: dict) -> tuple:
    """The order of :func:`pick` (and of the report's Answers): more things settled first, then worth."""
    return (-r.get("settles", settles(r)), -r["worth"])


def holds_text(r: dict, profiles: int | None = None) -> str:
    """The rule's verdict under the other players in words."""
    power = r.get("power")
    power = f"power {power:.0%}" if power is not None and power == power else ""
    if r["holds"] == HOLDS:
        inside = ", ".join(x for x in (f"{profiles} profiles" if profiles else "", power) if x)
        return "holds under the other players" + (f" ({inside})" if inside else "")
    if r["holds"] == DEPENDS:
        return f"{RB.DEPENDS} depends on the players (clearly beaten under {r['flips_under']})"
    if r["holds"] == UNDECIDED:
        return "not decidable under the other players at this size" + (f" ({power})" if power else "")
    return "not replayed under other players"


__all__ = ["MAX_RULES", "PER_GROUP", "HOLDS", "DEPENDS", "UNTESTED", "UNDECIDED", "DEFAULT_PLAYERS", "PREVIOUS", "RULE",
           "verdict", "rule", "call_text", "profile_bests", "players_of", "profile_words", "moved_from", "settles", "settles_text",
           "pick", "rank_key", "holds_text"]
