"""Output files a run may trust: atomic writes, symbolic links followed or refused, one writer per
folder, and the manifest that fixes what a run is.

Shared by datasets (:mod:`cardsim.runner.dataset` writes them, :mod:`cardsim.runner.read` reads
them) and chunk stores (:mod:`cardsim.runner.store`):
every file is written beside its place and renamed into it, so a reader (or a resumed run) sees a
whole file or none; a folder is claimed by one process at a time.
"""
from __future__ import annotations

import errno
import hashlib
import inspect
import json
import os
import stat
import tempfile
import zlib
from pathlib import Path
from typing import Callable

from cardsim.text import path_text, quote

MANIFEST = "_manifest.json"
DEFAULT_CHUNK = 100_000
"""Deals a chunk of a run holds unless told (``chunk_size``, ``--chunk-size``); a manifest records
the run's own.  Here, below both, so that :mod:`cardsim.runner.run` (which makes runs) and
:mod:`cardsim.runner.read` (which names the command that resumes one) share it."""
STAGING_SUFFIX = ".partial"
"""An unfinished dataset ``out`` lives in ``out.partial`` until its last chunk is written: here so
that the writer (:mod:`cardsim.runner.dataset`) and the reader (:mod:`cardsim.runner.read`) share it."""


DISK_MARGIN = 1.1
"""Free disk space asked for, as a multiple of the estimated size of what is left to write."""


def size_text(nbytes: float) -> str:
    """Bytes for people: ``1.2 GB``, ``35.0 MB``, ``512 kB`` (never a ``0.0 GB`` that hides the
    numbers on a small disk)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6)):
        if nbytes >= scale:
            return f"{nbytes / scale:,.1f} {unit}"
    return f"{nbytes / 1e3:,.0f} kB"


def sizes_text(need: float, free: float) -> tuple[str, str]:
    """``need`` and ``free`` bytes for a message that says one exceeds the other: in
    :func:`size_text`'s units, or in bytes when those would show the same number (``need about
    3.1 MB and ... has 3.1 MB free`` reads as a contradiction)."""
    if size_text(need) == size_text(free):
        return f"{need:,.0f} bytes", f"{free:,.0f} bytes"
    return size_text(need), size_text(free)


class OutputError(OSError):
    """An output path that cannot be written, or a dataset made by a different run."""


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` to a temporary file beside ``path``, then rename it to ``path``: readers
    (and a resumed run) see the whole file or none.  A ``path`` that is a device or a named pipe
    (``-o /dev/stdout``, a FIFO) is written through, ``write(path)``: renaming over it would
    replace the special file with a plain one.

    Raises OutputError (one line: the path and the system's reason, e.g. no space left on the
    device) when the file cannot be written; the temporary file is removed, so a full disk
    leaves no truncated file, under ``path``'s name or beside it."""
    try:
        if _special(path):
            write(Path(path))
            return
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {path_text(path)}: {os_reason(exc)}") from None
    os.close(fd)
    try:
        write(Path(tmp))
        # mkstemp makes the file private; give it the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write {path_text(path)}: {os_reason(exc)}") from None
        raise


def os_reason(exc: Exception) -> str:
    """The system's reason in an OSError, on one line: ``No space left on device`` (``strerror``),
    or the first line of a library's message (pyarrow's errors carry no ``strerror``)."""
    if getattr(exc, "strerror", None):
        return exc.strerror
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def file_crc32(handle) -> str:
    """The CRC-32 of what is left of the open binary file ``handle``, as 8 hex digits."""
    crc = 0
    while block := handle.read(1 << 20):
        crc = zlib.crc32(block, crc)
    return f"{crc:08x}"


def part_record(path: Path, rows: int | None = None) -> dict:
    """``{"rows", "bytes", "crc32"}`` of the parquet file ``path``, what a finished dataset's
    manifest keeps of each part (``manifest["parts"][k]``) so that a part truncated or garbled
    after it was written (a disk fault, a copy cut short, an edit) is found before it passes for
    data: rows from its footer (or ``rows``, given by the writer that has just written them), its
    size, the CRC-32 of its bytes (8 hex digits: a CRC finds accidental damage, which is all it is
    for here, at under half SHA-256's cost, about 1 ms a 5 MB part against 3 on the per-chunk path
    of ``simulate -o``).  Raises
    OutputError when the file cannot be read or is not whole parquet (a truncated file has no
    footer)."""
    import pyarrow as pa  # local: pyarrow is slow to import; only this function needs it
    import pyarrow.parquet as pq  # local: pyarrow is slow to import; only this function needs it

    try:
        with open(path, "rb") as f:
            digest = file_crc32(f)
            size = f.tell()
        if rows is None:
            rows = pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowException) as exc:
        raise OutputError(f"{path_text(path)} is not a whole parquet file ({os_reason(exc)})") from None
    return {"rows": int(rows), "bytes": int(size), "crc32": digest}


