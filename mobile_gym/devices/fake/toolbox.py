"""The phone's file and text utilities (toybox's): ``ls``, ``cat``, ``rm``, ``mkdir``,
``touch``, ``cp``, ``mv``, ``md5sum``, ``grep``, ``head``, ``tail``, ``wc``, ``id``,
``whoami``, ``date``, ``uname``, and ``toybox NAME ...`` itself. Messages and exit codes
follow toybox, since clients parse them (uiautomator2 looks for the jar's md5)."""

from __future__ import annotations

import hashlib
import posixpath
import re
import time

from mobile_gym.devices.fake.fs import FsError
from mobile_gym.devices.fake.shell import Command, Context


def _flags(argv: list[str], known: str) -> tuple[set[str], list[str]]:
    """Single-letter flags (``-rf``) and the operands; ``--`` ends flags."""
    flags: set[str] = set()
    rest: list[str] = []
    args = iter(argv[1:])
    for a in args:
        if a == "--":
            rest.extend(args)
            break
        if a.startswith("-") and len(a) > 1 and all(c in known for c in a[1:]):
            flags.update(a[1:])
        else:
            rest.append(a)
    return flags, rest


def _path(ctx: Context, p: str) -> str:
    return ctx.phone.fs.normalize(p, ctx.cwd)


def _perm(mode: int) -> str:
    kind = "d" if mode & 0o040000 else "c" if (mode & 0o170000) == 0o020000 else "-"
    bits = "".join(ch if mode & (1 << (8 - i)) else "-" for i, ch in enumerate("rwxrwxrwx"))
    return kind + bits


def ls(ctx: Context, argv: list[str]) -> int:
    flags, paths = _flags(argv, "laA1dRhtSrsFn")
    fs = ctx.phone.fs
    status = 0
    paths = paths or ["."]

    def line(name: str, entry) -> str:
        if "l" not in flags:
            return name
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.mtime))
        return f"{_perm(entry.mode)} 1 shell shell {entry.size:>8} {stamp} {name}"

    for k, p in enumerate(paths):
        entry = fs.stat(_path(ctx, p))
        if entry is None:
            ctx.err(f"ls: {p}: No such file or directory\n")
            status = 1
            continue
        if not entry.is_dir or "d" in flags:
            ctx.out(line(p, entry) + "\n")
            continue
        if len(paths) > 1:
            ctx.out(("\n" if k else "") + f"{p}:\n")
        names = fs.listdir(_path(ctx, p))
        if "a" not in flags and "A" not in flags:
            names = [n for n in names if not n.startswith(".")]
        if "a" in flags:
            names = [".", "..", *names]
        if "l" in flags:
            ctx.out(f"total {len(names)}\n")
        for name in names:
            child = fs.stat(posixpath.join(_path(ctx, p), name)) or entry
            ctx.out(line(name, child) + "\n")
    return status


def cat(ctx: Context, argv: list[str]) -> int:
    _, paths = _flags(argv, "uvtAe")
    if not paths:
        ctx.out(ctx.stdin)
        return 0
    status = 0
    for p in paths:
        try:
            ctx.out(ctx.phone.fs.read(_path(ctx, p)))
        except FsError:
            ctx.err(f"cat: {p}: No such file or directory\n")
            status = 1
    return status


def rm(ctx: Context, argv: list[str]) -> int:
    flags, paths = _flags(argv, "rRfiv")
    status = 0
    for p in paths:
        try:
            ctx.phone.fs.remove(_path(ctx, p), recursive=bool({"r", "R"} & flags))
        except FsError as exc:
            if "f" in flags and "No such file" in str(exc):
                continue
            ctx.err(f"rm: {exc}\n")
            status = 1
    if not paths and "f" not in flags:
        ctx.err("rm: Needs 1 argument\n")
        return 1
    return status


def mkdir(ctx: Context, argv: list[str]) -> int:
    flags, paths = _flags(argv, "pv")
    status = 0
    for p in paths:
        try:
            ctx.phone.fs.mkdir(_path(ctx, p), parents="p" in flags)
        except FsError as exc:
            ctx.err(f"mkdir: {exc}\n")
            status = 1
    return status


def touch(ctx: Context, argv: list[str]) -> int:
    _, paths = _flags(argv, "acm")
    fs, status = ctx.phone.fs, 0
    for p in paths:
        try:
            entry = fs.stat(_path(ctx, p))
            if entry is None:
                fs.write(_path(ctx, p), b"")
            else:
                entry.mtime = int(time.time())
        except FsError as exc:
            ctx.err(f"touch: {exc}\n")
            status = 1
    return status


def cp(ctx: Context, argv: list[str], move: bool = False) -> int:
    name = "mv" if move else "cp"
    _, paths = _flags(argv, "rRfpaniv")
    if len(paths) < 2:
        ctx.err(f"{name}: Needs 2 arguments\n")
        return 1
    fs = ctx.phone.fs
    *sources, dest = paths
    target_dir = fs.stat(_path(ctx, dest))
    status = 0
    for src in sources:
        dst = _path(ctx, dest)
        if target_dir is not None and target_dir.is_dir:
            dst = posixpath.join(dst, posixpath.basename(_path(ctx, src)))
        try:
            entry = fs.stat(_path(ctx, src))
            fs.write(dst, fs.read(_path(ctx, src)), mode=(entry.mode if entry else 0o644))
            if move:
                fs.remove(_path(ctx, src))
        except FsError as exc:
            ctx.err(f"{name}: {exc}\n")
            status = 1
    return status


