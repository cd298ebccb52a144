"""The benchmarks: ``cardsim bench``, ``python -m cardsim.bench`` and ``make bench`` (BENCHMARKS.md).

One module a job; importing the package imports none of them (``cardsim --help`` stays quick):

- :mod:`~cardsim.bench.engine`: deals per second, dealing only and complete deals, one core and all
  cores, compile times; strategy specs timed alternately (``--strategies``);
- :mod:`~cardsim.bench.conditions`: dealing under conditions (``--only conditions``);
- :mod:`~cardsim.bench.end_to_end`: ``simulate -o`` and the in-memory DataFrame against the engine,
  start-up (``--only end-to-end``);
- :mod:`~cardsim.bench.crossover`: when the default starts workers (``--only crossover``);
- :mod:`~cardsim.bench.pimc`: the sampled-search player's rates (``--only pimc``, with
  ``--against`` both trees taking turns);
- :mod:`~cardsim.bench.pimc_hooks`: the ``pimc`` solve hooks on recorded decisions, and where the
  search spends its time (``pimc-record``, ``pimc-time``, ``pimc-profile``);
- :mod:`~cardsim.bench.dd`: the double-dummy solvers on real positions (``dd``);
- :mod:`~cardsim.bench.rules`: a rule file against its base, its implied calls dealt (``rules``);
- :mod:`~cardsim.bench.targets`: every speed target, before and after (``--only targets``);
- :mod:`~cardsim.bench.against`: another commit's tree unpacked and measured in its own
  interpreters, taking turns with this one (``--against COMMIT``);
- :mod:`~cardsim.bench.common`, :mod:`~cardsim.bench.markdown`: what they share, and BENCHMARKS.md
  written section by section keeping its hand-made notes;
- :mod:`~cardsim.bench.run`: what the command runs from its options (the parser is
  :mod:`cardsim.cli.bench`).
"""
