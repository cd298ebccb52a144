"""Running many deals: fixed-size chunks, workers, resumable chunk files.

Deal ``i`` of a run is always deal ``i`` of its seed, whatever the chunk size, the number of
workers or the machines (DESIGN.md property 1).  The runner is six modules, each imported on
its own (this file imports none of them, so a command loads only what it uses):

* :mod:`cardsim.runner.run`: what a run is (:func:`~cardsim.runner.run.make_run`), its deals in
  memory (``simulate``, ``simulate_columns``) and whole matches (``play_matches``);
* :mod:`cardsim.runner.pool`: how many workers a run gets (``choose_jobs``, ``deal_jobs``), joblib
  or dask (``cluster``), progress bars, ``run_tasks``;
* :mod:`cardsim.runner.dataset`: a run written as parquet part files (``simulate_to_dataset``,
  ``encode_rows``), staged and resumable;
* :mod:`cardsim.runner.read`: a dataset read back (``read_dataset``, the typed frame; ``read_parts``,
  the part files as stored), each part checked against its manifest;
* :mod:`cardsim.runner.store`: the chunk results of runs that write no dataset (``ChunkStore``,
  ``run_chunks``, ``analysis_store``), resumable the same way;
* :mod:`cardsim.runner.files`: what both trust on disk (atomic writes, links, one writer per
  folder, manifests, ``OutputError``).
"""