def part_damage(path: Path, expected: dict | None, rows: int | None = None) -> str | None:
    """Why the part file ``path`` is not the one its manifest recorded (``expected``, a
    :func:`part_record`; None for a manifest written before parts were recorded), or None when it
    is whole.  ``rows``: the deals its chunk holds, checked when given.  Reads the whole file."""
    if not path.exists():
        return "it is missing"
    if expected is not None:
        try:
            size = path.stat().st_size
        except OSError as exc:
            return f"it cannot be read ({os_reason(exc)})"
        if size != expected.get("bytes"):
            return f"it has {size:,} bytes, the manifest says {expected.get('bytes')}"
        try:
            with open(path, "rb") as f:
                if file_crc32(f) != expected.get("crc32"):
                    return "its checksum differs from the manifest's"
        except OSError as exc:
            return f"it cannot be read ({os_reason(exc)})"
        # The bytes that were written: their rows are the recorded ones (taken when the file was
        # made), so the file need not be parsed again.
        recorded_rows = expected.get("rows")
        if rows is None or recorded_rows == rows:
            return None
        return f"it holds {recorded_rows} rows, its chunk has {rows:,}"
    try:
        found = part_record(path)
    except OutputError:
        return "it is not a whole parquet file"
    if rows is not None and found["rows"] != rows:
        return f"it holds {found['rows']:,} rows, its chunk has {rows:,}"
    return None


MANIFEST_LIMIT = 256 << 20
"""The largest ``_manifest.json`` read, in bytes (256 MiB): a million chunks' entries (the most a
run makes) take about 150 MB; a larger file is damaged, and reading it whole could take the
machine's memory."""


def read_manifest_file(mpath: Path) -> dict | None:
    """A run's manifest (a JSON object), or None when it is missing, unreadable, not JSON, not an
    object or larger than :data:`MANIFEST_LIMIT`."""
    try:
        if mpath.stat().st_size > MANIFEST_LIMIT:
            return None
        found = json.loads(mpath.read_bytes())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def read_manifest(mpath: Path, folder: Path) -> dict:
    """The manifest at ``mpath`` (JSON object → dict) of the output ``folder``; OutputError, telling
    the user to remove ``folder``, when it cannot be read or is not a JSON object."""
    found = read_manifest_file(mpath)
    if found is None:
        raise OutputError(f"{path_text(mpath)} is unreadable; remove {path_text(folder)} to start again")
    return found


def check_same_run(folder: Path, old: dict, manifest: dict) -> None:
    """Refuse to resume into ``folder`` a run other than the one it holds: OutputError naming the
    keys in which the stored manifest ``old`` and this run's ``manifest`` differ (any key but
    ``complete`` and ``parts``); nothing when they are the same run."""
    # "complete" and "parts" say how far the run got and what it wrote, not what the run is.
    differ = sorted(k for k in set(old) | set(manifest)
                    if k not in ("complete", "parts") and old.get(k) != manifest.get(k))
    if differ:
        raise OutputError(f"{path_text(folder)} holds a different run (it differs in {', '.join(differ)}; "
                          f"see {MANIFEST}); choose another path or remove it")


