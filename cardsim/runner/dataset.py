"""Datasets on disk: a run written as parquet part files, one per chunk, by the workers that
played them (rows never travel back through the parent).

A dataset is built in a staging folder ``<path>.partial`` beside a ``_manifest.json`` that
fixes what the run is, and renamed to ``<path>`` when its last chunk lands, so a reader never
mistakes an unfinished run for a whole one; running the same run again resumes where it
stopped and ends with the same data (DESIGN.md property 7).
"""
from __future__ import annotations

import io
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import numpy as np

from cardsim.games import get_game
from cardsim.games.base import Setup
from cardsim.runner import files
from cardsim.runner.files import (MANIFEST, STAGING_SUFFIX, OutputError, atomic_write, check_same_run, claim_folder,
                                  drop_stale_temporaries, follow_link, make_writable_folder, part_damage, part_record,
                                  read_manifest, release_folder, sizes_text, transform_id)
from cardsim.runner.pool import run_tasks, using
from cardsim.runner.run import Run, column_buffers, fill_columns, play_chunk, rows_frame, run_seconds

DISK_MARGIN = files.DISK_MARGIN  # one margin for every output (files.DISK_MARGIN)

def staging(path) -> Path:
    """Where the unfinished dataset ``path`` lives: ``<path>.partial`` beside it."""
    path = Path(path)
    return path.with_name(path.name + STAGING_SUFFIX)


def chunk_rows(manifest: dict, k: int) -> int | None:
    """The rows of part ``k`` of the run of ``manifest``: its chunk's deals (the last chunk may
    hold fewer), or None for a transform's part (aggregates: as many rows as the transform
    makes)."""
    if "transform" in manifest:
        return None
    n, size = int(manifest["n_deals"]), int(manifest["chunk_size"])
    return max(0, min(size, n - k * size))


