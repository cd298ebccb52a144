"""Reading datasets back: the deals of a run that ``cardsim simulate -o`` wrote
(:mod:`cardsim.runner.dataset`) as the typed frame :func:`cardsim.simulate` returns, each part
file checked against the size and CRC-32 its manifest records, and an unfinished run named with
the command that finishes it.

Apart from :mod:`cardsim.runner.dataset` because reading needs pandas and the typed frames
(:mod:`cardsim.frames`), and a worker writing parts never builds a frame.
"""
from __future__ import annotations

import json
import shlex
from pathlib import Path

import pandas as pd

from cardsim.frames import deals
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.runner.files import DEFAULT_CHUNK, MANIFEST, STAGING_SUFFIX, part_damage, read_manifest_file


def _check_complete(path: Path, manifest: dict, n_rows: int) -> None:
    """A finished dataset holds every deal of its manifest; fewer rows mean a part file was lost
    (deleted, not copied), which must not pass for a smaller sample.  An unfinished
    ``PATH.partial`` directory, read on purpose, may hold fewer."""
    expected = manifest.get("n_deals")
    if expected is not None and n_rows != expected and not path.name.endswith(STAGING_SUFFIX):
        raise OptionError(f"{path} holds {n_rows:,} of the {expected:,} deals of its manifest: a part file is "
                          "missing; run the same simulate command again to rewrite it")


def read_part(path: Path, part: Path, manifest: dict) -> pd.DataFrame:
    """One part file of the dataset ``path`` as stored (no typing), checked against the size and
    CRC-32 its finished manifest records (``manifest["parts"]``); OptionError naming the part
    and the command that rewrites it when it is truncated, garbled or not parquet (never
    pyarrow's own error)."""
    import pyarrow as pa  # local: pyarrow is slow to import; only this function needs it

    recorded = manifest.get("parts")
    try:
        k = int(part.stem.split("-")[1])
        expected = recorded[k] if isinstance(recorded, list) else None
    except (IndexError, ValueError):
        expected = None
    why = part_damage(part, expected) if expected is not None else None
    if why is None:
        try:
            return pd.read_parquet(part)
        except (pa.ArrowException, OSError) as exc:
            why = f"it is not readable parquet: {' '.join(str(exc).split())[:120]}"
    output = path.with_name(path.name[:-len(STAGING_SUFFIX)]) if path.name.endswith(STAGING_SUFFIX) else path
    command = resume_command(manifest, output)
    how = f"run `{command}` to rewrite its chunk" if command else "run the command that made it again"
    raise OptionError(f"{part} is damaged ({why}); {how}")


def resume_command(manifest: dict, output: Path) -> str | None:
    """The ``cardsim simulate`` command that made (and resumes) the run of ``manifest`` into
    ``output``, options at their defaults left out; None when no command makes it (an analysis'
    aggregates, matches started from a given state, a manifest that names no known game)."""
    try:
        spec = get_game(manifest["game"])
        n, seed = int(manifest["n_deals"]), int(manifest.get("seed", 0))
        specs, seats = list(manifest["strategies"]), int(manifest["seats"])
        rules = dict(manifest.get("rules") or {})
        chunk = int(manifest.get("chunk_size", DEFAULT_CHUNK))
    except (KeyError, TypeError, ValueError, OptionError):
        return None
    matches = manifest.get("kind") == "matches"
    if "transform" in manifest or "start" in manifest or (matches and chunk != 10_000):
        return None
    words = ["cardsim", "simulate", spec.name, "--matches" if matches else "-n", str(n)]
    if seed:
        words += ["--seed", str(seed)]
    if seats != spec.default_seats:
        words += ["--seats", str(seats)]
    if len(set(specs)) == 1:
        if specs[0] != spec.table.default_strategy:
            words += ["--strategy", specs[0]]
    else:
        words += [w for s, one in enumerate(specs) if one != spec.table.default_strategy
                  for w in ("--strategy", f"{s}={one}")]
    defaults = json.loads(json.dumps({k: v for k, v in spec.parse_rules(None).items()}, default=str))
    words += [w for k, v in rules.items() if defaults.get(k) != v for w in ("--rule", f"{k}={v}")]
    if not matches and chunk != DEFAULT_CHUNK:
        words += ["--chunk-size", str(chunk)]
    return " ".join(shlex.quote(w) for w in words + ["-o", str(output)])


