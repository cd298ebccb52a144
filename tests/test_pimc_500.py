"""Five Hundred's sampled-search player (``pimc``, :mod:`cardsim.games.g500.pimc`): the view it
builds, the cards it plays, reproducibility.  Few deals and few worlds: a search costs milliseconds."""
import inspect

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.games.g500 import pimc as P
from cardsim.games.g500.constants import FULL_EFF, NT, REMAP, SUIT_MASK, TRUMP_MASK, parse_card
from cardsim.games.g500.rules import legal_plays
from cardsim.games import get_game
from cardsim.games.g500.strategies import PIMC_STRATEGY, heuristic_play
from cardsim.strategies import pimc as G
from cardsim.strategies.registry import StrategyError

U64 = np.uint64
SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3


def eff(token, denom):
    """The effective card of a physical card token under ``denom``."""
    return int(REMAP[denom, parse_card(token)])


def bits(tokens, denom):
    return sum(1 << eff(t, denom) for t in tokens.split())


def view(seat, hand, denom, declarer, leader, trick, led, played, known=0, fallback=None, voids=0):
    """``pimc``'s view tuple (dispatch's choose_card arguments and the heuristic's card)."""
    t = np.zeros(4, dtype=np.int64)
    t[:len(trick)] = trick
    if fallback is None:
        legal = int(legal_plays(U64(hand), np.int64(denom), np.int64(led)))
        fallback = min(c for c in range(64) if legal >> c & 1)
    return (seat, hand, denom, declarer, leader, t, len(trick), led, played, known, 0, 6, voids, fallback)


def test_simulate_plays_only_legal_cards_and_records_replay():
    before = G.COUNTERS.searched
    # simulate raises (the engine, at the move) if a strategy made an illegal move in any deal.
    df = cardsim.simulate("500", 12, seed=5, strategies="pimc:worlds=3", n_jobs=1)
    assert df["declarer"].notna().sum() >= 8
    assert G.COUNTERS.searched - before > 200  # a few hundred searched decisions
    records = cardsim.records("500", [0, 1, 2, 3], seed=5, strategies="pimc:worlds=3")
    for record in records:
        result = cardsim.replay(record)  # the slow twin re-checks every card against the rules
        assert result == record["result"]
        row = df[df["deal"] == record["source"]["deal"]].iloc[0]
        if result["declarer"] is not None:
            assert result["tricks"] == [int(row["tricks_0"]), int(row["tricks_1"])]

def test_position_counts_and_allowed_with_bowers_and_jokers():
    # Hearts trumps; one trick completed; seat 1 led the A of hearts, seat 2 followed with the left
    # bower (the jack of diamonds, a trump), seat 3 showed out of trumps with a club; seat 0 (a
    # defender, declarer 1) to play.
    d = HEARTS
    first = bits("KS QS JS TS", d)
    trick = [eff("AH", d), eff("JD", d), eff("4C", d)]
    hand = bits("HJ 5H 6S 7S 8D 9D TD KC QC", d)
    played = first | sum(1 << c for c in trick)
    pos = P.position(view(0, hand, d, 1, 1, trick, HEARTS, played))
    assert pos.counts.tolist() == [8, 8, 8, 6]  # seats 1, 2, 3 (each played to this trick) and the kitty
    assert pos.unseen == int(FULL_EFF[d]) & ~hand & ~played and bin(pos.unseen).count("1") == 30
    trumps = int(SUIT_MASK[d, HEARTS])
    assert trumps & (1 << eff("LJ", d)) and trumps & (1 << eff("JD", d))  # the lane holds jokers and bowers
    assert int(pos.allowed[2]) == int(FULL_EFF[d]) & ~trumps  # seat 3: no trump, no joker, no bower
    assert int(pos.allowed[0]) == int(pos.allowed[1]) == int(pos.allowed[3]) == int(FULL_EFF[d])
    assert pos.legal.tolist() == sorted([eff("HJ", d), eff("5H", d)])  # follow trumps
    assert not pos.lead and not pos.declaring

    # A show-out in an earlier trick counts too: seat 2 discarded on a club lead.
    pos = P.position(view(0, hand, d, 1, 1, trick, HEARTS, played, voids=1 << (4 * 2 + CLUBS)))
    assert int(pos.allowed[1]) == int(FULL_EFF[d]) & ~int(SUIT_MASK[d, CLUBS])
    assert int(pos.allowed[2]) == int(FULL_EFF[d]) & ~trumps

    # The declarer sees his own discards: nothing unseen in the kitty.
    disc = bits("4S 5S 4D 5D 6D 7D", d)
    hand_d = bits("HJ 5H 6S 7S 8D 9D TD KC QC", d)
    pos = P.position(view(1, hand_d, d, 1, 1, [], -1, first, known=disc))
    assert pos.counts.tolist() == [9, 9, 9, 0] and pos.lead and pos.declaring
    assert pos.unseen & disc == 0

    # No-trump: the low joker led naming spades; a joker played to a suit lead shows out of it,
    # and the jokers stay allowed to a seat void in spades.
    d = NT
    trick = [eff("LJ", d), eff("HJ", d)]
    hand = bits("4S 5S 6D 7D 8D 9H TH JH QC KC", d)
    pos = P.position(view(3, hand, d, 0, 1, trick, SPADES, sum(1 << c for c in trick)))
    assert pos.counts.tolist() == [10, 9, 9, 6]  # seats 0, 1 (led), 2
    jokers = int(TRUMP_MASK[NT])
    assert int(pos.allowed[2]) == int(FULL_EFF[d]) & ~int(SUIT_MASK[d, SPADES])
    assert int(pos.allowed[2]) & jokers == jokers
    assert pos.legal.tolist() == [eff("4S", d), eff("5S", d)]
    # Leading a joker in no-trump: one move per suit named.
    pos = P.position(view(1, bits("HJ 4S", d), d, 1, 1, [], -1, 0))
    assert pos.legal.tolist() == sorted([eff("4S", d)] + [eff("HJ", d) | s << 8 for s in range(4)])


