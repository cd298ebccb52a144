"""501's sampled-search player (``pimc``, cardsim/games/g501/pimc.py over cardsim/strategies/pimc.py).

What it must do: play only legal cards (its records replay), decide from the seat's view alone
(the same view gives the same card whatever the hidden hands), sample only worlds consistent with
the view (card counts, shown voids), play the card that is best in every world when they all
agree, give the same frames whatever the chunking and the number of jobs, and be listed and
checked like any other strategy.  Few deals and few worlds: each world costs a double-dummy
solve per legal card.
"""
import dataclasses
import inspect

import numpy as np
import pytest

import cardsim
from cardsim import StrategyError
from cardsim.cards import RANKS_501, full_deck, parse_card
from cardsim.cli import main
from cardsim.games.g501 import solver as DD
from cardsim.games.g501 import pimc as P
from cardsim.games.g501 import strategies as S
from cardsim.games.g501.constants import DECK_MASK, DECLARE_FLAG, NT, SEEN_CARDS, SEEN_VOIDS
from cardsim.games.g501.rules import can_declare, legal_plays, trick_winner
from cardsim.strategies import pimc as G

U64 = np.uint64
SEED = 5


def card(token):
    return parse_card(token, RANKS_501)


def bits(tokens):
    return sum(1 << card(t) for t in tokens.split())


def views(hands, order, leader, declarer, trump, plays):
    """Every decision of a deal played from ``hands`` ({seat: "AS KS ..."}; ``order`` the active
    seats clockwise) with the cards ``plays`` (tokens, in play order), as the engine shows them:
    yields ``(seat, view)``, ``view`` the arguments of heuristic_play (P.VIEW) in order, after
    each card and before the first; the deal's state is kept as engine.play_tricks keeps it."""
    hp = {s: bits(h) for s, h in hands.items()}
    seen = np.zeros((2, 4), dtype=np.uint64)
    won = dict.fromkeys(order, 0)
    played, trick, led, seat, winner, k = 0, 0, -1, leader, leader, 0
    nxt = {s: order[(i + 1) % 3] for i, s in enumerate(order)}
    for i in range(len(plays) + 1):
        decl_pos = 0
        s = leader
        while s != declarer:
            s, decl_pos = nxt[s], decl_pos + 1
        legal = legal_plays(U64(hp[seat]), -1 if led < 0 else led >> 4, trump)
        yield seat, (U64(hp[seat]), U64(legal), U64(trick), np.int64(led), np.int64(trump), U64(played),
                     seat == declarer, won[seat] > 0, np.int64(decl_pos), np.int64(seat), np.int64(declarer),
                     seen.copy())
        if i == len(plays):
            return
        c = card(plays[i])
        assert int(legal) >> c & 1, plays[i]
        hp[seat] &= ~(1 << c)
        played |= 1 << c
        trick |= 1 << c
        seen[SEEN_CARDS, seat] |= U64(1 << c)
        if led >= 0 and c >> 4 != led >> 4:
            seen[SEEN_VOIDS, seat] |= U64(0x3F << 16 * (led >> 4))
            if trump != NT and c >> 4 != trump:
                seen[SEEN_VOIDS, seat] |= U64(0x3F << 16 * trump)
        if led < 0:
            led, winner = c, seat
        elif trick_winner(U64(trick), led >> 4, trump) == c:
            winner = seat
        seat = nxt[seat]
        k += 1
        if k == 3:
            won[winner] += 1
            seat = leader = winner
            played, trick, led, k = played, 0, -1, 0


def last(it):
    for x in it:
        pass
    return x


def code_of(view):
    """heuristic_play's code for ``view`` (what position() gets as its last item)."""
    return S.heuristic_play(*view)


# Four seats, seat 2 deals and sits out: the active seats clockwise are 3, 0, 1; seat 3 leads.
# Seat 1 declared spades.  Trick 1: seat 3 leads AH, seat 0 follows, the declarer ruffs; trick 2:
# he leads KD, seat 3 shows out of diamonds without a trump (no diamond, no spade).
HANDS = {3: "AH TH QH JH JC QC KC AC", 0: "9H KH 9D JD QD AD TD 9C",
         1: "9S JS QS KS TS AS KD TC"}
