"""Vint tables: partial aggregates merge exactly, rates and intervals are consistent."""
import numpy as np
import pandas as pd

import cardsim
from cardsim.analysis import merge
from cardsim.analysis import vint as va


def test_partials_merge_to_the_whole():
    df = cardsim.simulate("vint", 3000, seed=21)
    whole = va.summarize(df)
    parts = merge([va.summarize(df.iloc[:1000]), va.summarize(df.iloc[1000:])])
    pd.testing.assert_frame_equal(whole.sort_index(), parts.sort_index(), check_dtype=False)


def test_contract_table_counts_and_rates():
    df = cardsim.simulate("vint", 3000, seed=22)
    tabs = va.tables(va.summarize(df))
    t = tabs["vint_contracts"]
    assert t.n.sum() == 3000
    # The most frequent contract (the default bidding has changed which one that is: 1NT until
    # issue 12 made no-trump rare).
    played = t[t.contract != "void"]
    row = played.loc[played.n.idxmax()]
    assert row.n >= 100
    sub = df[df.contract == row.contract]
    assert row.n == len(sub)
    assert np.isclose(row.made, sub.made.mean())
    assert row.made_lo <= row.made <= row.made_hi
    dteam = sub.declarer % 2
    decl = np.where(dteam == 0, sub.total_0, sub.total_1)
    assert np.isclose(row.declarer_score, decl.mean())
    void = t[t.contract == "void"].iloc[0]
    assert void.n == df.void.sum() and np.isnan(void.made)
    assert tabs["vint_levels"].n.sum() == 3000


def test_opening_table_matches_rows():
    df = cardsim.simulate("vint", 4000, seed=23)
    t = va.tables(va.summarize(df))["vint_openings"]
    opened = df[df.opener.notna()]
    hcp = opened.apply(lambda r: r[f"hcp_{r.opener}"], axis=1)
    band = opened[(hcp >= 13) & (hcp <= 14) & (opened.opening_level == 1) & (opened.opening_denomination == "H")]
    row = t[(t.hcp_band == "13-14") & (t.opening == "1H")].iloc[0]
    assert row.n == len(band)
    same_side = (band.declarer % 2) == (band.opener % 2)
    assert np.isclose(row.declares, same_side.mean())
    assert np.isclose(row.made, (same_side & band.made).mean())
