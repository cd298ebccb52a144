"""The Vint lead chart (issue 31, cardsim.analysis.vint.leads): which card each lead kind leads, the
deals of a cell meet its classes, the kinds' values are the DD values of their cards, and the
tables and the answer agree with the per-deal rows."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis.vint import leads as L
from cardsim.cards import VINT_RANKS, card_str, parse_card

from vint_helpers import hand_bits


def led(h: int, kind: str, suit: str, trump: int) -> str:
    c = L.lead_card(h, kind, "SCDH".index(suit), trump)
    return "" if c < 0 else card_str(c, VINT_RANKS)


def test_each_kind_leads_the_card_players_mean():
    h = hand_bits("S:KQJ72 H:84 D:Q953 C:T")
    assert led(h, "top", "S", 4) == "KS" and led(h, "low", "S", 4) == "7S"  # 4th best of KQJ72
    assert led(h, "other", "S", 4) == "3D"  # the longest other suit, 4th best from Q953
    assert led(h, "trump", "S", 3) == "4H" and led(h, "trump", "S", 4) == ""  # no trump lead in no-trump
    assert led(h, "top", "C", 3) == "TC" and led(h, "low", "C", 3) == "TC"  # a singleton
    assert led(h, "other", "C", 3) == "7S"  # not clubs (the class's suit), not hearts (trumps): spades
    # ties in length go to the suit with more high-card points: D:K84 before H:953
    tie = hand_bits("S:AK72 H:953 D:K84 C:T62")
    assert led(tie, "other", "S", 4) == "4D" and led(tie, "low", "S", 4) == "2S"
    assert led(hand_bits("S:962 H:A8 D:QJ5 C:KT743"), "low", "S", 4) == "2S"  # low from three


def test_cells_cover_both_contracts_and_the_short_suits_only_against_a_suit():
    cells = L.cells()
    assert [c.contract.name for c in cells].count("3NT") == 6 and [c.contract.name for c in cells].count("4H") == 8
    assert all(c.kinds == ("top", "low", "other") for c in cells if c.contract.name == "3NT")
    singleton = next(c for c in cells if c.holding.key == "x")
    assert singleton.kinds == ("top", "other", "trump") and "H=1-3" in singleton.where


def test_a_cell_task_meets_its_classes_and_reads_the_dd_values():
    from cardsim.games.vint.solver import lead_values

    cell = next(c for c in L.cells() if c.contract.name == "4H" and c.holding.key == "KQJx")
    df = L.cell_task(cell, 7, 10, 6)
    assert list(df.deal) == list(range(10, 16)) and list(df.columns) == ["deal", *cell.kinds, "best", "best_cards"]
    # the same deals again, to look at the hands
    from cardsim.conditions import Conditions, compile, parse_classes
    from cardsim.deal import deal_chunk

    dealt = deal_chunk(compile(Conditions("vint", hands={L.LEADER: "S:KQJ"}, classes=parse_classes("vint", cell.where))),
                       L.task_seed(7, cell), 10, 6)
    values = lead_values(dealt.hands, L.DECLARER, 3)
    for i in range(6):
        h = int(dealt.hands[i, L.LEADER])
        spades = (h & 0xFFFF)
        assert spades >> parse_card("KS", VINT_RANKS) & 1 and not spades >> parse_card("AS", VINT_RANKS) & 1
        assert bin(spades).count("1") >= 4 and 1 <= bin((h >> 48) & 0xFFFF).count("1") <= 3  # S>=4, H=1-3
        for kind in cell.kinds:
            assert df[kind][i] == values[i, L.lead_card(h, kind, 0, 3)]
        assert df.best[i] == values[i].max() and (df[list(cell.kinds)].iloc[i] <= df.best[i]).all()


def _fake(cells, n=60, seed=0):
    """Per-deal frames with known means: 'top' one trick better than every other kind."""
    rng = np.random.default_rng(seed)
    out = {}
    for c in cells:
        base = rng.integers(2, 6, n)
        d = {"deal": np.arange(n, dtype=np.int64)}
        for k in c.kinds:
            d[k] = (base + (1 if k == "top" else rng.integers(-1, 1, n))).astype(np.int8)
        d["best"] = np.max([d[k] for k in c.kinds], axis=0).astype(np.int8)
        d["best_cards"] = np.ones(n, dtype=np.int8)
        out[(c.contract.name, c.holding.key)] = pd.DataFrame(d)
    return out


def test_tables_pick_the_best_and_the_answer_quotes_the_chart():
    cells = L.cells()[:3]
    per = _fake(cells)
    tabs = L.tables(per, cells)
    chart, long = tabs["vint_leads_chart"], tabs["vint_leads"]
    assert (chart.best_kind == "top").all() and chart.clear.all() and (chart.gain >= 1).all()
    for r in chart.itertuples():
        df = per[(r.contract, [c.holding.key for c in cells if c.holding.label == r.hand][0])]
        odd = df.deal % 2 == 1
        runner_kind = long[(long.contract == r.contract) & (long.hand == r.hand) & (long.lead == r.runner_up)].kind.iloc[0]
        assert r.gain == pytest.approx((df.top - df[runner_kind])[odd].mean())
        assert r.ceiling == pytest.approx(df.best.mean())
    row = long[(long.hand == cells[0].holding.label) & (long.kind == "low")].iloc[0]
    df = per[("3NT", cells[0].holding.key)]
    assert row.tricks == pytest.approx(df.low.mean()) and row.vs_best == pytest.approx((df.low - df.top).mean())
    text = L.answer(chart)
    assert text.startswith("Against 3NT lead: ")
    for r in chart.itertuples():
        assert f"{r.hand}: {r.best}, {r.gain:+.2f} tricks [{r.gain_lo:+.2f}, {r.gain_hi:+.2f}] over {r.runner_up}" in text


def test_figure(tmp_path):
    cells = L.cells()
    tabs = L.tables(_fake(cells), cells)
    (path,) = L.figures(tabs["vint_leads"], tabs["vint_leads_chart"], tmp_path)
    assert path.name == "vint_leads.png" and path.stat().st_size > 10_000
