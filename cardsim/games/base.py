"""What every game module provides: :class:`GameSpec`, and the shared error and set-up types.

The runner, the CLI, replay and the report only talk to a game through its ``SPEC``
(``cardsim.games.<module>.SPEC``), so adding a game never touches them.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import numbers
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from cardsim.strategies.registry import N_PARAMS, Registry, StrategyError, strategy_errors
from cardsim.text import quote


class RecordError(ValueError):
    """A deal record that breaks docs/RECORDS.md or a rule of docs/RULES.md.

    ``field`` names the record field (``"auction"``, ``"play"``, ``"hands"`` …), ``index`` the
    action's 0-based index in it (or None), ``rule`` the rule broken (``"docs/RULES.md §2.3"``).
    """

    def __init__(self, message: str, field: str | None = None, index: int | None = None, rule: str | None = None):
        self.message = message
        self.field = field
        self.index = index
        self.rule = rule
        super().__init__(self.describe())

    def describe(self) -> str:
        where = ""
        if self.field is not None:
            where = f"{self.field}[{self.index}]: " if self.index is not None else f"{self.field}: "
        rule = f" ({self.rule})" if self.rule else ""
        return f"{where}{self.message}{rule}"


class OptionError(ValueError):
    """An unknown rule option, a bad value, or a bad seat count."""


def as_list(value, what: str) -> list:
    """``value`` (a list, tuple, range or 1-D numpy array) as a list.  Raises OptionError naming
    ``what`` for anything else: ``list()`` would take a string's characters, a dict's keys or a
    set's arbitrary order for the values and answer another question without a word."""
    if isinstance(value, (list, tuple, range)) or (isinstance(value, np.ndarray) and value.ndim == 1):
        return list(value)
    raise OptionError(f"{what} must be a list, got {type(value).__name__} {quote(value)}")


def grow_until_fits(run, capacity: int):
    """The one buffer-overflow protocol of the match kernels.

    ``run(capacity)`` allocates its output buffers with room for ``capacity`` deal rows, calls
    the kernel and returns ``(n, result)``: ``n`` the rows written, or −1 when the kernel ran out
    of room (it then wrote nothing the caller keeps).  The capacity doubles until the call fits;
    returns ``result`` of that call.
    """
    while True:
        n, result = run(capacity)
        if n >= 0:
            return result
        capacity *= 2


@dataclass(frozen=True)
class RuleOption:
    """A named rule option (docs/RULES.md marks them); ``parse`` turns the text value into the value."""

    name: str
    default: Any
    parse: Callable[[str], Any]
    doc: str


@dataclass(frozen=True)
class Setup:
    """Everything but the seed and deal numbers that a run depends on.

    ``strategy_ids``: int64[seats]; ``params``: float64[seats, N_PARAMS]; ``rules``: parsed
    rule options by name; ``specs``: the strategy specs as written, for manifests and records.
    """

    game: str
    seats: int
    strategy_ids: np.ndarray
    params: np.ndarray
    rules: dict
    specs: tuple


