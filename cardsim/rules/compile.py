"""Compiling a rule file to the arrays the jitted engine interprets, and resolving a
``rules:PATH[:name=value,...]`` strategy spec (docs/rules-files.md).

The compiled file fills the table block of the seat's parameter row (float64, from
:data:`~cardsim.strategies.registry.TABLE_START`)::

    base strategy id, n_rules, span, rule * n_rules
    rule = length, call, condition offset, context..., condition...

``span`` is the game's bound for skipping the walk (``compile_context``'s third value; Vint: the
most tokens of any pattern), the context laid out by the game's ``rulefile`` module
(``GameSpec.modules.rules``), the
condition by :mod:`cardsim.rule_kernel`.  The row's named entries are the base strategy's
parameters, so the base reads its own row unchanged when no rule holds.
"""
from __future__ import annotations

import ast
import functools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from cardsim.games import get_game
from cardsim.rules.source import Entry, RuleFile, RuleFileError, read
from cardsim.strategies.registry import N_NAMED, N_PARAMS, TABLE_LEN, TABLE_START, Strategy, StrategyError
from cardsim.text import quote

HEADER = 3
"""Numbers before the first rule: the base strategy's id, the number of rules, the span."""
_PARAM = re.compile(r"\{([^{}]*)\}")
_NO_LIMIT = 1e9


def glue(game: str):
    """The ``rulefile`` module of ``game`` (``GameSpec.modules.rules``); RuleFileError when the game has none."""
    spec = get_game(game)
    if not spec.modules.offers("rules"):
        raise RuleFileError(f"{spec.name} has no rule files")
    return spec.modules.load("rules")


@dataclass(frozen=True)
class Compiled:
    """A rule file compiled with given parameter values.

    ``file``: the :class:`~cardsim.rules.source.RuleFile`; ``values``: parameter name -> value
    used; ``block``: float64[k] (k <= TABLE_LEN), the table block; ``calls``: each rule's call
    number, in file order; ``base``: the base strategy (registry entry) and ``base_row`` its
    parameter row (float64[N_PARAMS]); ``whens``: each rule's condition text after the
    parameters were put in.
    """

    file: RuleFile
    values: dict
    block: np.ndarray
    calls: tuple
    whens: tuple
    base: Strategy
    base_row: np.ndarray

    def row(self) -> np.ndarray:
        """The seat's parameter row, float64[N_PARAMS]: the base's named parameters, then the block."""
        row = np.zeros(N_PARAMS, dtype=np.float64)
        row[:N_NAMED] = self.base_row[:N_NAMED]
        row[TABLE_START:TABLE_START + len(self.block)] = self.block
        return row


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


_FUNCTIONS = {"ceil": math.ceil, "floor": math.floor, "min": min, "max": max}
"""The functions a ``{...}`` expression may call (the others are refused)."""