def _endgame(fallback_token):
    """Hearts trumps, two tricks left: seat 1 led the A of spades, seats 2 and 3 followed; seat 0
    holds the high joker and the master A of diamonds, and no trump is unseen.  Ruffing takes
    both tricks in every world, throwing the ace takes one."""
    d = HEARTS
    hand = bits("HJ AD", d)
    trick = [eff("AS", d), eff("4S", d), eff("5S", d)]
    unseen = bits("6S 7S 8S 4C 5C 6C 4D 5D 6D", d)
    played = int(FULL_EFF[d]) & ~hand & ~unseen
    return view(0, hand, d, 1, 1, trick, SPADES, played, fallback=eff(fallback_token, d))


def test_every_world_agrees_on_the_ruff():
    v = _endgame("AD")  # the heuristic's card (the tie-break) is the worse one
    pos = P.position(v)
    assert pos.counts.tolist() == [1, 1, 1, 6]
    worlds, _ = G.sample_worlds(U64(7), U64(pos.unseen), pos.counts, pos.allowed, np.int64(6))
    assert [[bin(int(h)).count("1") for h in w] for w in worlds] == [[1, 1, 1, 6]] * 6
    values = P.solve(pos, worlds)
    assert pos.legal.tolist() == [eff("AD", HEARTS), eff("HJ", HEARTS)]
    assert values.tolist() == [[1.0, 2.0]] * 6
    row = PIMC_STRATEGY.vector(worlds=6)
    assert G.decide(P.HOOKS, row, 123, 37, 0, v) == eff("HJ", HEARTS)


def test_same_view_same_card_whatever_the_hidden_hands():
    # The glue's arguments are dispatch's: every seat's rows and the deal's streams (it reads its
    # own), then exactly heuristic_play's view, the public voids and the public record of the
    # auction (with the dealt hands, of which only the seat's own reaches the search: the
    # Python side's record ends with it); the game's spec carries the hooks.
    glue = inspect.signature(P.pimc_card.py_func).parameters
    view_args = inspect.signature(heuristic_play.py_func).parameters
    assert list(glue) == ["params", "streams"] + list(view_args) + ["voids", "auction"]
    assert list(inspect.signature(P.decide_card).parameters) == ["row", "state"] + list(view_args) + [
        "voids", "fallback", "record"]
    assert get_game("500").pimc is P.HOOKS and P.HOOKS.strategy is get_game("500").table.registry["pimc"]
    # Spades trumps, seat 2 (declarer's partner, declarer 0) third to play in trick 3.  Two deals
    # that agree on what seat 2 has seen and differ in every other hand and the kitty.
    d = SPADES
    rng = np.random.default_rng(3)
    deck = [c for c in range(64) if int(FULL_EFF[d]) >> c & 1]
    rng.shuffle(deck)
    hand = sum(1 << c for c in deck[:8])
    lane = max(range(4), key=lambda s: bin(hand & int(SUIT_MASK[d, s])).count("1"))  # a suit it must follow
    trick = [c for c in deck[8:] if int(SUIT_MASK[d, lane]) >> c & 1][:2]
    played = [c for c in deck[8:] if c not in trick][:8] + trick  # two tricks and this trick's first two cards
    rest = [c for c in deck[8:] if c not in played]
    assert len(rest) == 28
    row = PIMC_STRATEGY.vector(worlds=4)
    cards = []
    for perm in (np.arange(28), rng.permutation(28)):
        hidden = [rest[i] for i in perm]
        others = {0: hidden[0:7], 1: hidden[7:14], 3: hidden[14:22]}  # seats 0, 1 played to this trick
        kitty = hidden[22:]
        assert len(kitty) == 6 and sum(map(len, others.values())) == 22
        # What the engine passes seat 2: its own hand, the trick, the played cards; not the rest.
        v = view(2, hand, d, 0, 0, trick, int(trick[0]) >> 4,
                 sum(1 << c for c in played))
        cards.append(G.decide(P.HOOKS, row, 99, 10, 2, v))
    assert cards[0] == cards[1]
    legal = P.position(v).legal.tolist()
    assert len(legal) > 1 and cards[0] in legal


def test_reproducible_and_independent_of_chunks_and_jobs():
    spec = ["pimc:worlds=2", "heuristic", "pimc:worlds=2,stream=3", "heuristic"]
    frames = [cardsim.simulate("500", 8, seed=11, strategies=spec, chunk_size=chunk, n_jobs=jobs)
              for chunk, jobs in ((3, 1), (7, 1), (3, 2), (7, 2))]
    for f in frames[1:]:
        pd.testing.assert_frame_equal(frames[0], f)
    base = cardsim.simulate("500", 8, seed=11, strategies="heuristic", n_jobs=1)
    # Same auctions (pimc bids like heuristic); the play differs somewhere.
    assert frames[0]["contract"].astype(str).tolist() == base["contract"].astype(str).tolist()


def test_strategies_lists_pimc_and_bad_worlds_is_one_line(capsys):
    assert main(["strategies", "500"]) == 0
    out, _ = capsys.readouterr()
    assert "pimc" in out and "worlds = 16" in out and "partner = 2.6" in out
    code = main(["simulate", "500", "-n", "2", "--strategy", "0=pimc:worlds=0"])
    _, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "worlds" in lines[0] and "Traceback" not in err
    with pytest.raises(StrategyError, match="worlds"):
        cardsim.simulate("500", 2, strategies="pimc:worlds=0")