@dataclass(frozen=True)
class Forcing:
    """How a game answers questions about a hand (``cardsim evaluate``): the game's module
    ``forcing.py`` provides these (see Vint's for the model).

    * ``parse_option(text, seat, setup, auction, dealer) -> int64[k]``: the forced vector of an
      option the seat takes after the given first calls ``auction`` (call tokens from the
      dealer; empty for none); raises OptionError;
    * ``declares(forced) -> bool``: whether the option itself bids (a pass does not: its made
      rate is missing);
    * ``parse_before(values, setup) -> state``: the match state the deal starts from
      (docs/RECORDS.md ``before``) from a list of whole numbers or None; raises OptionError;
    * ``play_given(seed, start, dealt, setup, forced, state) -> (rows, forced_ok)``: deals
      ``start ..`` played from the deals ``dealt`` (a :class:`cardsim.deal.DealtChunk`: dealers,
      hands, talons, and ``keys``, which seed the seats' streams);
    * ``outcome(rows, seat, state) -> (declared, made, score)``: bool, bool, float64 arrays:
      whether the seat (or its side) declared, made, and the seat's score for the option;
    * ``trace_given(seed, deal, dealt, setup, forced, state) -> dict``: the record of deal
      ``deal`` (``dealt``: that one deal) as ``play_given`` plays it;
    * ``agreed_calls(keys, dealers, hands, talons, setup, forced, state) -> int64[n]``: how many
      of the given calls of ``forced`` the callers' strategies make in each candidate deal (the
      streams seeded from ``keys``): the test by which calls imply hands
      (:class:`cardsim.deal.Calls`);
    * ``auto_options(auction, seat, setup, dealer) -> list[str]``: the options ``--option auto``
      stands for (every legal first call; 501: look, pass and blind levels);
    * ``lower_is_better``: a bool, or ``f(state) -> bool`` (501 scores count down, but a
      game's win share counts up);
    * ``game_state(state) -> state`` (or None): the state asked about the game's end instead of
      the deal (501: the game is played on and the outcome is the seat's share of the win);
    * ``outcomes``: ``{name: state -> state}`` (or None), every outcome a question may ask for
      (``cardsim evaluate --outcome NAME``), the state asked about it; None stands for ``deal``
      (the state as parsed) and, with a ``game_state``, ``game`` (:meth:`outcome_states`);
    * ``outcome_meanings``: ``{name: words}`` (or None): what the score of an outcome measures,
      for the answer's header, where the generic words do not say it (e.g. Vint's ``margin``);
    * ``lead_groups(cards, talon, contract, seat, setup) -> (groups, note)`` (or None: the game
      has no ``--all-leads``): the leads ``cardsim evaluate --all-leads`` asks about, from the
      seat's given cards ``cards`` and the given talon or kitty ``talon`` (card indices) against
      ``contract`` (the ``--contract`` text): ``groups`` lists card tokens (``QS``; the game's
      ``lead:`` syntax), each group cards that may be equal as leads, highest first (every card
      is played; :mod:`cardsim.equal_leads` shows a group as one row only where its cards scored
      the same on every deal);
      ``note`` says how they were grouped; ``setup`` may be None (``evaluate`` asks before the
      run is set up); raises OptionError;
    * ``lead_made``: what the ``made`` column measures for ``lead:`` options (printed under the
      table; empty: the game's lead options need no word);
    * ``is_lead(forced) -> bool``, ``reach(forced) -> str`` and
      ``contract_reached(rows, forced) -> bool[n]`` (or None: a lead's contract is forced, the
      auction skipped): whether an option is a lead, its contract in words (``3NT by seat 2``),
      and whether each deal played by ``play_given`` ended in that contract; with them a lead
      question deals the declaring side hands with which the strategies' auction reaches the
      contract (:func:`cardsim.questions.question`, the ``FORCE_REACHED`` kind of
      :mod:`cardsim.games.forced`).
    """

    parse_option: Callable
    declares: Callable
    parse_before: Callable
    play_given: Callable
    outcome: Callable
    trace_given: Callable
    lower_is_better: bool = False
    option_doc: str = ""
    no_force: Any = None
    """The forced vector that forces nothing (for benchmarks and plain play from given hands)."""
    game_state: Callable | None = None
    agreed_calls: Callable | None = None
    auto_options: Callable | None = None
    outcomes: dict | None = None
    outcome_meanings: dict | None = None
    lead_groups: Callable | None = None
    lead_made: str = ""
    is_lead: Callable | None = None
    reach: Callable | None = None
    contract_reached: Callable | None = None

    def outcome_states(self) -> dict:
        """``{name: state -> state}`` of the outcomes the game offers, ``deal`` first."""
        if self.outcomes is not None:
            return dict(self.outcomes)
        offered = {"deal": _same_state}
        if self.game_state is not None:
            offered["game"] = self.game_state
        return offered


def _same_state(state):
    """The ``deal`` outcome: the state as parsed."""
    return state