def _how_to_finish(folder: Path) -> str:
    """What an unfinished run's ``.partial`` folder holds and the command that finishes it."""
    output = folder.with_name(folder.name[:-len(STAGING_SUFFIX)])
    manifest = read_manifest_file(folder / MANIFEST) or {}
    command = resume_command(manifest, output)
    done = len(list(folder.glob("part-*.parquet"))) + len(list(folder.glob("chunk-*.pkl")))
    try:
        of = f" of {-(-int(manifest['n_deals']) // int(manifest['chunk_size'])):,}"
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        of = ""
    how = f"`{command}`" if command else "the command or call that started it"
    return f"{done:,}{of} chunks written; run {how} again to finish it"


def read_dataset(path, columns=None, partial: bool = False) -> pd.DataFrame:
    """The deals of a dataset written by ``cardsim simulate -o PATH`` (or ``runner.simulate_to_dataset``)
    as the same typed frame :func:`cardsim.simulate` returns (``df.attrs``: the run's manifest), or
    a plain parquet file written from a typed frame (``cardsim simulate --matches`` files) as it is.
    ``columns``: the columns to return (typed like the rest: the whole rows are read, since a
    missing value depends on several stored columns).

    An unfinished run (interrupted, or still running) lives in ``PATH.partial``: reading it, or
    ``PATH`` while only ``PATH.partial`` exists, raises OptionError naming the command that
    finishes it, unless ``partial=True`` asks for the deals of its finished chunks (fewer than
    the run's, in chunk order; ``df.attrs`` lacks ``complete``).  Raises OptionError for a
    dataset of aggregates (a transform's output), without a manifest naming its game, finished
    but missing a part file, an unfinished match run (its chunks are not deal rows), or a file
    that is not parquet, or a part file that is truncated or garbled (its size or CRC-32 differs
    from the one its manifest records, or pyarrow cannot read it: the message names the part and
    the ``cardsim simulate`` command that rewrites it); KeyError for an unknown column,
    FileNotFoundError when nothing is there."""
    path = Path(path)
    staged = path.with_name(path.name + STAGING_SUFFIX)
    if not path.name.endswith(STAGING_SUFFIX) and not path.exists() and staged.is_dir():
        path = staged  # the run was not finished: its folder is all there is
    if path.name.endswith(STAGING_SUFFIX) and path.is_dir() and not partial:
        raise OptionError(f"{path} is an unfinished run ({_how_to_finish(path)}), or read the deals of its "
                          "finished chunks with read_dataset(path, partial=True)")
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such dataset")
    if path.is_file():
        import pyarrow as pa  # local: pyarrow is slow to import; only this function needs it

        try:
            return pd.read_parquet(path, columns=columns)
        except (pa.ArrowInvalid, OSError) as exc:
            raise OptionError(f"{path} is not a parquet file ({str(exc).splitlines()[0]})") from None

    manifest = read_manifest_file(path / MANIFEST)
    if manifest is None:  # missing, not a JSON object, or too large to be one of ours (256 MiB)
        raise OptionError(f"{path} has no readable _manifest.json: not a cardsim dataset")
    if "transform" in manifest:
        raise OptionError(f"{path} holds aggregates ({manifest['transform']}), not deal rows")
    if manifest.get("kind") == "matches":
        raise OptionError(f"{path} holds the chunks of an unfinished match run, not deal rows "
                          f"({_how_to_finish(path)})")
    parts = sorted(path.glob("part-*.parquet"))
    if not parts:
        raise OptionError(f"{path} holds no finished chunk yet")
    raw = pd.concat([read_part(path, p, manifest) for p in parts], ignore_index=True)
    _check_complete(path, manifest, len(raw))
    df = deals(manifest["game"], raw, manifest.get("seats"))
    if columns is not None:
        df = df[list(columns)]
    df.attrs.update(manifest)
    return df


def read_parts(path) -> list[pd.DataFrame]:
    """Every chunk file of a dataset, in chunk order, as stored (no typing).  Raises OptionError
    (one line, naming the part) for a part that is truncated or garbled (:func:`read_part`)."""
    path = Path(path)
    manifest = read_manifest_file(path / MANIFEST) or {}
    return [read_part(path, p, manifest)
            for p in sorted(path.glob("part-*.parquet"))]


__all__ = ["read_dataset", "read_part", "read_parts", "resume_command"]
