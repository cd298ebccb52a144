"""Strategy registry: ``name -> (id, parameter defaults, one-line doc)`` per game.

DESIGN.md property 4.  The jitted engine dispatches on an integer strategy id per seat and
passes that seat's row of a ``float64[seats, N_PARAMS]`` parameter matrix; a sweep changes
the matrix, never the code.  A strategy spec as users write it is ``NAME`` or
``NAME:param=value,param=value`` (e.g. ``heuristic:margin=-2``).

The parameter row (float64[N_PARAMS]) has two parts:

* entries ``0 .. N_NAMED - 1``: the strategy's named parameters, in registration order (at most
  N_NAMED; unused entries 0), each a number written ``name=value`` in the spec;
* entries ``TABLE_START .. N_PARAMS - 1`` (TABLE_LEN of them): the table block, for a strategy
  registered with one :class:`Table` parameter, a policy too big for named numbers (501's
  ``chart`` strategy: a blind level per situation of the decision chart).  Its value is one
  text token in the spec (``chart:cells=0120…``), decoded by the table's ``parse``, so the spec
  string still identifies the policy completely (run manifests and result caches key on specs).
  Strategies without a table leave the block 0.

Why one wide row rather than a second array: every kernel, dispatch function and test already
passes ``float64[seats, N_PARAMS]``; a wider row changes no signature (the row is a view, its
length costs nothing per decision).
"""
from __future__ import annotations

import functools
import importlib
import re

from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from cardsim.text import quote

N_NAMED = 20
"""At most this many named parameters per strategy: row entries ``0 .. N_NAMED - 1`` (the most
used: 501's ``pimc``, 19, the heuristic's 12 and the search's 7)."""
TABLE_START = N_NAMED
"""First row entry of the table block (see the module docstring)."""
TABLE_LEN = 4096
"""Entries in the table block: room for one table parameter of up to this many numbers (a rule
file of about 200 rules, docs/rules-files.md: the full report's four Vint charts as one file, 114 rules,
take 2,022; 501's chart takes 126).  Only Python code reads it: the jitted code reads rows from
TABLE_START on, so its size costs no compile and no speed."""
N_PARAMS = N_NAMED + TABLE_LEN
"""Length of every strategy's parameter row, float64[N_PARAMS] (unused entries are 0)."""


def number_text(x: float) -> str:
    """A parameter value ``x`` (int or float) as messages and strategy specs write it: a whole
    number in full (2147483647, not 2.14748e+09), else up to 12 significant digits (``0.35``)."""
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else f"{x:.12g}"


def accepted_values(bounds, kind) -> str:
    """The values a parameter with ``bounds`` ((lo, hi), or None: any) and ``kind`` ("int",
    "bool" or None) accepts, in words, for messages and ``cardsim strategies``."""
    lo, hi = bounds or (-np.inf, np.inf)
    if kind == "bool":
        return "0 or 1 (no / yes)"
    what = "a whole number" if kind == "int" else "a number"
    return f"{what} from {number_text(lo)} to {number_text(hi)}" if np.isfinite(lo) or np.isfinite(hi) else what


def admits(value: float, bounds, kind) -> bool:
    """Whether a parameter with ``bounds`` ((lo, hi), or None) and ``kind`` ("int", "bool" or
    None) takes ``value``: inside the bounds, and whole for a whole-number or yes/no kind."""
    lo, hi = bounds or (-np.inf, np.inf)
    return lo <= value <= hi and (kind not in ("int", "bool") or value == int(value))


class StrategyError(ValueError):
    """An unknown strategy, an unknown parameter, a value that is not a number, or a strategy id
    that no dispatch branch handles."""


UNHANDLED = "cardsim: no dispatch branch handles this strategy id"
"""First argument of the ``ValueError`` a jitted dispatch function raises for an id it has no
branch for, through :func:`cardsim.strategies.unhandled.unhandled`: ``ValueError(UNHANDLED,
DECISION, sid, seat)`` with ``DECISION`` the decision's name (``"call"``, ``"card"`` …).
:func:`strategy_errors` turns it into a :class:`StrategyError`."""