@dataclass(frozen=True)
class ContractBands:
    """How a game groups its contracts by height (``cardsim quality --by band``).

    ``bands``: ``(low, high)`` pairs of whole numbers, inclusive, ascending and adjacent, covering
    every value a declared contract can have; ``measure``: what the numbers are (the contract's
    level, or 501's target in card points).  The labels are ``"low-high"`` (``"1-3"``).
    """

    bands: tuple
    measure: str

    def __post_init__(self):
        ordered = all(lo <= hi for lo, hi in self.bands) and all(
            nxt == hi + 1 for (_, hi), (nxt, _) in zip(self.bands, self.bands[1:]))
        if not self.bands or not ordered:
            raise ValueError(f"contract bands must be ascending and adjacent, got {self.bands}")

    @property
    def labels(self) -> list[str]:
        return [f"{lo}-{hi}" for lo, hi in self.bands]

    def of(self, values, declared=None):
        """The band of each value: a pandas ordered Categorical of :attr:`labels`, missing where
        ``declared`` (bool array, default all) is False.  ``values``: whole numbers (any int
        array).  Raises ValueError for a declared value outside every band."""
        import pandas as pd

        values = np.asarray(values, dtype=np.int64)
        declared = np.ones(len(values), dtype=bool) if declared is None else np.asarray(declared, dtype=bool)
        lows = np.array([lo for lo, _ in self.bands], dtype=np.int64)
        code = np.searchsorted(lows, values, side="right") - 1
        outside = declared & ((values < lows[0]) | (values > self.bands[-1][1]))
        if outside.any():
            raise ValueError(f"{self.measure} {values[outside][0]} lies outside the bands {', '.join(self.labels)}")
        return pd.Categorical.from_codes(np.where(declared, code, -1), self.labels, ordered=True)


@dataclass(frozen=True)
class FrameHooks:
    """How :mod:`cardsim.frames` types a game's raw rows (the game's ``frames.py`` provides them).

    * ``deals(column, seats) -> {name: array}``: the typed deal columns that differ from the raw
      codes (nullable integers, booleans, ordered categoricals, built with the converters of
      :mod:`cardsim.frames`); ``column(name)`` returns a raw column as an ndarray, ``seats`` is
      the table's seat count; every other raw column is kept as it is;
    * ``matches(column, seats) -> {name: array}``: the same for match rows;
    * ``derived``: ``{name: raw column it follows}`` of columns the deal frame adds (not stored);
    * ``missing_doc`` / ``match_missing_doc``: which deal / match columns are missing when
      (``cardsim columns GAME`` prints them);
    * ``hand_columns``: ``{seat or "kitty"/"discard": column}`` of hand bit sets the deal rows
      carry (:func:`cardsim.frames.decode_hands`), or None when the rows carry no hands.
    """

    deals: Callable
    matches: Callable
    derived: dict = dataclasses.field(default_factory=dict)
    missing_doc: str = ""
    match_missing_doc: str = ""
    hand_columns: dict | None = None


@dataclass(frozen=True)
class DDColumns:
    """What a game's DD hooks return (:class:`DDHooks`): the raw DD columns of n deals, which
    :mod:`cardsim.dd` turns into the user frame (it adds the ``deal`` column first and makes
    ``<NA>``, categoricals and nullable integers of the codes, :func:`cardsim.dd.typed_frame`).

    * ``columns``: ``{name: ndarray[n]}`` of codes in column order, as the solvers give them
      (``declarer`` -1 and other values below 0 where a deal has none, ``denomination`` / ``trump``
      0..4 in :data:`cardsim.names.DENOMINATIONS`' order, ``dd_made`` bool);
    * ``played``: bool[n], the deals that were played (every other column but those in ``always``
      is ``<NA>`` where False);
    * ``always``: names of columns with a value on every deal (they keep their numpy dtype).
    """

    columns: dict
    played: np.ndarray
    always: tuple = ()