ORDER, LEADER, DECLARER, TRUMP = (3, 0, 1), 3, 1, 0
PLAYS = ["AH", "9H", "9S", "KD", "JC"]


def test_view_is_heuristics_arguments():
    """The search gets exactly heuristic_play's arguments (and its code), never a hidden hand."""
    names = list(inspect.signature(S.heuristic_play.py_func).parameters)
    assert list(P.VIEW) == names
    # and the public record of the auction and the talon, with the seat's own dealt hand and gifts
    # (read with auction=1 only: tests/test_pimc_auction_501.py)
    assert list(inspect.signature(P.pimc_card.py_func).parameters) == ["row", "rng", *names, "auction"]
    assert list(inspect.signature(P.decide_card).parameters) == ["row", "state", *names, "code", "record"]


def test_position_of_a_hand_built_mid_deal_view():
    """Seat 0 last to play to trick 2 (the declarer led): players 1 (the declarer) and 2 (seat 3)
    hold 6 cards each, the declarer no heart, seat 3 no diamond and no spade; the declarer won
    trick 1 and leads this one."""
    seat, view = last(views(HANDS, ORDER, LEADER, DECLARER, TRUMP, PLAYS))
    assert seat == 0
    pos = P.position((*view, code_of(view)))
    templ, cards, leader, decl, trump, won, lead_marriage, code = pos.context
    assert (leader, decl, won, lead_marriage) == (1, 1, 1, -1)
    assert list(cards) == [card("KD"), card("JC")]
    assert list(pos.legal) == sorted(card(t) for t in ("9D", "JD", "QD", "AD", "TD"))
    assert not pos.lead and not pos.declaring and pos.fallback == code % DECLARE_FLAG
    assert list(pos.counts) == [6, 6]
    unseen = int(DECK_MASK) & ~bits("KH 9D JD QD AD TD 9C") & ~bits(" ".join(PLAYS))
    assert pos.unseen == unseen and bin(unseen).count("1") == 12
    hearts, diamonds, spades = 0x3F << 48, 0x3F << 32, 0x3F
    assert int(pos.allowed[0]) == int(DECK_MASK) & ~hearts
    assert int(pos.allowed[1]) == int(DECK_MASK) & ~diamonds & ~spades
    # every sampled world is consistent: the counts, no card of a suit shown out of, all unseen
    worlds, _ = G.sample_worlds(U64(7), U64(pos.unseen), pos.counts, pos.allowed, np.int64(64))
    for w in worlds:
        assert [bin(int(x)).count("1") for x in w] == [6, 6]
        assert int(w[0]) | int(w[1]) == unseen and not int(w[0]) & int(w[1])
        assert not int(w[0]) & hearts and not int(w[1]) & (diamonds | spades)
    # the real layout is among the consistent ones
    held = bits("JS QS KS TS AS TC"), bits("TH QH JH QC KC AC")
    assert all(int(a) & h == h for a, h in zip(pos.allowed, held))


