"""Reading the files of datasets and traces that come from elsewhere.

Any of them may be huge, a named pipe that never answers, a device, a directory, or a
symlink out of the dataset. Every reader of those files goes through `read_bytes` (or
`open_regular`), which opens regular files only, never blocks on opening, refuses a
file over its size limit before reading it and reads at most one byte past the limit
(a file may grow, or report no size, as ``/proc`` files do). Each broken rule is a
`FormatError` naming the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from mobile_gym.errors import FormatError

_MiB = 1 << 20
#: Largest files read, by kind, with wide margins over real data: uiautomator dumps are
#: ~100 KB, component lists ~50 KB, screenshots 1-3 MB (1080x2400, up to 1440x3200).
MAX_DUMP_BYTES = 8 * _MiB
MAX_JSON_BYTES = 8 * _MiB
MAX_IMAGE_BYTES = 64 * _MiB
#: Screenshots are decoded only up to this many pixels (1440x3200 is 4.6 million).
MAX_IMAGE_PIXELS = 4096 * 4096
#: ``.ess``, ``.activity``, ``.action``, ``instruction.txt``, ``eventStructs.txt``,
#: installed apps; the metadata TSV and labels CSV (495 tasks take ~60 KB).
MAX_TEXT_BYTES = 1 * _MiB
MAX_TABLE_BYTES = 16 * _MiB

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO opened without it waits for a writer
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def size_text(n: int) -> str:
    """``8 MiB`` for a limit, ``8,388,609 bytes`` for a size just over it."""
    return f"{n // _MiB} MiB" if n and n % _MiB == 0 else f"{n:,} bytes"


def open_regular(path: str | Path, what: str, limit: int) -> BinaryIO:
    """`path` opened for binary reading, if it is a regular file of at most `limit`
    bytes; anything else is a FormatError (`what` names the file's role).

    The file is checked before it is opened (opening a device or a FIFO can act or
    block) and again once open, in case it was swapped in between.
    """
    try:
        _check(path, os.stat(path), what, limit)
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except FileNotFoundError as exc:
        raise FormatError(path, f"{what} is missing") from exc
    except OSError as exc:
        raise FormatError(path, f"cannot read {what} ({exc.strerror or exc})") from exc
    try:
        _check(path, os.fstat(fd), what, limit)
    except FormatError:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _check(path: str | Path, st: os.stat_result, what: str, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "a special file")
        raise FormatError(path, f"{what} is {kind}, not a regular file")
    if st.st_size > limit:
        raise FormatError(path, f"{what} is {size_text(st.st_size)}; the limit is {size_text(limit)}")


def read_bytes(path: str | Path, what: str, limit: int) -> bytes:
    """The content of a regular file of at most `limit` bytes (see `open_regular`)."""
    with open_regular(path, what, limit) as f:
        try:
            size = os.fstat(f.fileno()).st_size
            data = f.read(size + 1)  # all of it, without a buffer of the limit's size
            if len(data) > size:  # it grew, or reports no size as /proc files do
                data += f.read(limit + 1 - len(data))
        except OSError as exc:
            raise FormatError(path, f"cannot read {what} ({exc.strerror or exc})") from exc
    if len(data) > limit:
        raise FormatError(path, f"{what} is larger than the limit of {size_text(limit)}")
    return data


def read_utf8(path: str | Path, what: str, limit: int = MAX_TEXT_BYTES) -> str:
    """A UTF-8 text file (a leading BOM dropped); invalid UTF-8 is a FormatError."""
    try:
        return read_bytes(path, what, limit).decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        raise FormatError(path, f"{what} is not UTF-8 text ({exc})") from exc


def inside(root: str | Path, path: str | Path, what: str) -> Path:
    """`path` with every symlink resolved, when it stays inside `root` (also resolved);
    a path that leaves it (``..``, an absolute path, a symlink) is a FormatError."""
    try:
        resolved, base = Path(path).resolve(), Path(root).resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise FormatError(path, f"cannot resolve {what} ({exc})") from exc
    if not resolved.is_relative_to(base):
        raise FormatError(path, f"{what} leads to {resolved}, outside {base}; refusing to read it")
    return resolved


def check_links(folder: str | Path, root: str | Path) -> None:
    """A FormatError when an entry of `folder` is a symlink leading out of `root`.

    Only symlinks are resolved, so the usual folder without any costs one listing.
    """
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return  # a folder that cannot be listed is reported by the reader that needs it
    for entry in entries:
        if entry.is_symlink():
            inside(root, entry.path, "symlink")


__all__ = [
    "MAX_DUMP_BYTES",
    "MAX_IMAGE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_JSON_BYTES",
    "MAX_TABLE_BYTES",
    "MAX_TEXT_BYTES",
    "check_links",
    "inside",
    "open_regular",
    "read_bytes",
    "read_utf8",
    "size_text",
]