@dataclass(frozen=True)
class DDHooks:
    """Double-dummy solving of a game's deals (:mod:`cardsim.dd`; the game's ``dd.py``).  The hooks
    return arrays and text; :mod:`cardsim.dd` builds the frames, and where a hook needs deals
    played, its caller passes the function that plays them (``play``), so a game's hooks import
    nothing above the games.

    * ``frame(records, every_denomination) -> DDColumns``: the DD columns of replayed
      docs/RECORDS.md records (``result`` set), one row each (:data:`columns_doc`);
    * ``columns_doc``: the game's DD columns for people (``cardsim dd`` and the docs);
    * ``bench(seed, n, setup, play) -> str``: the solver benchmark's line on deals ``0 .. n-1`` of
      ``seed`` played with ``setup`` (the default strategies; :mod:`cardsim.bench.dd`), or None;
    * ``quality(names, seed, ids, rows, solve, play) -> list[DataFrame]``: per strategy spec in
      ``names`` (each playing every seat), its per-deal comparison with DD on deals ``ids`` of
      ``seed``, each frame made by ``rows`` (:func:`cardsim.analysis.quality.comparison_rows`);
      ``solve(name)`` is the DD frame of those deals as strategy ``name`` plays them
      (:func:`cardsim.dd.solve_deals`), ``play(name)`` their rows (``row_dtype``[len(ids)]); ``unit``
      the unit of that comparison (``"tricks"``);
    * ``describe(record, row) -> str``: ``cardsim dd``'s text for one record and its DD row
      (solved with ``every_denomination``);
    * ``deals(seed, deal_ids, setup, every_denomination, play) -> DDColumns``: the same columns as
      ``frame`` for independent deals as the engine plays them, from its rows (``play(seed,
      deal_ids, setup)``: ``row_dtype``[n] in the order of ``deal_ids``) and card bit sets (no
      records); None: solved from the deals' records;
    * ``card_values(record) -> dict``: the double-dummy trace of a replayed record's play (``result``
      set), one entry per card played in order, each list as long as the play: ``trick`` (1-based),
      ``seat``, ``card`` (token), ``declaring`` (bool: the player is on the declaring side),
      ``value_before`` / ``value_after`` (the DD value for the declaring side of the position
      before / after the card, in ``unit``: what it has already won plus its DD result to come,
      so the last ``value_after`` is its result in play), ``best`` (the tokens, space-separated,
      of the cards with the best DD value for the player); plus ``sides`` (the names of the
      declaring side and of the defenders, for people).  Raises :class:`OptionError` for a record
      without play; None: the game has no per-card trace (:func:`cardsim.dd.card_costs`);
    * ``lead_values(records) -> list``: per replayed record (``result`` set), ``{card token: value}``
      for every card the opening leader may lead, the value the defenders' double-dummy result
      after that lead in ``unit``; None for a record without play (:func:`cardsim.dd.lead_values`,
      the lead quality of :mod:`cardsim.analysis.lead_quality`); None: not offered.
    """

    frame: Callable
    columns_doc: str = ""
    bench: Callable | None = None
    quality: Callable | None = None
    unit: str = ""
    describe: Callable | None = None
    deals: Callable | None = None
    card_values: Callable | None = None
    lead_values: Callable | None = None


@dataclass(frozen=True)
class GainObjective:
    """One objective of a deviation gain (:mod:`cardsim.deviation`), as a game declares it.

    * ``name``, ``doc`` (one line, printed in every output), ``unit``, ``tolerance`` (the gain, in
      ``unit``, below which a deviation does not matter);
    * ``measure``: what is compared per match, ``"margin"`` (the deviating side's points minus the
      other side's, partnership games) or ``"win"`` (its share of the match's win, 0..1);
    * ``tables``: ``((label, seats, rules), ...)``, the tables the gain is the mean over (each played
      on the same match seeds; ``seats`` None = the game's default, ``rules`` a dict of rule options
      or None); with more than one, a ``gain_<label>`` column per table stands beside the gain;
    * ``beside``: ``((column, measure), ...)``, other measures reported beside the gain (their mean
      over the tables), e.g. Vint's ``("win_gain", "win")``;
    * ``matches``: ``cardsim exploit``'s default number of matches (per line-up and table), chosen
      so that a gain of ``tolerance`` is detected (docs/exploit.md, "Power").
    """

    name: str
    doc: str
    unit: str
    tolerance: float
    measure: str = "win"
    tables: tuple = (("", None, None),)
    beside: tuple = ()
    matches: int = 20_000


