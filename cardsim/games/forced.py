"""The forced vector: what a question (``cardsim evaluate``) forces on a deal, the same layout
in every game.

An int64 vector of length ``F_PREFIX + max prefix`` (each engine sets its ``F_LEN``):
``forced[F_KIND]`` is ``FORCE_NONE`` (all zeros: nothing forced), ``FORCE_FIRST_CALL`` (seat
``forced[F_SEAT]``'s first call after the given calls is ``forced[F_CALL]``) or
``FORCE_CONTRACT`` (the auction is skipped: that seat declares ``forced[F_CALL]``) or
``FORCE_REACHED`` (a lead question's contract reached by the auction: the strategies bid as
always, after the given calls, and the deal was dealt so that their auction ends with seat
``forced[F_SEAT]`` declaring ``forced[F_CALL]``; an engine plays it as ``FORCE_NONE``, its
forced lead included, and :mod:`cardsim.questions` checks the auction's end); the first
``forced[F_NPREFIX]`` calls of the auction are ``forced[F_PREFIX:]``, and ``forced[F_IMPLIED]`` says
who makes them: ``GIVEN_CALLS`` — they are simply made, whatever the callers hold (the callers'
strategies are not asked); ``IMPLIED_CALLS`` — the callers' strategies make them: the deal was
dealt so that they do (:func:`cardsim.deal.deal_chunk` with calls), and a strategy that calls
otherwise is an error; ``CHECK_CALLS`` — the auction stops after them, and the engine reports how
many of them the strategies made (the dealer's acceptance test).  Games with more to force
(501's blind bids, trump and target) add entries after their prefix.  Calls are in each game's
own call numbering.  (Plain constants: the engines import them; :mod:`cardsim.games.options`
builds the vectors from option text.)
"""
from __future__ import annotations

F_KIND, F_SEAT, F_CALL, F_NPREFIX, F_IMPLIED, F_PREFIX = 0, 1, 2, 3, 4, 5
FORCE_NONE, FORCE_FIRST_CALL, FORCE_CONTRACT, FORCE_REACHED = 0, 1, 2, 3
GIVEN_CALLS, IMPLIED_CALLS, CHECK_CALLS = 0, 1, 2
