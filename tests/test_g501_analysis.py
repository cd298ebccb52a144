"""501 analysis: band edges, mergeable partial sums, tables with intervals."""
import numpy as np
import pandas as pd

from cardsim.analysis import g501 as A
from cardsim.games.g501 import SPEC


def test_band_of():
    assert list(A.band_of(np.array([0, 66, 69, 70, 79, 80, 159, 160, 220]))) == [0, 66, 66, 70, 70, 80, 140, 160, 160]
    assert A.band_label(66) == "66-69" and A.band_label(160) == "160-220" and A.band_label(0) == "void"


def test_partials_merge_and_tables():
    setup = SPEC.setup("heuristic_v4")  # looked bids below 70 exist (the default bids blind to 87 first)
    rows = pd.DataFrame(SPEC.play.simulate_chunk(8, 0, 4000, setup))
    whole = A.summarize(rows)
    parts = pd.concat([A.summarize(rows.iloc[:1500]), A.summarize(rows.iloc[1500:])])
    merged = parts.groupby(level=[0, 1]).sum()
    pd.testing.assert_frame_equal(whole.sort_index(), merged.sort_index(), check_dtype=False)
    tabs = A.tables(merged)
    bands = tabs["g501_bands"]
    assert bands.n.sum() == (~rows.void).sum()
    assert ((bands.made_lo <= bands.made_rate) & (bands.made_rate <= bands.made_hi)).all()
    played = rows[rows.played]
    first = bands[(bands.bid_band == "66-69") & (~bands.blind)].iloc[0]
    sel = played[(played.bid < 70) & (~played.blind)]
    assert first.n_played == len(sel) and np.isclose(first.made_rate, sel.made.mean())
    decl = sel.apply(lambda r: r[f"delta_{r.declarer}"], axis=1)
    assert np.isclose(first.played_delta, decl.mean())
    overall = tabs["g501_overall"].set_index("measure")
    assert overall.loc["void (all passed)", "count"] == rows.void.sum()