@dataclass(frozen=True)
class GameFacts:
    """Facts about a game that generic tools and reports need (they never branch on its name).

    * ``title``: the game's name for people (``"Five Hundred"``);
    * ``partnerships``: whether the players sit in two partnerships of two (profiles' ``partner``);
    * ``bench_condition``: a hand class of seat 0 for the conditioned-dealing benchmark
      (:func:`cardsim.bench.conditions.measure_conditions`);
    * ``pimc_deals``: deals of the sampled-search benchmark (one search costs the more the bigger
      the hands);
    * ``quality_deals``: most deals of the report's quality section (double-dummy cost);
    * ``objectives``: the :class:`GainObjective` s of ``cardsim exploit`` / ``cardsim tune``, the
      default first (empty: the game has none);
    * ``contract_bands``: the game's contract height bands (:class:`ContractBands`, ``cardsim
      quality --by band``), or None.
    """

    title: str
    partnerships: bool = False
    bench_condition: str = ""
    pimc_deals: int = 40
    quality_deals: int = 2000
    objectives: tuple = ()
    contract_bands: ContractBands | None = None


@dataclass(frozen=True)
class Table:
    """Who sits at a game's table and under which rules: what :meth:`GameSpec.setup` reads.

    * ``seat_counts``: the numbers of seats the game is played with, the default first (``(3, 4)``);
    * ``registry``: the game's strategies (:class:`cardsim.strategies.registry.Registry`);
    * ``default_strategy``: the strategy spec every seat plays unless told otherwise;
    * ``rule_options``: the game's :class:`RuleOption` s (docs/RULES.md marks them), empty for none.
    """

    seat_counts: tuple
    registry: Registry
    default_strategy: str
    rule_options: tuple = ()


@dataclass(frozen=True)
class Play:
    """How a game plays, records and checks independent deals: the engine's entry points.

    * ``row_dtype``: the numpy structured dtype of one deal's row; ``row_doc`` what each column
      means (units, codes; ``cardsim columns GAME`` prints it);
    * ``simulate_chunk(seed, start, count, setup) -> ndarray[row_dtype]``: plays deals
      ``start .. start+count-1`` of ``seed`` independently, one row per deal;
    * ``deal_chunk(seed, start, count) -> int``: dealing only (the benchmark baseline); returns a
      checksum so the work cannot be optimised away;
    * ``make_records(seed, deal_ids, setup) -> list[dict]``: docs/RECORDS.md records (with
      ``result``) of those deals, identical to what ``simulate_chunk`` played;
    * ``replay(record) -> dict``: validates a record against docs/RULES.md and returns its
      ``result``; raises :class:`RecordError`;
    * ``show(record) -> str``: the deal for people (hands, auction, tricks, score);
    * ``ranks``: the rank letters of one suit, lowest first (the card layout of
      :mod:`cardsim.cards`: card = 16 × suit + rank index), e.g. Vint ``"23456789TJQKA"``;
    * ``jokers``: ``((bit, token), …)`` of the cards outside the four suits, in the records' order
      (Five Hundred: ``((15, "HJ"), (14, "LJ"))``); empty for a game without jokers;
    * ``record_fields``: the top-level fields of the game's records besides those every game's
      records may carry (:data:`cardsim.games.fields.COMMON`), e.g. 501 ``("talon", "contract")``;
      replay refuses any other key (docs/RECORDS.md, Strictness);
    * ``deal_seconds``: one core's seconds for one complete deal with the default strategies,
      written to a dataset: the slope of the wall time of ``cardsim simulate GAME -n N -o X --jobs
      1`` from 20,000 to 1,000,000 deals (``python -m cardsim.bench --only crossover``,
      BENCHMARKS.md "When the default starts workers").  The pool weighs a run's work by it
      (:func:`cardsim.runner.pool.deal_seconds`); None counts as the slowest game.
    """

    row_dtype: np.dtype
    simulate_chunk: Callable
    deal_chunk: Callable
    make_records: Callable
    replay: Callable
    show: Callable
    row_doc: str = ""
    ranks: str = ""
    jokers: tuple = ()
    record_fields: tuple = ()
    deal_seconds: float | None = None