def unhandled_error(game: str, exc: BaseException):
    """The :class:`StrategyError` for a dispatch's ``ValueError(UNHANDLED, decision, sid, seat)``,
    or None when ``exc`` is another error."""
    args = getattr(exc, "args", ())
    if isinstance(exc, ValueError) and len(args) == 4 and args[0] == UNHANDLED:
        _, decision, sid, seat = args
        return StrategyError(f"{game}: no dispatch branch handles strategy id {int(sid)} "
                             f"(seat {int(seat)}, decision {decision!r}); add a branch to the game's dispatch module")
    return None


def strategy_errors(game: str, func):
    """``func`` wrapped so that an unhandled strategy id surfaces as a one-line StrategyError."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ValueError as exc:
            err = unhandled_error(game, exc)
            if err is None:
                raise
            raise err from None

    return wrapper


@dataclass(frozen=True)
class Table:
    """A table parameter: one text token of the spec (``name=TEXT``) that fills the row's table
    block.

    ``parse(text) -> float64[k]`` (k <= TABLE_LEN) decodes it and raises ValueError with a
    one-line reason (resolve turns it into a StrategyError naming the strategy and parameter);
    ``default``: the text used when the spec does not give it; ``doc``: its meaning (one line,
    shown by ``cardsim strategies GAME``); ``summary(text) -> str``: a short description of a
    value for that listing (the token itself may be long).
    """

    name: str
    parse: Callable[[str], np.ndarray]
    default: str
    doc: str = ""
    summary: Callable[[str], str] = str

    def block(self, text: str, strategy: str) -> np.ndarray:
        """The table block (float64[k]) of ``text``; raises a one-line StrategyError."""
        try:
            values = np.asarray(self.parse(text), dtype=np.float64)
        except ValueError as exc:
            raise StrategyError(f"parameter {quote(self.name)} of {quote(strategy)}: {exc}") from None
        if values.ndim != 1 or len(values) > TABLE_LEN:
            raise ValueError(f"table {self.name!r} of {strategy!r} must decode to a row of at most {TABLE_LEN} numbers")
        return values


KINDS = ("real", "int", "bool")
"""The kinds of a tunable parameter (:class:`Tunable`): a real number, a whole number, 0/1."""


@dataclass(frozen=True)
class Tunable:
    """A parameter a tuner may move (``cardsim exploit`` / ``cardsim tune``): over
    ``lo .. hi`` (inclusive, inside the parameter's accepted bounds) by ``step``, the smallest
    change a player would notice (in the parameter's unit); ``kind`` is the parameter's kind
    (one of :data:`KINDS`; a whole-number or yes/no parameter moves by whole steps)."""

    name: str
    lo: float
    hi: float
    step: float
    kind: str = "real"

    def describe(self) -> str:
        """``"tunable -3 to 3, step 0.25"``: the range and step, for listings and messages."""
        return f"tunable {number_text(self.lo)} to {number_text(self.hi)}, step {number_text(self.step)}"

    def moves(self, value: float) -> list[float]:
        """The values one step below and one step above ``value`` that lie inside ``lo .. hi``
        (float64, ascending; rounded to 12 significant digits so that 0.1 + 0.2 reads 0.3)."""
        out = []
        for v in (value - self.step, value + self.step):
            v = float(f"{v:.12g}")
            if self.lo - 1e-12 <= v <= self.hi + 1e-12:
                out.append(v)
        return out

    def check(self, value: float, strategy: str) -> None:
        """Raise a one-line :class:`StrategyError` when ``value`` lies outside ``lo .. hi``."""
        if not self.lo - 1e-12 <= value <= self.hi + 1e-12:
            raise StrategyError(f"parameter {quote(self.name)} of {quote(strategy)} is {number_text(value)}, outside "
                                f"its tunable range {number_text(self.lo)} to {number_text(self.hi)}")


@dataclass(frozen=True)
class Strategy:
    name: str
    id: int
    params: dict = field(default_factory=dict)
    """Parameter name -> default value; the order of the dict is the order in the vector."""
    doc: str = ""
    param_docs: dict = field(default_factory=dict)
    """Parameter name -> what it means, with its unit."""
    bounds: dict = field(default_factory=dict)
    """Parameter name -> (lowest, highest) value accepted (inclusive)."""
    kinds: dict = field(default_factory=dict)
    """Parameter name -> ``"int"`` (a whole number) or ``"bool"`` (0 = no, 1 = yes); others are real."""
    table: Table | None = None
    """The strategy's table parameter (its value fills the row's table block), if any."""
    search: bool = False
    """The strategy solves double-dummy positions at its decisions (``pimc``): thousands of times
    slower than the engine's strategies, so never measured by default (``cardsim quality``)."""
    tunables: dict = field(default_factory=dict)
    """Parameter name -> :class:`Tunable`: the parameters a tuner may move, in parameter order."""
    file: bool = False
    """The strategy is played from a file named in its spec (``rules:PATH[:name=value,...]``,
    docs/rules-files.md): its name alone is not a complete spec."""
    version_of: str | None = None
    """For a version registered with :meth:`Registry.add_version`: the name of the strategy it
    copies (the same engine id, hence the same play, from its own default parameter values);
    None for a strategy with an engine id of its own."""

    def accepted(self, name: str) -> str:
        """The values parameter ``name`` accepts, for messages and ``cardsim strategies``."""
        return accepted_values(self.bounds.get(name), self.kinds.get(name))

    def param_index(self, name: str) -> int:
        """Position of parameter ``name`` in the vector: jitted strategies read ``params[P_X]``
        through module constants made with this, never by literal position."""
        try:
            return list(self.params).index(name)
        except ValueError:
            raise StrategyError(f"strategy {quote(self.name)} has no parameter {quote(name)}") from None

    def vector(self, **values) -> np.ndarray:
        """The parameter vector, float64[N_PARAMS], defaults overridden by ``values`` (named,
        numeric parameters; the table block holds the table's default, see :meth:`with_table`)."""
        vec = np.zeros(N_PARAMS, dtype=np.float64)
        names = list(self.params)
        for i, name in enumerate(names):
            vec[i] = self.params[name]
        if self.table is not None:
            self.with_table(vec, self.table.default)
        for name, value in values.items():
            if name not in self.params:
                raise self.unknown(name)
            if not admits(value, self.bounds.get(name), self.kinds.get(name)):
                raise StrategyError(f"parameter {quote(name)} of {quote(self.name)} must be {self.accepted(name)}, "
                                    f"got {number_text(value)}")
            vec[names.index(name)] = value
        return vec

    def unknown(self, name: str) -> StrategyError:
        """The error for a parameter ``name`` the strategy does not have (its parameters listed)."""
        known = ", ".join(list(self.params) + ([self.table.name] if self.table else [])) or "none"
        return StrategyError(f"strategy {quote(self.name)} has no parameter {quote(name)} (parameters: {known})")

    def with_table(self, vec: np.ndarray, text: str) -> np.ndarray:
        """``vec`` (float64[N_PARAMS]) with its table block set from the table parameter's
        ``text``, in place; raises a one-line StrategyError for a bad text or a strategy
        without a table."""
        if self.table is None:
            raise StrategyError(f"strategy {quote(self.name)} has no table parameter")
        block = self.table.block(text, self.name)
        vec[TABLE_START:] = 0.0
        vec[TABLE_START:TABLE_START + len(block)] = block
        return vec


def _tunable(strategy: str, name: str, span, default: float, bounds, kind) -> Tunable:
    """The :class:`Tunable` of ``span`` = ``(lo, hi, step)`` or a Tunable, checked against the
    parameter's default, bounds and kind; ValueError otherwise (a registration mistake)."""
    lo, hi, step = (span.lo, span.hi, span.step) if isinstance(span, Tunable) else span
    lo, hi, step = float(lo), float(hi), float(step)
    b_lo, b_hi = bounds if bounds is not None else (-np.inf, np.inf)
    kind = kind or "real"
    if not (step > 0 and b_lo <= lo < hi <= b_hi and lo <= default <= hi):
        raise ValueError(f"tunable {name!r} of {strategy!r}: need step > 0 and bounds {b_lo}..{b_hi} ⊇ "
                         f"range {lo}..{hi} ∋ default {default}")
    if kind in ("int", "bool") and not (step.is_integer() and lo.is_integer() and hi.is_integer()):
        raise ValueError(f"tunable {name!r} of {strategy!r} is a whole-number parameter: whole range and step")
    return Tunable(name, lo, hi, step, kind)


class Registry:
    """The strategies of one game."""

    def __init__(self, game: str):
        self.game = game
        self._by_name: dict[str, Strategy] = {}

    def add(self, name: str, id: int, params: dict | None = None, doc: str = "",
            param_docs: dict | None = None, bounds: dict | None = None, kinds: dict | None = None,
            table: Table | None = None, search: bool = False, tunables: dict | None = None,
            file: bool = False) -> Strategy:
        """Register a strategy; ``id`` is the engine's dispatch number and must be unique.

        ``params``: name -> default (their order is the order in the vector); ``param_docs``:
        name -> meaning and unit, shown by ``cardsim strategies GAME``; ``bounds``: name ->
        (lowest, highest) accepted and ``kinds``: name -> ``"int"`` / ``"bool"`` for whole-number
        and yes/no parameters, both checked when a spec is resolved; ``table``: the strategy's
        one table parameter (module docstring), its name distinct from the named parameters;
        ``search``: the strategy searches (:attr:`Strategy.search`); ``tunables``: name ->
        ``(lo, hi, step)``, the parameters a tuner may move (:class:`Tunable`; the range inside
        the parameter's bounds, the default inside the range, a whole step for a whole-number
        parameter); ``file``: the strategy reads a rule file named in its spec
        (:attr:`Strategy.file`, resolved by :func:`cardsim.rules.resolve_spec`).  Raises ValueError
        for a registration that breaks these, a default outside its parameter's bounds or kind
        among them (a default that no spec could give).
        """
        params = dict(params or {})
        if len(params) > N_NAMED:
            raise ValueError(f"at most {N_NAMED} named parameters per strategy")
        if table is not None and table.name in params:
            raise ValueError(f"table {table.name!r} of {name!r} has the name of a parameter")
        if name in self._by_name or any(s.id == id for s in self._by_name.values()):
            raise ValueError(f"strategy name {name!r} or id {id} already registered for {self.game}")
        kinds = dict(kinds or {})
        for key, kind in kinds.items():
            if key not in params or kind not in ("int", "bool"):
                raise ValueError(f"kind of {key!r}: a parameter of {name!r} and 'int' or 'bool', got {kind!r}")
        bounds = dict(bounds or {})
        for key, value in params.items():  # a default a spec could not give is a registration mistake
            if not admits(value, bounds.get(key), kinds.get(key)):
                raise ValueError(f"default {key}={number_text(value)} of {name!r} ({self.game}) is outside its "
                                 f"bounds: {key} must be {accepted_values(bounds.get(key), kinds.get(key))}")
        declared = {}
        for key in params:  # in parameter order, whatever the order given
            if key in (tunables or {}):
                declared[key] = _tunable(name, key, tunables[key], params[key], bounds.get(key), kinds.get(key))
        unknown = set(tunables or {}) - set(params)
        if unknown:
            raise ValueError(f"tunables of {name!r} that are not its parameters: {sorted(unknown)}")
        s = Strategy(name, id, params, doc, dict(param_docs or {}), bounds, kinds, table, search, declared, file)
        if table is not None:
            s.vector()  # the default table must decode
        self._by_name[name] = s
        return s

    def add_version(self, name: str, of: str, params: dict, doc: str) -> Strategy:
        """Register ``name`` as a version of the registered strategy ``of``: the same engine id,
        parameters, meanings, bounds and kinds (every field of ``of``), with its own default values
        ``params`` (name -> value, each a parameter of ``of``; the others keep ``of``'s) and its own
        ``doc``.

        Why: a default strategy whose parameters are retuned keeps its name, and its previous
        defaults stay playable under a name of their own (``heuristic_v4``), so old results
        reproduce deal for deal without a dispatch branch; the spec string names the version, so
        run manifests and result caches tell the two apart.  Raises ValueError for a name already
        registered, an unknown ``of`` or parameter, or a value outside the parameter's bounds.
        """
        if name in self._by_name:
            raise ValueError(f"strategy name {name!r} already registered for {self.game}")
        base = self[of]
        for key in params:
            if key not in base.params:
                raise ValueError(f"version {name!r} of {of!r}: {of!r} has no parameter {key!r}")
        values = {key: float(params.get(key, value)) for key, value in base.params.items()}
        base.vector(**values)  # bounds and kinds, checked as a spec's would be (StrategyError is a ValueError)
        s = replace(base, name=name, params=values, doc=doc, version_of=base.version_of or base.name)
        self._by_name[name] = s
        return s

    def __getitem__(self, name: str) -> Strategy:
        try:
            return self._by_name[name]
        except KeyError:
            raise StrategyError(
                # the name cut shorter than other values: the list of known names is long
                f"unknown {self.game} strategy {quote(name, 60)} (known: {self.known_text()})"
            ) from None

    def known_text(self) -> str:
        """The registered names for an error line: a strategy's earlier versions kept as
        ``NAME_v1`` .. ``NAME_vK`` are named as one range after it, so the line stays short however
        many versions accumulate (``cardsim strategies GAME`` lists every one)."""
        versions: dict[str, list[tuple[int, str]]] = {}
        for name in self._by_name:
            m = re.fullmatch(r"(.+)_v(\d+)", name)
            if m and m.group(1) in self._by_name:
                versions.setdefault(m.group(1), []).append((int(m.group(2)), name))
        versioned = {name for kept in versions.values() for _, name in kept}
        parts = []
        for name in self._by_name:
            if name in versioned:
                continue
            parts.append(name)
            kept = [n for _, n in sorted(versions.get(name, ()))]
            parts += [f"{kept[0]} .. {kept[-1]}"] if len(kept) > 2 else kept
        return ", ".join(parts)

    def names(self) -> list[str]:
        return list(self._by_name)

    def strategies(self) -> list[Strategy]:
        return list(self._by_name.values())

    def resolve(self, spec: str) -> tuple[Strategy, np.ndarray]:
        """Parse ``NAME[:p=v,...]`` into the strategy and its parameter vector float64[N_PARAMS].

        A strategy's table parameter (:class:`Table`) is written ``name=TEXT`` like the others;
        every other value is a number.  A strategy played from a file (``rules:PATH[:p=v,...]``,
        :attr:`Strategy.file`) is resolved by :func:`cardsim.rules.resolve_spec`.  Raises
        :class:`StrategyError` with a one-line message on any mistake.
        """
        if not isinstance(spec, str) or not spec.strip():
            raise StrategyError(f"empty strategy spec {quote(spec)}")
        name, _, rest = spec.strip().partition(":")
        strategy = self[name.strip()]
        if strategy.file:
            # Only a spec naming a file loads the rule-file reader, and by name: jitted code reads this
            # module, so a static import would make the reader (and the conditions) part of the
            # compiled code's source hash (cardsim._jit), recompiling every kernel when it changes.
            rules = importlib.import_module("cardsim.rules")
            return rules.resolve_spec(self, strategy, rest)
        values = {}
        table_text = None
        for item in filter(None, (p.strip() for p in rest.split(","))):
            if item.partition("=")[0].strip() in values:
                raise StrategyError(f"parameter {quote(item.partition('=')[0].strip())} of {quote(name)} "
                                    "is given twice")
            key, eq, raw = item.partition("=")
            if not eq:
                raise StrategyError(f"parameter {quote(item)} of {quote(name)} must be written name=value")
            if key.strip() not in strategy.params and not (strategy.table and key.strip() == strategy.table.name):
                raise strategy.unknown(key.strip())  # before its value: a table text is no number
            if strategy.table is not None and key.strip() == strategy.table.name:
                table_text = raw.strip()
                values[key.strip()] = None  # marks it given (twice is an error above)
                continue
            try:
                value = float(raw)
            except ValueError:
                raise StrategyError(f"parameter {quote(key.strip())} of {quote(name)}: {quote(raw)} "
                                    "is not a number") from None
            if not np.isfinite(value):
                raise StrategyError(f"parameter {quote(key.strip())} of {quote(name)} must be finite")
            values[key.strip()] = value
        numbers = {k: v for k, v in values.items() if v is not None}
        vec = strategy.vector(**numbers)
        if table_text is not None:
            strategy.with_table(vec, table_text)
        return strategy, vec