def test_the_declarer_places_the_defenders_by_their_seats():
    """The declarer (seat 1) on lead to trick 2: seat 3 plays after him, then seat 0; in trick 1,
    third to play, the leader (seat 3) is player 1 and seat 0 player 2."""
    vs = list(views(HANDS, ORDER, LEADER, DECLARER, TRUMP, PLAYS))
    for i in (2, 3):
        seat, view = vs[i]
        assert seat == 1
        pos = P.position((*view, code_of(view)))
        assert pos.declaring and list(pos.counts) == [7, 7]
        assert pos.unseen == bits("TH QH JH JC QC KC AC") | bits("KH 9D JD QD AD TD 9C")
        _, _, leader, decl, _, won, _, _ = pos.context
        assert decl == 0 and won == (i == 3) and leader == (0 if i == 3 else 1)
    seat, view = vs[3]
    pos = P.position((*view, code_of(view)))
    # seat 3 (player 1) has shown nothing yet; seat 0 (player 2) neither: hearts were followed
    assert [int(a) for a in pos.allowed] == [int(DECK_MASK)] * 2
    # trick 3, led by seat 0 (who won trick 2 with AD): the declarer second, seat 3 (no diamond,
    # no spade) plays after him as player 1, the leader seat 0 is player 2
    seat, view = last(views(HANDS, ORDER, LEADER, DECLARER, TRUMP, PLAYS + ["AD", "9D"]))
    pos = P.position((*view, code_of(view)))
    assert seat == 1 and list(pos.counts) == [6, 5] and pos.context[2:4] == (2, 0)
    assert [int(a) for a in pos.allowed] == [int(DECK_MASK) & ~(0x3F << 32) & ~0x3F, int(DECK_MASK)]


def test_a_defender_infers_the_declarers_marriage_on_his_lead():
    """On the first trick the declarer (who has won nothing yet) leads a Q of a marriage: in the
    worlds where he holds its K, 20 points are pending (counted when he wins a trick)."""
    hands = {0: "QH KH 9S JS QS KS TS AS", 1: "9H JH AH TH 9D JD QD KD", 2: "AD TD 9C JC QC KC AC TC"}
    seat, view = last(views(hands, (0, 1, 2), 0, 0, TRUMP, ["QH"]))
    pos = P.position((*view, code_of(view)))
    assert seat == 1 and pos.context[6] == card("KH") and pos.context[5] == 0
    worlds, _ = G.sample_worlds(U64(3), U64(pos.unseen), pos.counts, pos.allowed, np.int64(16))
    values = P.solve(pos, worlds)
    assert values.shape == (16, len(pos.legal)) and (values <= 0).all()


def test_positions_of_real_deals_hold_their_real_layout(monkeypatch):
    """At every card of pimc seats in real deals, three and four seats (the dealer sitting out):
    the two hidden holders are the next two active seats clockwise, with their real card counts,
    and their real cards are unseen and allowed (no suit they showed out of).  Each seat's dealt
    eight cards are its hand plus what it has played, read from its own views."""
    calls = []

    def spy(view):
        pos = P.position(view)
        calls.append((view, pos))
        return pos

    monkeypatch.setattr(P, "HOOKS", dataclasses.replace(P.HOOKS, position=spy))
    for seats in (3, 4):
        cardsim.records("501", list(range(8)), SEED, ["pimc:worlds=2"] * seats, seats=seats)
    deals = []
    for view, pos in calls:
        if int(view[5]) == 0:  # nothing played yet: a new deal
            deals.append([])
        deals[-1].append((view, pos))
    checked = 0
    four = 0
    for deal in deals:
        dealt = {int(v[9]): int(v[0]) | int(v[11][SEEN_CARDS, int(v[9])]) for v, _ in deal}
        assert len(dealt) == 3 and all(bin(h).count("1") == 8 for h in dealt.values())
        four += 3 in dealt
        for view, pos in deal:
            seat, seen = int(view[9]), view[11]
            after = sorted((s for s in dealt if s != seat), key=lambda s: (s - seat) % 4)
            real = [dealt[s] & ~int(seen[SEEN_CARDS, s]) for s in after]
            assert list(pos.counts) == [bin(r).count("1") for r in real]
            assert real[0] | real[1] == pos.unseen
            assert all(r & ~int(a) == 0 for r, a in zip(real, pos.allowed))
            checked += 1
    assert checked >= 200 and four >= 3