def damaged_parts(path: Path, manifest: dict) -> dict[int, str]:
    """The chunks of the finished dataset ``path`` whose part file is missing, truncated or
    garbled (its size or CRC-32 differs from ``manifest["parts"]``, or it is not whole parquet
    holding its chunk's rows), each with the reason.  Reads every part file."""
    n_chunks = -(-int(manifest["n_deals"]) // int(manifest["chunk_size"]))
    recorded = manifest.get("parts")
    if not isinstance(recorded, list) or len(recorded) != n_chunks:
        recorded = [None] * n_chunks  # a manifest written before parts were recorded
    found = {}
    for k in range(n_chunks):
        why = part_damage(part_path(path, k), recorded[k], chunk_rows(manifest, k))
        if why:
            found[k] = why
    return found


def _say_damaged(path: Path, damaged: dict[int, str]) -> None:
    for k, why in sorted(damaged.items()):
        print(f"cardsim: {part_path(path, k)} is damaged ({why}); its chunk is played again", file=sys.stderr)


def prepare_dataset(path, manifest: dict) -> tuple[Path, dict[int, dict]] | None:
    """Open the staging folder of dataset ``path`` for ``manifest``: ``(folder, {chunk number:
    its part's record (files.part_record)} of the chunks already written)``, or None when
    ``path`` already holds this run, complete and undamaged.  A part that is missing, truncated
    or garbled (:func:`damaged_parts`; in a staging folder: not whole parquet of its chunk's
    rows) is said on standard error, removed, and its chunk left to play again.

    Raises OutputError when the path cannot be written or holds a different run.
    """
    path = Path(path)
    if path.name.endswith(STAGING_SUFFIX):
        # <name>.partial is where an unfinished run of <name> is staged: a dataset written there
        # would read as unfinished and be taken over by the next run of <name>.
        raise OutputError(f"{path}: a name ending in {STAGING_SUFFIX} is where unfinished runs are kept; "
                          f"choose another name")
    final = path / MANIFEST
    if path.exists():
        if not path.is_dir():
            raise OutputError(f"{path} exists and is not a dataset directory")
        if final.exists():
            old = read_manifest(final, path)
            check_same_run(path, old, manifest)
            if old.get("complete"):
                damaged = damaged_parts(path, old)
                if not damaged:
                    return None
                _say_damaged(path, damaged)
                for k in damaged:
                    part_path(path, k).unlink(missing_ok=True)
            # An unfinished dataset written in place by an earlier cardsim, or a finished one with
            # damaged or lost part files: finish it in staging.
            if not staging(path).exists():
                os.replace(path, staging(path))
        elif any(path.iterdir()):
            raise OutputError(f"{path} exists and is not a cardsim dataset; choose another path or remove it")
    folder = staging(path)
    make_writable_folder(folder, path)
    mpath = folder / MANIFEST
    if mpath.exists():
        check_same_run(path, read_manifest(mpath, folder), manifest)
    else:
        atomic_write(mpath, lambda p: p.write_text(json.dumps(manifest, indent=1)))
    claim_folder(folder, path)
    drop_stale_temporaries(folder)
    done, damaged = {}, {}
    for p in folder.glob("part-*.parquet"):
        k = int(p.stem.split("-")[1])
        try:
            record = part_record(p)
        except OutputError:
            damaged[k] = "it is not a whole parquet file"
            continue
        rows = chunk_rows(manifest, k)
        if rows is not None and record["rows"] != rows:
            damaged[k] = f"it holds {record['rows']:,} rows, its chunk has {rows:,}"
            continue
        done[k] = record
    if damaged:
        _say_damaged(folder, damaged)
        for k in damaged:
            part_path(folder, k).unlink(missing_ok=True)
    return folder, done


def part_path(path, k: int) -> Path:
    return Path(path) / f"part-{k:06d}.parquet"


WRITE_BATCH = 1 << 16
"""Rows a parquet column writer takes at a time (:func:`encode_rows`)."""
WRITE_BUFFER = 1 << 20
"""Bytes :func:`encode_rows` gathers before each write to its file."""
_COLUMNS = threading.local()
"""Each thread's column buffers for :func:`encode_rows`, kept from chunk to chunk: fresh ones
would be faulted in page by page at every chunk (about 7 ms of CPU per 100,000 Vint deals)."""


def _column_buffers(dtype: np.dtype, n: int) -> dict:
    key = (dtype, n)
    if getattr(_COLUMNS, "key", None) != key:
        _COLUMNS.key, _COLUMNS.columns = key, column_buffers(dtype, n)
    return _COLUMNS.columns


def encode_rows(rows: np.ndarray, sink) -> None:
    """Write structured ``rows`` as one parquet file to ``sink`` (a path or a binary file).

    Columns are written straight from the rows with pyarrow (no DataFrame in between).
    Parquet stores every integer narrower than 32 bits as 32 bits, so the encoding is what
    costs, and it competes with the engine for the same cores.  The small integers are written
    byte-stream split and LZ4-compressed: the three high bytes of an 8- or 16-bit value widened
    to 32 bits are runs LZ4 skips through, so this takes about 70% of the time of delta
    bit-packing (the encoding before, itself under half the time of dictionary plus snappy) and
    the files are a little smaller (Vint ~48 bytes a deal, 501 ~28, Five Hundred ~98).  The deal
    number stays delta-packed (consecutive numbers cost almost nothing) and the 64-bit card
    sets plain (random bits compress to nothing).  Reading byte-stream-split integers takes
    pyarrow 17 or newer (Parquet format 2.11).  ``pandas.read_parquet`` gives back the columns
    and dtypes of ``pandas.DataFrame(rows)``."""
    import pyarrow as pa  # local: pyarrow is slow to import; only this function needs it
    import pyarrow.parquet as pq  # local: pyarrow is slow to import; only this function needs it

    columns = _column_buffers(rows.dtype, len(rows))
    fill_columns(columns, 0, rows)
    small = [name for name in rows.dtype.names if rows.dtype[name].kind in "iu" and rows.dtype[name].itemsize <= 4]
    encoding = {name: "BYTE_STREAM_SPLIT" for name in small}
    if "deal" in rows.dtype.names:
        encoding["deal"] = "DELTA_BINARY_PACKED"
    compression = {name: "lz4" if name in small else "none" for name in rows.dtype.names}
    # Rows have no missing values: fields marked required need no definition levels, which
    # saves about a fifth of the encoding time; readers get the same columns and dtypes.
    schema = pa.schema([pa.field(name, pa.from_numpy_dtype(rows.dtype[name]), nullable=False)
                        for name in rows.dtype.names])
    # The arrays are made over the columns' memory (booleans packed to bits, as Arrow keeps them)
    # rather than by pa.table / pa.array, which import pandas to ask whether a column is a pandas
    # object: a worker writing a dataset then starts without pandas.  The same table either way.
    arrays = [pa.Array.from_buffers(field.type, len(rows), [None, pa.py_buffer(
        np.packbits(columns[field.name], bitorder="little") if field.type == pa.bool_() else columns[field.name])])
        for field in schema]
    # Statistics (min/max per column) cost a tenth of the encoding; only the deal number's are
    # worth it, for readers that filter on deal ranges.  A chunk's column goes to the encoder in
    # one batch, not pyarrow's default 1,024 rows (6% of the encoding).
    # A path is written through a 1 MB buffer: pyarrow writing a file itself makes two system
    # calls for every page (about 600 for a Vint chunk, 2-4 ms of system time, a tenth of the
    # encoding); an in-memory Arrow buffer written at once costs as much again in copies as it
    # grows.
    table = pa.Table.from_arrays(arrays, schema=schema)
    options = dict(use_dictionary=False, compression=compression, column_encoding=encoding, write_statistics=["deal"],
                   write_batch_size=WRITE_BATCH)
    if isinstance(sink, (str, os.PathLike)):
        with pa.output_stream(os.fspath(sink), compression=None, buffer_size=WRITE_BUFFER) as out:
            pq.write_table(table, out, **options)
    else:
        pq.write_table(table, sink, **options)


def write_part(folder: Path, k: int, setup: Setup, seed: int, start: int, count: int, transform=None) -> dict:
    """Worker: play deals ``start`` to ``start + count - 1`` of ``seed`` under ``setup``
    (:func:`cardsim.runner.run.play_chunk`) and write them as ``part-k`` of ``folder``: the rows
    as they are, or ``transform``'s DataFrame of the deals' frame.  Returns the part's record
    (files.part_record: rows, bytes, CRC-32), taken from the file before it is renamed into
    place; OutputError (files.atomic_write) when the part cannot be written."""
    rows = play_chunk(setup, seed, start, count)
    record = {}
    if transform is None:
        def write(p):
            encode_rows(rows, p)
            record.update(part_record(p, len(rows)))  # the rows just written: no footer to read back
    else:
        from cardsim import frames  # local: frames brings pandas; a worker writing parts never builds a frame

        df = transform(frames.deals(setup.game, rows_frame(rows), setup.seats))

        def write(p):
            df.to_parquet(p, index=True)
            record.update(part_record(p))
    atomic_write(part_path(folder, k), write)
    return record


def estimated_bytes(run: Run, deals: int, chunks: int, sample: int = 2000) -> float:
    """Estimated parquet bytes of ``deals`` deals of ``run`` in ``chunks`` files: the first
    ``sample`` and ``2 × sample`` deals encoded, their difference the cost of a deal and the
    rest the cost of a file (its metadata)."""
    rows = play_chunk(run.setup, run.seed, 0, 2 * sample)
    sizes = []
    for count in (sample, 2 * sample):
        sink = io.BytesIO()
        encode_rows(rows[:count], sink)
        sizes.append(sink.tell())
    per_deal = max(sizes[1] - sizes[0], 1) / sample
    return deals * per_deal + chunks * max(sizes[0] - sample * per_deal, 0)


def check_disk_space(folder: Path, run: Run, todo: list[tuple[int, int, int]]) -> None:
    """Raise OutputError when ``folder`` has clearly too little room for the chunks ``todo``
    (estimated from a sample only when their raw row size does not fit already)."""
    free = shutil.disk_usage(folder).free
    deals = sum(c for _, _, c in todo)
    if deals * get_game(run.setup.game).play.row_dtype.itemsize * DISK_MARGIN <= free:
        return
    need = estimated_bytes(run, deals, len(todo)) * DISK_MARGIN
    if need > free:
        need_text, free_text = sizes_text(need, free)
        raise OutputError(f"{deals:,} {run.setup.game} deals need about {need_text} and "
                          f"{folder.resolve().parent} has {free_text} free; free some space, write "
                          "elsewhere or simulate fewer deals")


def simulate_to_dataset(path, run: Run, n_jobs=-1, progress=False, transform=None, client=None) -> Path:
    """Write a run as a parquet dataset directory, resuming an interrupted one.

    Each chunk becomes ``part-NNNNNN.parquet``, written by the worker that played it: the raw row
    codes (compact; :func:`cardsim.runner.read.read_dataset`, ``cardsim.read_dataset``, reads them back as the typed frame), or
    ``transform(typed frame of the chunk)`` if given, e.g. an analysis' partial aggregates.  The
    run is staged in ``<path>.partial`` and renamed to ``path`` when complete, so
    ``pandas.read_parquet(path)`` reads either every deal or nothing.  On a dask cluster
    (``client``) ``path`` must be reachable from every worker.  A symbolic link at ``path`` is
    followed (the dataset is made at its target).  Raises OutputError, before any deal is
    played (unwritable path, a link that leads nowhere, too little disk space, a different run at
    ``path``).
    """
    path = follow_link(path)
    manifest = run.manifest()
    if transform is not None:
        manifest["transform"] = transform_id(transform)
    opened = prepare_dataset(path, manifest)
    if opened is None:
        return path
    folder, records = opened
    todo = [c for c in run.chunks() if c[0] not in records]
    done = set(records)
    if transform is None:
        try:
            check_disk_space(folder, run, todo)
        except OutputError:
            if not done:
                shutil.rmtree(folder, ignore_errors=True)  # leave nothing behind a run that never started
            raise
    tasks = [(folder.resolve(), k, run.setup, run.seed, s, c, transform) for k, s, c in todo]
    with using(client):
        for (k, _, _), record in zip(todo, run_tasks(write_part, tasks, [c for _, _, c in todo], n_jobs, progress,
                                                     seconds=run_seconds(run, todo))):
            records[k] = record
    manifest["complete"] = True
    # Each part's rows, size and checksum: a reader and the next run of the same command find a
    # part damaged after this (files.part_damage), and the next run plays its chunk again.
    manifest["parts"] = [records[k] for k in range(len(records))]
    atomic_write(folder / MANIFEST, lambda p: p.write_text(json.dumps(manifest, indent=1)))
    if path.exists():
        path.rmdir()  # an empty folder the user made for the output
    release_folder(folder)
    os.replace(folder, path)
    return path