def _broken_link(path: Path) -> str | None:
    """Why ``path`` is a symbolic link that leads nowhere (its target missing, or links that loop),
    or None when it is not one.  Raises OutputError when the system cannot look the path up
    (a name too long, a folder it may not read)."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing there yet: the output will be made
    except OSError as exc:
        raise OutputError(f"cannot write {path_text(path)}: {exc.strerror or exc}") from None
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link that loops (it leads back to itself)"
        return f"a symbolic link to {quote(os.readlink(path))}, which does not exist"
    return None


def follow_link(path) -> Path:
    """Where the output ``path`` is written: ``path`` itself, or the target of the symbolic link
    ``path`` when that exists (a dataset is renamed into place, which cannot be done through a
    link, so it is made at the link's target; the link keeps pointing at it).  Raises
    OutputError, before any work, when ``path`` is a link that leads nowhere or cannot be looked
    up, so that nothing is played for an output that cannot be written and no ``.partial``
    folder is left beside a broken link."""
    path = Path(path)
    why = _broken_link(path)
    if why:
        raise OutputError(f"cannot write {path_text(path)}: it is {why}; remove the link or choose another path")
    if path.is_symlink() and _special(path):
        # /dev/stdout leads through /proc to "pipe:[N]", a name realpath cannot give back: a link
        # to a device or a pipe is written through as it is (atomic_write).
        return path
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def make_writable_folder(folder: Path, target: Path | None = None) -> None:
    """Create ``folder`` (and its parents) and check that a file can be written in it; OutputError
    naming the file that stands where a folder is needed, a symbolic link that leads nowhere, or
    the system's reason (and ``target``, the file the user asked for in that folder, if given)."""
    try:
        for above in (folder, *folder.parents):
            why = _broken_link(above)
            if why:
                raise OutputError(f"cannot write {path_text(target or folder)}: {path_text(above)} is {why}; "
                                  "remove the link or choose another path")
            if above.exists():
                if not above.is_dir():
                    raise OutputError(f"cannot write {path_text(folder)}: {path_text(above)} is a file, not a folder")
                break
    except OSError as exc:
        if isinstance(exc, OutputError):
            raise
        raise OutputError(f"cannot write {path_text(target or folder)}: {exc.strerror or exc}") from None
    try:
        _make_folders(folder)
        probe = folder / f".write-test-{os.getpid()}"  # two runs may probe the same folder at once
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        if target is not None:
            raise OutputError(f"cannot write {path_text(target)}: the folder {path_text(folder)} does not take new "
                              f"files ({exc.strerror or exc})") from None
        raise OutputError(f"cannot write {path_text(folder)}: {exc.strerror or exc}") from None


def _make_folders(folder: Path) -> None:
    """``folder`` and its missing parents, made top down in a loop: ``Path.mkdir(parents=True)``
    and ``os.makedirs`` recurse once per missing level, so 2,000 nested folders would end in a
    RecursionError rather than the system's answer."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for level in reversed(missing):
        level.mkdir(exist_ok=True)


def check_output_file(path) -> Path:
    """An output file that can be written, returned as the path to write (a symbolic link's
    target, :func:`follow_link`): its folder is created if missing (as for a dataset's ``-o``)
    and must accept files (checked by creating and removing a probe).  Raises OutputError before
    any work is done."""
    path = follow_link(path)
    if path.is_dir():
        raise OutputError(f"{path_text(path)} is a directory")
    if _special(path):
        return path  # a device or named pipe is written through (atomic_write), not beside
    make_writable_folder(path.parent, path)
    return path


def _special(path) -> bool:
    """``path`` is there and is neither a plain file nor a folder (a device, a named pipe, a socket)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


_CLAIMS: dict[Path, object] = {}
"""The lock files this process holds open (:func:`claim_folder`), by folder."""


def claim_folder(folder: Path, what: Path) -> None:
    """Take ``folder`` for this process alone, for as long as it runs: an exclusive lock on
    ``folder/.lock`` (POSIX ``flock``; the system drops it when the process ends, however it
    ends).  Two runs writing the same output would remove each other's unfinished files, so the
    second one is refused: OutputError naming ``what`` (the output the user gave).  Claiming a
    folder this process already holds does nothing."""
    folder = Path(folder).resolve()
    if folder in _CLAIMS:
        return
    try:
        import fcntl  # local: fcntl exists on POSIX only
    except ImportError:  # no flock (Windows): runs are not guarded against each other
        return
    f = open(folder / ".lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise OutputError(f"another cardsim run is writing {path_text(what)} now; wait for it to finish (or stop it), "
                          "then run this command again: it resumes") from None
    _CLAIMS[folder] = f


def release_folder(folder: Path) -> None:
    """Drop :func:`claim_folder`'s lock on ``folder`` (its lock file removed first, so that a finished
    output holds no trace of it)."""
    f = _CLAIMS.pop(Path(folder).resolve(), None)
    if f is not None:
        Path(f.name).unlink(missing_ok=True)
        f.close()


def drop_stale_temporaries(folder: Path) -> None:
    """Remove the temporary files (``.tmp-*``) in ``folder`` of writers that were killed (kill -9)
    before they could clean up.  Call it only on a folder this process has claimed
    (:func:`claim_folder`): a live writer's files are not stale."""
    for p in folder.glob(".tmp-*"):
        p.unlink(missing_ok=True)


def transform_id(transform) -> str:
    """``module.name@hash``: a chunk transform and a hash of its module's source, so that stored
    aggregates are reused exactly while the code that made them is unchanged."""
    try:
        source = inspect.getsource(inspect.getmodule(transform))
    except (OSError, TypeError):  # typed at a prompt: no source to hash, the name must do
        source = ""
    return f"{transform.__module__}.{transform.__qualname__}@{hashlib.sha256(source.encode()).hexdigest()[:12]}"