def test_the_same_view_gives_the_same_card_whatever_the_hidden_hands():
    """Two deals that differ only in hidden cards (seat 3's QC and the declarer's TC swapped:
    neither played yet) show seat 0 the same view, so the same card."""
    other = dict(HANDS)
    other[3], other[1] = "AH TH QH JH JC TC KC AC", "9S JS QS KS TS AS KD QC"
    (s1, v1), (s2, v2) = (last(views(h, ORDER, LEADER, DECLARER, TRUMP, PLAYS)) for h in (HANDS, other))
    assert s1 == s2 == 0 and all(np.array_equal(a, b) for a, b in zip(v1, v2))
    row = P.PIMC_STRATEGY.vector(worlds=8)
    cards = {G.decide(P.HOOKS, row, 12345, 5, 0, (*v, code_of(v))) for v in (v1, v2)}
    assert len(cards) == 1
    assert int(v1[1]) >> (cards.pop() % DECLARE_FLAG) & 1


def token(c):
    return "9JQKTA"[c & 15] + "SCDH"[c >> 4]


def random_view(rng, played):
    """``(seat, view)`` after ``played`` random legal cards of a random deal (seats 0-2)."""
    deck = rng.permutation(full_deck(RANKS_501))
    hands = {s: " ".join(token(int(c)) for c in deck[8 * s:8 * s + 8]) for s in range(3)}
    trump, leader, declarer = int(rng.integers(0, 5)), int(rng.integers(0, 3)), int(rng.integers(0, 3))
    plays = []
    for _ in range(played):
        legal = int(last(views(hands, (0, 1, 2), leader, declarer, trump, plays))[1][1])
        plays.append(token(int(rng.choice([c for c in range(64) if legal >> c & 1]))))
    return last(views(hands, (0, 1, 2), leader, declarer, trump, plays))


def test_where_every_world_agrees_that_card_is_played():
    """Positions of the last three tricks: the cards best in every sampled world (the worlds the
    decision itself samples, from its key) are exactly those of the best mean, so pimc plays one
    of them (heuristic's card if it is one, else the lowest), also where heuristic would not."""
    rng = np.random.default_rng(SEED)
    row = P.PIMC_STRATEGY.vector(worlds=6)
    agreed = overruled = 0
    for i in range(150):
        seat, view = random_view(rng, 15 + i % 5)
        if bin(int(view[1])).count("1") < 2:
            continue
        full = (*view, code_of(view))
        pos = P.position(full)
        played = bin(int(view[5])).count("1")
        key = G.decision_key(99, 0, played, seat)
        worlds, _ = G.sample_worlds(U64(key), U64(pos.unseen), pos.counts, pos.allowed, np.int64(6))
        values = P.solve(pos, worlds)
        everywhere = (values == values.max(axis=1, keepdims=True)).all(axis=0)
        if not everywhere.any():
            continue
        agreed += 1
        best = [int(c) for c in pos.legal[everywhere]]
        want = pos.fallback if pos.fallback in best else best[0]
        # Every world solved: the sequential rule may stop on a tie seen in 4 of the 6 worlds
        # (its error is tested in tests/test_pimc_stop.py).
        assert G.decide(P.HOOKS, row, 99, played, seat, full, stop=False) % DECLARE_FLAG == want
        overruled += want != pos.fallback
    assert agreed >= 50 and overruled >= 3, (agreed, overruled)