@dataclass(frozen=True)
class Matches:
    """How a game plays whole matches (a rubber, a game to a target): ``cardsim.play_match``.

    * ``play(seed, start, count, setup) -> (match_rows, deal_rows)``: matches ``start ..
      start+count-1`` of ``seed``, one row per match (``dtype``) and one per deal (``deal_dtype``:
      ``row_dtype``'s fields and the match's own, its number and the state before the deal);
    * ``dtype``, ``deal_dtype``: the numpy dtypes of those rows; ``doc`` what each match column
      means, ``deal_doc`` what the extra deal columns mean (``cardsim columns GAME``);
    * ``records(seed, match, setup, before=None, dealer=None) -> list[dict]``: the records of every
      deal of one match as ``play`` plays it, or None;
    * ``deals_per_match``: mean deals of a whole match with the default strategies
      (``cardsim.play_match(game, 2000, seed=1)``); None counts as the longest game's;
    * ``start_score``: the score every seat starts a match from, when matches may start from given
      scores (``play_match(before=..., dealer=...)``) and so end sooner in proportion to the lowest
      of them; None when matches always start from a clean state;
    * ``left(before, rules) -> float``: the share of a new match's deals still to play from the
      match state ``before`` (``play_match(before=...)``'s list) under the parsed ``rules``, for a
      game whose matches may start from a given state that is not one score per seat (such a game
      also takes ``before=`` and ``dealer=``); None: ``start_score`` says.
    """

    play: Callable
    dtype: np.dtype
    deal_dtype: np.dtype | None = None
    records: Callable | None = None
    doc: str = ""
    deal_doc: str = ""
    deals_per_match: float | None = None
    start_score: int | None = None
    left: Callable | None = None


MODULE_KINDS = ("features", "pbn", "rules", "decisions")
"""The kinds of module a game may name (:class:`Modules`)."""


@dataclass(frozen=True)
class Modules:
    """The modules of a game that are imported only when asked for, by their dotted names (empty:
    the game has none).  Named, not imported, so that building the spec loads no more than the
    engine; :meth:`load` is the one way to reach them.

    * ``features``: the hand features for conditions (:mod:`cardsim.conditions`): its ``FEATURES``
      (a :class:`cardsim.deal.FeatureSet`) and ``layout(seats)`` (a :class:`cardsim.deal.DealLayout`);
    * ``pbn``: the mapping of the game's deals to and from PBN (:mod:`cardsim.pbn`, docs/pbn.md),
      for a game dealt as bridge (four hands of 13 cards);
    * ``rules``: the game's part of rule files (docs/rules-files.md, :mod:`cardsim.rules`): its
      context keys, calls, compiled contexts, the charts a rule file may be written from
      (``CHARTS``) and the jitted interpreter's glue (see :mod:`cardsim.games.vint.rulefile`);
    * ``decisions``: the timing of the game's decisions one by one (``python -m cardsim.profiling
      GAME --decisions``): its ``collect(setup, n_deals)`` and ``time_decisions(views)`` (see
      :mod:`cardsim.games.vint.decisions`).

    A game names only modules of its own package: what stands above the games finds the game's
    part itself, from the game's package name (its pandas pipelines,
    :func:`cardsim.analysis.game_module`; the writer of its rule file from a chart,
    :func:`cardsim.rules.from_chart.writer`).
    """

    features: str = ""
    pbn: str = ""
    rules: str = ""
    decisions: str = ""

    def offers(self, kind: str) -> bool:
        """Whether the game names a module of ``kind`` (one of :data:`MODULE_KINDS`); imports nothing."""
        return bool(self._name(kind))

    def load(self, kind: str):
        """The game's module of ``kind`` (one of :data:`MODULE_KINDS`), imported.  Raises
        OptionError when the game names none (ask :meth:`offers` first)."""
        name = self._name(kind)
        if not name:
            raise OptionError(f"the game has no {kind} module")
        return importlib.import_module(name)

    def _name(self, kind: str) -> str:
        if kind not in MODULE_KINDS:
            raise ValueError(f"unknown module kind {quote(kind)} (known: {', '.join(MODULE_KINDS)})")
        return getattr(self, kind)


