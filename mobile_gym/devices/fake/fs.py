"""An in-memory file system for a fake phone: what ``adb push``/``pull``, ``ls``,
``rm``, ``md5sum`` and ``screencap FILE`` read and write. Paths are POSIX; ``/sdcard``
is the shared storage ``/storage/emulated/0`` as on a phone."""

from __future__ import annotations

import posixpath
import stat
import threading
import time
from dataclasses import dataclass, field

#: Folders every fake phone has.
_DIRS = ("/", "/data", "/data/local", "/data/local/tmp", "/storage", "/storage/emulated",
         "/storage/emulated/0", "/storage/emulated/0/Download", "/storage/emulated/0/Pictures",
         "/storage/emulated/0/DCIM", "/system", "/system/bin", "/vendor", "/proc", "/dev")
#: Where the shell user may write (the rest is the system's).
WRITABLE = ("/data/local/tmp", "/storage/emulated/0")
_ALIASES = {"/sdcard": "/storage/emulated/0", "/storage/self/primary": "/storage/emulated/0"}


class FsError(Exception):
    """A file operation failed; the message reads as a phone's (``No such file or directory``)."""


@dataclass
class Entry:
    mode: int  # st_mode: type bits and permissions
    mtime: int
    data: bytearray | None = field(default=None)  # None for a folder

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)

    @property
    def size(self) -> int:
        return 4096 if self.data is None else len(self.data)


class FakeFileSystem:
    def __init__(self, boot_time: int | None = None) -> None:
        self._lock = threading.RLock()
        now = int(time.time()) if boot_time is None else boot_time
        self._entries: dict[str, Entry] = {d: Entry(stat.S_IFDIR | 0o771, now) for d in _DIRS}
        self._entries["/dev/null"] = Entry(stat.S_IFCHR | 0o666, now, bytearray())

    @staticmethod
    def normalize(path: str, cwd: str = "/") -> str:
        full = posixpath.normpath(posixpath.join(cwd, path))
        if full.startswith("//"):
            full = "/" + full.lstrip("/")
        for alias, target in _ALIASES.items():
            if full == alias or full.startswith(alias + "/"):
                full = target + full[len(alias):]
        return full

    @staticmethod
    def _check_writable(full: str, path: str) -> None:
        if not any(full == root or full.startswith(root + "/") for root in WRITABLE):
            raise FsError(f"{path}: Permission denied")

    def stat(self, path: str) -> Entry | None:
        with self._lock:
            return self._entries.get(self.normalize(path))

    def read(self, path: str) -> bytes:
        with self._lock:
            entry = self._entries.get(self.normalize(path))
            if entry is None:
                raise FsError(f"{path}: No such file or directory")
            if entry.is_dir:
                raise FsError(f"{path}: Is a directory")
            return bytes(entry.data or b"")

    def write(self, path: str, data: bytes, mode: int = 0o644, mtime: int | None = None,
              append: bool = False, make_parents: bool = False) -> None:
        with self._lock:
            full = self.normalize(path)
            if path.endswith("/"):
                raise FsError(f"{path}: Is a directory")
            parent = posixpath.dirname(full)
            if make_parents:
                self.mkdir(parent, parents=True)
            pentry = self._entries.get(parent)
            if pentry is None:
                raise FsError(f"{path}: No such file or directory")
            if not pentry.is_dir:
                raise FsError(f"{path}: Not a directory")
            old = self._entries.get(full)
            if old is not None and old.is_dir:
                raise FsError(f"{path}: Is a directory")
            if full == "/dev/null":
                return
            self._check_writable(full, path)
            now = int(time.time()) if mtime is None else mtime
            if append and old is not None and old.data is not None:
                old.data.extend(data)
                old.mtime = now
            else:
                self._entries[full] = Entry(stat.S_IFREG | (mode & 0o7777), now, bytearray(data))

    def mkdir(self, path: str, parents: bool = False) -> None:
        with self._lock:
            full = self.normalize(path)
            entry = self._entries.get(full)
            if entry is not None:
                if entry.is_dir and parents:
                    return
                raise FsError(f"{path}: File exists")
            self._check_writable(full, path)
            parent = posixpath.dirname(full)
            if parent not in self._entries:
                if not parents:
                    raise FsError(f"{path}: No such file or directory")
                self.mkdir(parent, parents=True)
            elif not self._entries[parent].is_dir:
                raise FsError(f"{path}: Not a directory")
            self._entries[full] = Entry(stat.S_IFDIR | 0o771, int(time.time()))

    def remove(self, path: str, recursive: bool = False) -> None:
        with self._lock:
            full = self.normalize(path)
            entry = self._entries.get(full)
            if entry is None:
                raise FsError(f"{path}: No such file or directory")
            self._check_writable(full, path)
            if full in WRITABLE:
                raise FsError(f"{path}: Device or resource busy")
            if entry.is_dir:
                if not recursive:
                    raise FsError(f"{path}: Is a directory")
                for p in [p for p in self._entries if p.startswith(full + "/")]:
                    del self._entries[p]
            del self._entries[full]

    def listdir(self, path: str) -> list[str]:
        with self._lock:
            full = self.normalize(path)
            entry = self._entries.get(full)
            if entry is None:
                raise FsError(f"{path}: No such file or directory")
            if not entry.is_dir:
                raise FsError(f"{path}: Not a directory")
            prefix = full.rstrip("/") + "/"
            return sorted(p[len(prefix):] for p in self._entries
                          if p != full and p.startswith(prefix) and "/" not in p[len(prefix):])