def md5sum(ctx: Context, argv: list[str]) -> int:
    _, paths = _flags(argv, "bc")
    if not paths:
        ctx.out(f"{hashlib.md5(ctx.stdin).hexdigest()}  -\n")
        return 0
    status = 0
    for p in paths:
        try:
            ctx.out(f"{hashlib.md5(ctx.phone.fs.read(_path(ctx, p))).hexdigest()}  {p}\n")
        except FsError as exc:
            ctx.err(f"md5sum: {exc}\n")
            status = 1
    return status


def _inputs(ctx: Context, paths: list[str], name: str) -> tuple[list[tuple[str, bytes]], int]:
    if not paths:
        return [("-", ctx.stdin)], 0
    found, status = [], 0
    for p in paths:
        try:
            found.append((p, ctx.phone.fs.read(_path(ctx, p))))
        except FsError as exc:
            ctx.err(f"{name}: {exc}\n")
            status = 2 if name == "grep" else 1
    return found, status


def grep(ctx: Context, argv: list[str]) -> int:
    flags: set[str] = set()
    patterns: list[str] = []
    operands: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-e" and i + 1 < len(args):
            patterns.append(args[i + 1])
            i += 2
            continue
        if a.startswith("-") and len(a) > 1 and all(c in "iEvFqcnowsHh" for c in a[1:]):
            flags.update(a[1:])
        else:
            operands.append(a)
        i += 1
    if not patterns:
        if not operands:
            ctx.err("grep: no pattern\n")
            return 2
        patterns.append(operands.pop(0))
    try:
        rxs = [re.compile(re.escape(p) if "F" in flags else p, re.I if "i" in flags else 0) for p in patterns]
    except re.error as exc:
        ctx.err(f"grep: bad regex '{patterns[0]}': {exc}\n")
        return 2
    inputs, status = _inputs(ctx, operands, "grep")
    matched = 0
    for name, data in inputs:
        count = 0
        for line in data.decode("utf-8", "replace").splitlines():
            hit = any(r.search(line) for r in rxs)
            if "w" in flags:
                hit = any(re.search(rf"\b(?:{r.pattern})\b", line, r.flags) for r in rxs)
            if hit == ("v" in flags):
                continue
            count += 1
            if "q" in flags or "c" in flags:
                continue
            prefix = f"{name}:" if len(inputs) > 1 and "h" not in flags else ""
            if "o" in flags and "v" not in flags:
                for r in rxs:
                    for m in r.finditer(line):
                        ctx.out(prefix + m.group() + "\n")
            else:
                ctx.out(prefix + line + "\n")
        if "c" in flags:
            ctx.out((f"{name}:" if len(inputs) > 1 else "") + f"{count}\n")
        matched += count
    if status:
        return status
    return 0 if matched else 1


def _head_tail(ctx: Context, argv: list[str], tail: bool) -> int:
    n, paths = 10, []
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-n" and i + 1 < len(args):
            n = int(args[i + 1].lstrip("+"))
            i += 2
            continue
        if re.fullmatch(r"-n?\d+", a):
            n = int(a.lstrip("-n"))
        else:
            paths.append(a)
        i += 1
    inputs, status = _inputs(ctx, paths, "tail" if tail else "head")
    for _, data in inputs:
        lines = data.splitlines(keepends=True)
        ctx.out(b"".join(lines[-n:] if tail and n else lines[:n]))
    return status


def wc(ctx: Context, argv: list[str]) -> int:
    flags, paths = _flags(argv, "lwc")
    inputs, status = _inputs(ctx, paths, "wc")
    for name, data in inputs:
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        shown = [str(counts[k]) for k in "lwc" if k in flags or not flags]
        ctx.out(" ".join(shown) + ("" if name == "-" else f" {name}") + "\n")
    return status


def date(ctx: Context, argv: list[str]) -> int:
    fmt = next((a[1:] for a in argv[1:] if a.startswith("+")), "%a %b %d %H:%M:%S %Z %Y")
    ctx.out(time.strftime(fmt, time.gmtime()).replace("%Z", "GMT") + "\n")
    return 0


def uname(ctx: Context, argv: list[str]) -> int:
    if "-a" in argv:
        ctx.out("Linux localhost 5.10.157-android13-4 #1 SMP PREEMPT Mon Jul 24 2023 aarch64 Toybox\n")
    elif "-m" in argv:
        ctx.out("aarch64\n")
    elif "-r" in argv:
        ctx.out("5.10.157-android13-4\n")
    else:
        ctx.out("Linux\n")
    return 0


TOOLBOX: dict[str, Command] = {
    "ls": ls, "cat": cat, "rm": rm, "mkdir": mkdir, "touch": touch, "md5sum": md5sum,
    "cp": cp, "mv": lambda ctx, argv: cp(ctx, argv, move=True), "grep": grep,
    "head": lambda ctx, argv: _head_tail(ctx, argv, tail=False),
    "tail": lambda ctx, argv: _head_tail(ctx, argv, tail=True), "wc": wc,
    "id": lambda ctx, argv: ctx.out("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),"
                                    "1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3003(inet) "
                                    "context=u:r:shell:s0\n") or 0,
    "whoami": lambda ctx, argv: ctx.out("shell\n") or 0,
    "date": date, "uname": uname,
    "getenforce": lambda ctx, argv: ctx.out("Enforcing\n") or 0,
}


def toybox(ctx: Context, argv: list[str]) -> int:
    """``toybox NAME ...`` runs the named tool; bare ``toybox`` lists them."""
    if len(argv) == 1:
        ctx.out(" ".join(sorted(TOOLBOX)) + "\n")
        return 0
    tool = TOOLBOX.get(argv[1])
    if tool is None:
        ctx.err(f"toybox: Unknown command {argv[1]}\n")
        return 1
    return tool(ctx, argv[1:])


TOOLBOX["toybox"] = toybox