@dataclass(frozen=True)
class GameSpec:
    """A game as the rest of cardsim sees it: a name and a handful of hook groups, each reached one
    way (``spec.<group>.<hook>``).

    * ``name``: the game's name in records and on the command line (``"vint"``);
    * ``doc``: one line for people, naming its section of docs/RULES.md;
    * ``table``: who sits at the table under which rules (:class:`Table`);
    * ``play``: the engine's entry points for independent deals (:class:`Play`);
    * ``matches``: whole matches (:class:`Matches`), or None when the game has no match mode here;
    * ``forcing``: forced choices and play from given hands (:class:`Forcing`, ``cardsim
      evaluate``), or None;
    * ``frames``: how raw rows become typed frames (:class:`FrameHooks`), or None: the rows as
      they are;
    * ``dd``: double-dummy solving of the game's deals (:class:`DDHooks`), or None;
    * ``pimc``: the hooks of the sampled-search player (:class:`cardsim.strategies.pimc.Hooks`: a
      card decision's position from the seat's view, and its double-dummy solver), or None when
      the game has no ``pimc`` strategy;
    * ``facts``: facts generic tools and reports need (:class:`GameFacts`);
    * ``modules``: the modules imported only when asked for (:class:`Modules`).
    """

    name: str
    doc: str
    table: Table
    play: Play
    matches: Matches | None = None
    forcing: Forcing | None = None
    frames: FrameHooks | None = None
    dd: DDHooks | None = None
    pimc: Any = None
    facts: GameFacts | None = None
    modules: Modules = Modules()

    def __post_init__(self):
        # Every entry point that runs strategies reports an unhandled strategy id the same way.
        wrap = functools.partial(strategy_errors, self.name)
        object.__setattr__(self, "play", dataclasses.replace(
            self.play, simulate_chunk=wrap(self.play.simulate_chunk), make_records=wrap(self.play.make_records)))
        if self.matches is not None:
            object.__setattr__(self, "matches", dataclasses.replace(
                self.matches, play=wrap(self.matches.play),
                records=None if self.matches.records is None else wrap(self.matches.records)))
        if self.forcing is not None:
            object.__setattr__(self, "forcing", dataclasses.replace(
                self.forcing, play_given=wrap(self.forcing.play_given), trace_given=wrap(self.forcing.trace_given),
                agreed_calls=wrap(self.forcing.agreed_calls)))

    @property
    def default_seats(self) -> int:
        return self.table.seat_counts[0]

    def parse_rules(self, items: dict | Sequence[str] | None) -> dict:
        """Rule options from ``{"name": "value"}`` or ``["name=value", …]``, defaults filled in.

        Raises :class:`OptionError` for an unknown name, a name given twice or a value its parser
        rejects.
        """
        options = {o.name: o for o in self.table.rule_options}
        rules = {o.name: o.default for o in self.table.rule_options}
        if not items:
            return rules
        if not isinstance(items, dict):
            pairs = {}
            for item in as_list(items, "rules (a dict or a list of 'name=value')"):
                key, eq, value = str(item).partition("=")
                if not eq:
                    raise OptionError(f"rule option {quote(item)} must be written name=value")
                if key.strip() in pairs:
                    # The last would silently win: as with a strategy parameter given twice, say so.
                    raise OptionError(f"rule option {quote(key.strip())} given more than once")
                pairs[key.strip()] = value.strip()
            items = pairs
        for key, value in items.items():
            if key not in options:
                known = ", ".join(options) or "none"
                raise OptionError(f"unknown {self.name} rule option {quote(key)} (known: {known})")
            try:
                rules[key] = options[key].parse(value) if isinstance(value, str) else options[key].parse(str(value))
            except (ValueError, TypeError) as exc:
                raise OptionError(f"rule option {key}={quote(value)}: {exc}") from None
        return rules

    def rules_in_force(self, rules: dict | None = None) -> dict:
        """The rules a run plays under, for an answer to name them: ``{"options": {name: value},
        "defaults": [names left at their default], "text": one line}``.

        ``rules``: parsed rule options (:meth:`parse_rules`; None: every default).  Values are as
        JSON has them (numbers, strings).  The text names every option with its value, marks the
        defaults, and ends with the game's section of docs/RULES.md, so a game without rule options
        still says which rules it played ("docs/RULES.md §2, no rule options").  Raises
        :class:`OptionError` for an option the game does not have.
        """
        given = self.parse_rules(None) if rules is None else dict(rules)
        known = [o.name for o in self.table.rule_options]
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise OptionError(f"unknown {self.name} rule option {quote(unknown[0])} (known: {', '.join(known) or 'none'})")
        defaults = {o.name: o.default for o in self.table.rule_options}
        values = {name: rule_json(given.get(name, defaults[name])) for name in known}
        left = [name for name in known if values[name] == rule_json(defaults[name])]
        found = re.search(r"docs/RULES\.md §\d+", self.doc or "")
        where = found.group(0) if found else "docs/RULES.md"
        if not known:
            text = f"{where}, no rule options"
        else:
            text = ", ".join(f"{name}={values[name]}" + (" (default)" if name in left else "") for name in known)
            text += f"; {where}"
        return {"options": values, "defaults": left, "text": text}

    def setup(self, strategies=None, seats: int | None = None, rules=None) -> Setup:
        """Build a :class:`Setup`.

        ``strategies``: None (the default strategy everywhere), one spec for every seat, a
        list of one spec per seat (which also sets ``seats`` when that is None), or a dict
        ``{seat: spec}`` overriding the default.
        Raises :class:`StrategyError` / :class:`OptionError` with one-line messages.
        """
        if seats is None and isinstance(strategies, (list, tuple)) and len(strategies) in self.table.seat_counts:
            seats = len(strategies)  # one spec per seat says how many seats there are
        seats = self.default_seats if seats is None else seats
        if seats not in self.table.seat_counts:
            raise OptionError(f"{self.name} is played with {' or '.join(map(str, self.table.seat_counts))} seats, not {seats}")
        specs = [self.table.default_strategy] * seats
        if isinstance(strategies, str):
            specs = [strategies] * seats
        elif isinstance(strategies, dict):
            for seat, spec in strategies.items():
                if not isinstance(seat, (int, np.integer)) or not 0 <= seat < seats:
                    raise StrategyError(f"seat {quote(seat)} does not exist at a {seats}-seat {self.name} table")
                specs[int(seat)] = spec
        elif strategies is not None:
            specs = as_list(strategies, "strategies (one spec, a list of one per seat, or a dict {seat: spec})")
            if len(specs) != seats:
                raise StrategyError(f"{len(specs)} strategies given for {seats} seats")
        ids = np.zeros(seats, dtype=np.int64)
        params = np.zeros((seats, N_PARAMS), dtype=np.float64)
        for seat, spec in enumerate(specs):
            if not isinstance(spec, str):
                raise StrategyError(f"seat {seat}'s strategy must be a string NAME[:param=value,...], "
                                    f"got {type(spec).__name__} {quote(spec)}")
            strategy, vec = self.table.registry.resolve(spec)
            ids[seat] = strategy.id
            params[seat] = vec
        return Setup(self.name, seats, ids, params, self.parse_rules(rules), tuple(specs))


def rule_json(value):
    """A rule option's value as JSON has it: numbers, strings, booleans and None as they are, else text."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return str(value)


__all__ = ["GameSpec", "Table", "Play", "Matches", "Modules", "MODULE_KINDS", "rule_json", "FrameHooks", "DDHooks",
           "GameFacts", "ContractBands", "RecordError", "OptionError", "RuleOption", "Setup", "StrategyError", "N_PARAMS"]