def evaluate(text: str, values: dict) -> Fraction:
    """The exact value of a ``{...}`` expression (``text``, the part inside the braces): numbers,
    parameter names (``values``: name -> number), ``+ - * /``, parentheses and ``ceil``, ``floor``,
    ``min``, ``max``.  Computed exactly in fractions of the numbers as written (``0.25`` is 1/4),
    so ``ceil(3 * (7 - 0.25 + 19/12))`` is 25 (in floating point 25.000000000000004, whose ceil is
    26).  KeyError(name) for a name not in ``values``; ValueError (one line) for
    anything else (a call to another function, an attribute, a division by zero …)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ValueError("not an expression") from None

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return Fraction(repr(node.value))
        if isinstance(node, ast.Name):
            if node.id not in values:
                raise KeyError(node.id)
            return Fraction(repr(float(values[node.id])))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = value(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = value(node.left), value(node.right)
            if isinstance(node.op, ast.Div):
                if b == 0:
                    raise ValueError("a division by zero")
                return a / b
            return a + b if isinstance(node.op, ast.Add) else a - b if isinstance(node.op, ast.Sub) else a * b
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
                and not node.keywords and node.args):
            args = [value(a) for a in node.args]
            if node.func.id in ("ceil", "floor") and len(args) != 1:
                raise ValueError(f"{node.func.id}() takes one value")
            return Fraction(_FUNCTIONS[node.func.id](*args))
        raise ValueError("only numbers, parameters, + - * /, parentheses, ceil, floor, min and max")

    return value(tree.body)


def substitute(entry: Entry, key: str, values: dict) -> str:
    """``entry[key]`` with every ``{name}`` replaced by parameter ``name``'s value, and every
    ``{expression}`` of parameters (:func:`evaluate`: ``{ceil(open - aggression * 3)}``) by its
    value (a whole number written as one); RuleFileError naming the line for a name the file does
    not declare or an expression that is not one."""
    text = entry.values.get(key, "")

    def put(m):
        inside = m.group(1).strip()
        try:
            v = evaluate(inside, values)
        except KeyError as exc:
            name = exc.args[0]
            declared = ", ".join(values) or "none"
            raise entry.error(key, f"{{{name}}} is not a parameter of the file (declared in [params]: {declared})"
                              ) from None
        except (ValueError, TypeError, OverflowError) as exc:
            raise entry.error(key, f"{{{inside}}}: {exc}") from None
        return str(v.numerator) if v.denominator == 1 else repr(float(v))

    return _PARAM.sub(put, text)


def condition(game: str, entry: Entry, key: str, values: dict) -> tuple[list[float], str]:
    """The compiled condition of ``entry[key]`` (layout in :mod:`cardsim.rule_kernel`) and its
    text after substitution; RuleFileError naming the line for a condition that does not parse
    or names an unknown feature."""
    from cardsim.conditions import ConditionError, features_of, parse_class  # local: conditions bring lark; every run compiles specs, few use rule files

    text = substitute(entry, key, values)
    fs = features_of(game)
    names = list(fs.features)
    out: list[float] = []
    if not text.strip():
        return [0.0, 0.0], text
    try:
        ranges, required, excluded = parse_class(game, text).resolved(game)
    except ConditionError as exc:
        raise entry.error(key, f"condition {quote(text)}: {exc}") from None
    out.append(float(len(ranges)))
    for name, (lo, hi) in ranges.items():
        out += [float(names.index(name)), -_NO_LIMIT if lo is None else float(lo), _NO_LIMIT if hi is None else float(hi)]
    if required or excluded:
        req, exc_ = sum(1 << c for c in required), sum(1 << c for c in excluded)
        out += [1.0, float(req & 0xFFFFFFFF), float(req >> 32), float(exc_ & 0xFFFFFFFF), float(exc_ >> 32)]
    else:
        out.append(0.0)
    return out, text


def context_values(entry: Entry, values: dict) -> dict:
    """``entry``'s keys (``why`` aside: words for people) with every ``{name}`` replaced by its
    parameter's value (501's contexts are numbers a file may expose: ``lead = "<=-{behind}"``);
    RuleFileError naming the line."""
    return {key: substitute(entry, key, values) if isinstance(text, str) and key != "why" else text
            for key, text in entry.values.items()}


def context(g, entry: Entry, values: dict | None = None) -> tuple[list[float], int, int]:
    """The game's compiled context of ``entry`` under parameter ``values``; RuleFileError naming
    the line of the bad key."""
    words = context_values(entry, values or {})
    try:
        return g.compile_context(words)
    except ValueError as exc:
        message, key = exc.args[0] if exc.args and isinstance(exc.args[0], tuple) else (str(exc), None)
        raise entry.error(key, message) from None


def call_of(g, entry: Entry, key: str) -> int:
    """The call number of ``entry[key]``; RuleFileError naming the line when absent or not a call."""
    if key not in entry.values:
        raise entry.error(None, f"[[rule]] #{entry.index + 1} has no {key} = \"...\"")
    try:
        return g.read_call(entry.values[key])
    except ValueError as exc:
        raise entry.error(key, str(exc)) from None


def _base(file: RuleFile, registry, overrides: dict) -> tuple[Strategy, np.ndarray]:
    spec = file.base
    if overrides:
        spec += ("," if ":" in spec else ":") + ",".join(f"{k}={_number(v)}" for k, v in overrides.items())
    name = spec.partition(":")[0].strip()
    try:
        strategy = registry[name]
    except StrategyError as exc:
        raise RuleFileError(f"{file.where('base')}: {exc}") from None
    if strategy.file or strategy.table is not None:
        raise RuleFileError(f"{file.where('base')}: base {quote(name)} cannot be a base (a strategy with a rule "
                            f"file or a table of its own)")
    try:
        return registry.resolve(spec)
    except StrategyError as exc:
        raise RuleFileError(f"{file.where('base')}: base {quote(spec)}: {exc}") from None


def compile_file(file: RuleFile, registry, values: dict | None = None, base_values: dict | None = None) -> Compiled:
    """Compile ``file`` for ``registry``'s game with parameter ``values`` (name -> number, each
    declared in the file's ``[params]``; the others keep the file's values) and base parameter
    ``base_values`` (name -> number, the base strategy's own).  Raises RuleFileError (one line,
    ``FILE:LINE:``) for: an undeclared parameter, a call that is not the game's, an auction
    pattern that does not parse or never happens, a call never legal after its pattern, a
    condition that does not parse, a base that is no strategy of the game, a file too big for
    the table block."""
    if file.game != registry.game:
        raise RuleFileError(f"{file.where('game')}: the file bids for {file.game}, not {registry.game}")
    g = glue(file.game)
    merged = dict(file.params)
    for name, value in (values or {}).items():
        if name not in file.params:
            declared = ", ".join(file.params) or "none"
            raise RuleFileError(f"{file.where('params')}: parameter {quote(name)} is not declared in the file "
                                f"(declared in [params]: {declared}; the base's are written base.NAME=VALUE)")
        merged[name] = float(value)
    base, base_row = _base(file, registry, dict(base_values or {}))
    block = [float(base.id), float(len(file.rules)), 0.0]
    calls, whens = [], []
    for entry in file.rules:
        call = call_of(g, entry, "call")
        ctx, least, span = context(g, entry, merged)
        block[2] = max(block[2], float(span))
        why = g.never_legal(call, least)
        if why:
            raise entry.error("call", why)
        cond, text = condition(file.game, entry, "when", merged)
        block += [float(3 + len(ctx) + len(cond)), float(call), float(3 + len(ctx)), *ctx, *cond]
        calls.append(call)
        whens.append(text)
    if len(block) > TABLE_LEN:
        raise RuleFileError(f"{file.path}:1: the rules compile to {len(block)} numbers and a strategy row holds "
                            f"{TABLE_LEN}: fewer rules or clauses")
    return Compiled(file, merged, np.array(block, dtype=np.float64), tuple(calls), tuple(whens), base, base_row)


@functools.lru_cache(maxsize=64)
def _compiled(path: str, stamp: tuple, game: str, values: tuple, base_values: tuple) -> Compiled:
    return compile_file(read(path), get_game(game).table.registry, dict(values), dict(base_values))


_SOURCES: dict = {}
"""Path as given -> the files its last compile read (itself and its includes): their stamps key the cache."""


def _stamp(paths) -> tuple:
    out = []
    for p in map(Path, paths):
        st = p.stat()
        out.append((str(p.resolve()), st.st_mtime_ns, st.st_size))
    return tuple(out)


def load(path, registry, values: dict | None = None, base_values: dict | None = None) -> Compiled:
    """The file at ``path`` read and compiled for ``registry``'s game (:func:`compile_file`); a
    file compiled before and unchanged since, its includes too (same size and modification time),
    is not read again."""
    try:
        stamp = _stamp(_SOURCES.get(str(path), (path,)))
    except OSError:
        stamp = ()
    if not stamp:
        return compile_file(read(path), registry, values, base_values)
    compiled = _compiled(str(path), stamp, registry.game, tuple((values or {}).items()),
                         tuple((base_values or {}).items()))
    if _SOURCES.get(str(path)) != compiled.file.sources:
        # the first compile of this path (or its includes changed): key the cache on every file it read
        _SOURCES[str(path)] = compiled.file.sources
        return load(path, registry, values, base_values)
    return compiled


def split_spec(rest: str) -> tuple[str, dict, dict]:
    """``PATH[:name=value,...]`` -> ``(path, values, base_values)`` (``base.NAME=VALUE`` sets the base
    strategy's parameter); StrategyError for a value that is not a number or a name given twice."""
    path, sep, tail = rest.rpartition(":")
    if not sep or "=" not in tail:
        path, tail = rest, ""
    path = path.strip()
    if not path:
        raise StrategyError("a rules strategy names its file: rules:PATH[:name=value,...]")
    values, base_values = {}, {}
    for item in filter(None, (t.strip() for t in tail.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise StrategyError(f"parameter {quote(item)} of {quote(path)} must be written name=value")
        try:
            value = float(raw)
        except ValueError:
            raise StrategyError(f"parameter {quote(key)} of {quote(path)}: {quote(raw.strip())} is not a number") from None
        if not np.isfinite(value):
            raise StrategyError(f"parameter {quote(key)} of {quote(path)} must be finite")
        target, name = (base_values, key[5:]) if key.startswith("base.") else (values, key)
        if name in target:
            raise StrategyError(f"parameter {quote(key)} of {quote(path)} is given twice")
        target[name] = value
    return path, values, base_values


def resolve_spec(registry, strategy: Strategy, rest: str) -> tuple[Strategy, np.ndarray]:
    """The strategy and parameter row (float64[N_PARAMS]) of the spec ``rules:REST`` for
    ``registry``'s game (:meth:`~cardsim.strategies.registry.Registry.resolve` calls it).
    Raises StrategyError / RuleFileError (one line)."""
    path, values, base_values = split_spec(rest)
    compiled = load(path, registry, values, base_values)
    return strategy, compiled.row()