def test_solve_cards_equals_minimax_inside_a_trick():
    """The solver's per-card values from 0, 1 or 2 cards on the trick, with the declarer's marriage
    declared on his lead, equal plain minimax."""
    rng = np.random.default_rng(SEED)
    keys, bounds = DD.new_table(12)
    moves, stats = np.zeros(DD.MOVES_SHAPE, dtype=np.int64), np.zeros(1, dtype=np.int64)
    declared = 0
    for i in range(120):
        ntr = 1 + i % 4
        deck = rng.permutation(full_deck(RANKS_501))[:3 * ntr]
        h = np.array([sum(1 << int(c) for c in deck[s * ntr:(s + 1) * ntr]) for s in range(3)], dtype=np.uint64)
        leader, decl, trump = (int(x) for x in rng.integers(0, [3, 3, 5]))
        won = int(rng.integers(0, 2))
        pending = 0 if won else int(rng.choice([0, 20]))
        tr = []
        for j in range(i % 3):
            p = (leader + j) % 3
            lg = int(legal_plays(h[p], -1 if j == 0 else tr[0] >> 4, trump))
            tr.append(int(rng.choice([c for c in range(64) if lg >> c & 1])))
            h[p] &= ~U64(1 << tr[-1])
        me = (leader + len(tr)) % 3
        lg = int(legal_plays(h[me], -1 if not tr else tr[0] >> 4, trump))
        legal = np.array([c for c in range(64) if lg >> c & 1], dtype=np.int64)
        out = np.zeros((1, len(legal)), dtype=np.int64)
        DD.solve_cards(h[None, :], np.int64(me), legal, np.int64(leader), np.int64(decl), np.int64(trump),
                       np.int64(won), np.array([pending]), np.array(tr, dtype=np.int64), keys, bounds, moves, stats,
                       out)
        for j, c in enumerate(legal):
            g, pe = 0, pending
            if not tr and me == decl and can_declare(h[me], c):
                g, pe = DD.declare(g, pe, won, int(c) >> 4, trump)
                declared += 1
            hh = h.copy()
            hh[me] &= ~U64(1 << int(c))
            t3 = np.zeros(3, dtype=np.int64)
            t3[:len(tr) + 1] = tr + [int(c)]
            ref = g + DD.minimax(hh, len(tr) + 1, leader, decl, trump, t3[0],
                                 U64(sum(1 << int(x) for x in t3[:len(tr) + 1])), t3, won, pe)
            assert out[0, j] == ref, (i, tr, int(c))
    assert declared > 0


def test_records_replay_and_only_legal_cards():
    """Every seat pimc (few worlds) on 16 deals: a few hundred searched decisions, every record
    replays (legal cards, marriages it may declare) to the frame's result, and the search changes
    some cards from heuristic's."""
    before = G.COUNTERS.searched
    recs = cardsim.records("501", list(range(16)), SEED, ["pimc:worlds=3"] * 3)
    assert G.COUNTERS.searched - before >= 150
    base = cardsim.records("501", list(range(16)), SEED, ["heuristic"] * 3)
    df = cardsim.simulate("501", 16, seed=SEED, strategies="pimc:worlds=3", n_jobs=1)
    changed = 0
    for rec, ref, (_, row) in zip(recs, base, df.iterrows()):
        assert cardsim.replay(rec) == rec["result"]
        changed += rec["play"] != ref["play"]
        if rec["play"]:
            assert rec["result"]["cards"] == [row[f"cards_{s}"] for s in range(3)]
    assert changed >= 3


def test_reproducible_whatever_the_chunks_and_jobs():
    spec = ["pimc:worlds=3", "heuristic", "pimc:worlds=3,side=2"]
    a = cardsim.simulate("501", 12, seed=SEED, strategies=spec, chunk_size=3, n_jobs=1)
    b = cardsim.simulate("501", 12, seed=SEED, strategies=spec, chunk_size=7, n_jobs=2)
    assert a.equals(b)
    c = cardsim.simulate("501", 12, seed=SEED, strategies=["pimc:worlds=3,stream=1", *spec[1:]], n_jobs=1)
    assert not a.equals(c)  # another stream samples other worlds: the search is really used


def test_listed_with_its_parameters_and_a_bad_one_is_a_one_line_error(capsys):
    assert main(["strategies", "501"]) == 0
    out = capsys.readouterr().out
    assert "pimc" in out and "worlds = 16" in out and "side = 0" in out and "margin = 0" in out
    assert S.PIMC_STRATEGY.id == S.PIMC == 4 and S.REGISTRY["pimc"] is S.PIMC_STRATEGY and S.PIMC_STRATEGY.search
    assert cardsim.get_game("501").pimc is P.HOOKS
    with pytest.raises(StrategyError, match="worlds") as exc:
        cardsim.simulate("501", 2, strategies="pimc:worlds=0")
    assert "\n" not in str(exc.value)
    assert main(["simulate", "501", "-n", "2", "--strategy", "pimc:worlds=0"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len([ln for ln in err.splitlines() if ln.strip()]) == 1
