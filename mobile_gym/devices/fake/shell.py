"""A small POSIX ``sh`` for the fake phone: enough of the language that adb clients
send (``;``, ``&&``, ``||``, pipes, ``&``, quoting, ``$?`` and variables, ``>``/``2>&1``
redirections, ``NAME=value cmd``) and nothing of what they do not (no functions, loops
or command substitution: those are a syntax error, reported as the phone's shell would).

adbutils asks for an exit code by appending ``; echo X4EXIT:$?`` to a command, and
uiautomator2 starts its server with ``CLASSPATH=... app_process ...``: both need a
parser, not ``str.split``. Commands are plain functions (see `Command`) looked up in a
table the caller passes, so this module knows nothing of Android.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Union

from mobile_gym.devices.fake.wire import Disconnected

logger = logging.getLogger(__name__)

SH = "/system/bin/sh"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ShellSyntaxError(Exception):
    """The command line cannot be parsed (``sh: syntax error: ...``, exit code 2)."""


# ---------------------------------------------------------------------------- syntax
@dataclass(frozen=True)
class Var:
    name: str


Part = Union[str, Var]


@dataclass
class Word:
    parts: list[Part] = field(default_factory=list)
    quoted: bool = False
    assign: str | None = None  # NAME of a ``NAME=value`` word (its parts are the value)

    def expand(self, env: Mapping[str, str]) -> str:
        return "".join(p if isinstance(p, str) else env.get(p.name, "") for p in self.parts)

    @property
    def literal(self) -> str:
        return "".join(p if isinstance(p, str) else f"${p.name}" for p in self.parts)


@dataclass
class Redirect:
    fd: int
    op: str  # ">", ">>", "<", ">&"
    target: Word


@dataclass
class Simple:
    assigns: list[Word] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.assigns or self.words or self.redirects)


@dataclass
class AndOr:
    pipelines: list[list[Simple]]
    ops: list[str]  # "&&" / "||" between consecutive pipelines
    background: bool = False


_OPERATORS = ("&&", "||", ">>", ">&", "<<", ";;", ";", "&", "|", ">", "<", "(", ")")


def tokenize(text: str) -> list[Word | str]:
    """Words and operator strings; redirections come as ``"2>"``-style strings."""
    tokens: list[Word | str] = []
    word: Word | None = None
    cur: list[str] = []
    i, n = 0, len(text)

    def start() -> Word:
        nonlocal word
        if word is None:
            word = Word()
        return word

    def flush() -> None:
        if cur:
            start().parts.append("".join(cur))
            cur.clear()

    def end() -> None:
        nonlocal word
        flush()
        if word is not None:
            tokens.append(word)
            word = None

    def variable(j: int) -> tuple[Var | None, int]:
        """A ``$`` expansion starting at text[j] (just after the ``$``)."""
        if j < n and (text[j] in "?$#!@*" or text[j].isdigit()):
            return Var(text[j]), j + 1
        if j < n and text[j] == "{":
            k = text.find("}", j)
            if k < 0:
                raise ShellSyntaxError("bad substitution")
            return Var(text[j + 1:k]), k + 1
        if j < n and text[j] == "(":
            raise ShellSyntaxError("command substitution is not supported by the fake shell")
        m = _NAME.match(text, j)
        if m:
            return Var(m.group()), m.end()
        return None, j

    while i < n:
        c = text[i]
        if c in " \t":
            end()
            i += 1
        elif c == "\n":
            end()
            tokens.append(";")
            i += 1
        elif c == "#" and word is None and not cur:
            while i < n and text[i] != "\n":
                i += 1
        elif c == "'":
            k = text.find("'", i + 1)
            if k < 0:
                raise ShellSyntaxError("unterminated quoted string")
            start().quoted = True
            cur.append(text[i + 1:k])
            i = k + 1
        elif c == '"':
            start().quoted = True
            i += 1
            while True:
                if i >= n:
                    raise ShellSyntaxError("unterminated quoted string")
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                    if text[i + 1] != "\n":
                        cur.append(text[i + 1])
                    i += 2
                elif c == "$":
                    var, i2 = variable(i + 1)
                    if var is None:
                        cur.append("$")
                        i += 1
                    else:
                        flush()
                        word.parts.append(var)  # type: ignore[union-attr]
                        i = i2
                elif c == "`":
                    raise ShellSyntaxError("command substitution is not supported by the fake shell")
                else:
                    cur.append(c)
                    i += 1
        elif c == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                start().quoted = True
                cur.append(text[i + 1])
            i += 2
        elif c == "$":
            var, i2 = variable(i + 1)
            if var is None:
                start()
                cur.append("$")
                i += 1
            else:
                flush()
                start().parts.append(var)
                i = i2
        elif c == "`":
            raise ShellSyntaxError("command substitution is not supported by the fake shell")
        elif c in ";&|<>()":
            op = next(o for o in _OPERATORS if text.startswith(o, i))
            if op in ("(", ")", "<<", ";;"):
                raise ShellSyntaxError(f"'{op}' unexpected (not supported by the fake shell)")
            fd = ""
            if op in (">", ">>", ">&", "<") and word is not None and not word.quoted \
                    and not word.parts and "".join(cur).isdigit():
                fd = "".join(cur)
                cur.clear()
                word = None
            end()
            tokens.append(fd + op)
            i += len(op)
        else:
            if (c == "=" and word is not None and word.assign is None and not word.quoted
                    and not word.parts and _NAME.fullmatch("".join(cur))):
                word.assign = "".join(cur)
                cur.clear()
            elif c == "=" and word is None and not cur:
                start()
                cur.append(c)
            else:
                if word is None:
                    start()
                cur.append(c)
            i += 1
    end()
    return tokens


def parse(text: str) -> list[AndOr]:
    """The command lists of a script; `ShellSyntaxError` if it is malformed."""
    lists: list[AndOr] = []
    pipelines: list[list[Simple]] = []
    ops: list[str] = []
    pipeline: list[Simple] = []
    simple = Simple()
    pending: tuple[int, str] | None = None

    def end_simple(required: bool, token: str) -> None:
        nonlocal simple
        if pending is not None:
            raise ShellSyntaxError(f"'{token}' unexpected")
        if simple.empty():
            if required:
                raise ShellSyntaxError(f"'{token}' unexpected")
            return
        pipeline.append(simple)
        simple = Simple()

    def end_pipeline(token: str) -> bool:
        nonlocal pipeline
        end_simple(required=bool(pipeline), token=token)
        if not pipeline:
            return False
        pipelines.append(pipeline)
        pipeline = []
        return True

    for tok in tokenize(text):
        if isinstance(tok, Word):
            if pending is not None:
                fd, op = pending
                simple.redirects.append(Redirect(fd, op, tok))
                pending = None
            elif tok.assign is not None and not simple.words:
                simple.assigns.append(tok)
            else:
                if tok.assign is not None:  # ``cmd a=b``: an ordinary argument
                    tok.parts.insert(0, tok.assign + "=")
                    tok.assign = None
                simple.words.append(tok)
        elif tok == "|":
            end_simple(required=True, token=tok)
        elif tok in ("&&", "||"):
            if not end_pipeline(tok):
                raise ShellSyntaxError(f"'{tok}' unexpected")
            ops.append(tok)
        elif tok in (";", "&"):
            had = end_pipeline(tok)
            if ops and not had:
                raise ShellSyntaxError(f"'{tok}' unexpected")
            if pipelines:
                lists.append(AndOr(pipelines, ops, background=tok == "&"))
                pipelines, ops = [], []
            elif tok == "&":
                raise ShellSyntaxError("'&' unexpected")
        else:  # a redirection
            m = re.fullmatch(r"(\d*)(>>|>&|>|<)", tok)
            assert m is not None
            if pending is not None:
                raise ShellSyntaxError(f"'{tok}' unexpected")
            op = m.group(2)
            pending = (int(m.group(1)) if m.group(1) else (0 if op == "<" else 1), op)
    if pending is not None:
        raise ShellSyntaxError("unexpected end of file")
    had = end_pipeline("newline")
    if ops and not had:
        raise ShellSyntaxError("unexpected end of file")
    if pipelines:
        lists.append(AndOr(pipelines, ops))
    return lists


# ---------------------------------------------------------------------------- running
class ShellExit(Exception):
    """``exit N`` ends the script."""

    def __init__(self, code: int) -> None:
        self.code = code


#: Subscribes a wake-up callback to whatever ends a long-running command.
Subscribe = Callable[[Callable[[], None]], None]


@dataclass
class Streams:
    """Where a command's bytes go. ``hold`` exists only for the command that owns the
    adb stream itself (not piped, redirected or sent to the background): it blocks until
    the client hangs up (True) or the subscribed waker fires (False)."""

    out: Callable[[bytes], None]
    err: Callable[[bytes], None]
    stdin: bytes = b""
    hold: Callable[[Subscribe], bool] | None = None


class Context:
    """What a command sees: its arguments' environment, its streams, the phone."""

    def __init__(self, session: "ShellSession", streams: Streams, env: dict[str, str],
                 background: bool) -> None:
        self.session = session
        self.phone = session.phone
        self.streams = streams
        self.env = env
        self.background = background

    @property
    def stdin(self) -> bytes:
        return self.streams.stdin

    @property
    def cwd(self) -> str:
        return self.session.cwd

    def out(self, data: bytes | str) -> None:
        self.streams.out(data.encode("utf-8") if isinstance(data, str) else data)

    def err(self, data: bytes | str) -> None:
        self.streams.err(data.encode("utf-8") if isinstance(data, str) else data)

    def alive(self) -> bool:
        return self.session.alive()

    @property
    def can_hold(self) -> bool:
        return self.streams.hold is not None and not self.background

    def hold(self, subscribe: Subscribe) -> bool:
        assert self.streams.hold is not None
        return self.streams.hold(subscribe)


Command = Callable[[Context, list[str]], int]


class ShellSession:
    """Runs scripts against one phone; keeps ``$?``, variables and the working folder."""

    def __init__(self, phone: object, commands: Mapping[str, Command],
                 env: Mapping[str, str] | None = None, alive: Callable[[], bool] = lambda: True,
                 pid: int = 4242) -> None:
        self.phone = phone
        self.commands = commands
        self.env: dict[str, str] = {"PATH": "/product/bin:/apex/com.android.runtime/bin:"
                                    "/system/bin:/system/xbin:/odm/bin:/vendor/bin",
                                    "HOME": "/", "USER": "shell", "SHELL": SH, "?": "0",
                                    "$": str(pid), "TMPDIR": "/data/local/tmp", **(env or {})}
        self.cwd = "/"
        self.alive = alive
        self.exited = False  # an ``exit`` ran: an interactive session ends

    def run(self, script: str, streams: Streams) -> int:
        """Run a whole command line; its exit status (2 for a syntax error)."""
        try:
            lists = parse(script)
        except ShellSyntaxError as exc:
            streams.err(f"{SH}: <stdin>[1]: syntax error: {exc}\n".encode())
            return 2
        status = 0
        try:
            for and_or in lists:
                status = self._and_or(and_or, streams)
                self.env["?"] = str(status)
        except ShellExit as exc:
            status = exc.code
            self.exited = True
        return status

    def _and_or(self, and_or: AndOr, streams: Streams) -> int:
        status = self._pipeline(and_or.pipelines[0], streams, and_or.background)
        for op, pipeline in zip(and_or.ops, and_or.pipelines[1:]):
            self.env["?"] = str(status)
            if (op == "&&") == (status == 0):
                status = self._pipeline(pipeline, streams, and_or.background)
        return 0 if and_or.background else status

    def _pipeline(self, pipeline: list[Simple], streams: Streams, background: bool) -> int:
        stdin = streams.stdin
        status = 0
        for k, simple in enumerate(pipeline):
            last = k == len(pipeline) - 1
            if last:
                status = self._simple(simple, Streams(streams.out, streams.err, stdin, streams.hold),
                                      background or len(pipeline) > 1)
            else:
                buf = bytearray()
                status = self._simple(simple, Streams(buf.extend, streams.err, stdin), True)
                stdin = bytes(buf)
        return status

    def _simple(self, simple: Simple, streams: Streams, detached: bool) -> int:
        env = self.env
        assigned = {w.assign: w.expand(env) for w in simple.assigns if w.assign}
        argv = [w.expand(env) for w in simple.words]
        argv = [a for a, w in zip(argv, simple.words) if a or w.quoted]
        if not argv:
            self.env.update(assigned)
            return 0
        try:
            streams, finish = self._redirect(simple.redirects, streams)
        except _RedirectError as exc:
            streams.err(f"{SH}: {exc}\n".encode())
            return 1
        local_env = {**env, **assigned}
        ctx = Context(self, streams, local_env, background=detached)
        name = argv[0]
        command = self._lookup(name)
        try:
            if command is None:
                ctx.err(f"{SH}: {name}: inaccessible or not found\n")
                return 127
            return command(ctx, argv)
        except (ShellExit, Disconnected):
            raise
        except Exception as exc:  # a command's bug or a refused action: it dies, the shell goes on
            logger.warning("fake shell: %r failed: %s", argv, exc, exc_info=not isinstance(exc, ValueError))
            ctx.err(f"{name}: {type(exc).__name__}: {exc}\n")
            return 255
        finally:
            finish()

    def _lookup(self, name: str) -> Command | None:
        if name in _BUILTINS:
            return _BUILTINS[name]
        if "/" in name:
            folder, _, base = name.rpartition("/")
            if folder in ("/system/bin", "/system/xbin", "/vendor/bin", "/bin"):
                return self.commands.get(base)
            return None
        return self.commands.get(name)

    def _redirect(self, redirects: Iterable[Redirect], streams: Streams) -> tuple[Streams, Callable[[], None]]:
        """Streams with the redirections applied and what writes the files afterwards."""
        redirects = list(redirects)
        if not redirects:
            return streams, lambda: None
        fs = self.phone.fs  # type: ignore[attr-defined]
        targets: dict[int, Callable[[bytes], None]] = {1: streams.out, 2: streams.err}
        stdin = streams.stdin
        files: list[tuple[str, bytearray, bool]] = []
        for r in redirects:
            target = r.target.expand(self.env)
            if r.op == ">&":
                if target == "-":
                    targets[r.fd] = lambda _b: None
                elif target.isdigit() and int(target) in targets:
                    targets[r.fd] = targets[int(target)]
                else:
                    raise _RedirectError(f"{target}: bad file descriptor")
            elif r.op == "<":
                try:
                    stdin = fs.read(fs.normalize(target, self.cwd))
                except Exception as exc:  # FsError
                    raise _RedirectError(f"can't open {target}: {_reason(exc)}") from exc
            else:
                path = fs.normalize(target, self.cwd)
                if path == "/dev/null":
                    targets[r.fd] = lambda _b: None
                    continue
                buf = bytearray()
                files.append((path, buf, r.op == ">>"))
                targets[r.fd] = buf.extend
                try:  # create (or truncate) now, as sh does
                    fs.write(path, b"", append=r.op == ">>")
                except Exception as exc:
                    raise _RedirectError(f"can't create {target}: {_reason(exc)}") from exc

        def finish() -> None:
            for path, buf, _append in files:
                try:
                    fs.write(path, bytes(buf), append=True)
                except Exception as exc:  # the folder went away meanwhile: a write error
                    logger.debug("fake shell: redirection to %s lost: %s", path, exc)

        return Streams(targets[1], targets[2], stdin), finish


class _RedirectError(Exception):
    pass


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


# ---------------------------------------------------------------------------- builtins
def _echo(ctx: Context, argv: list[str]) -> int:
    args, newline, escapes = argv[1:], True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = "e" in args[0] or (escapes and "E" not in args[0])
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text = text.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
    ctx.out(text + ("\n" if newline else ""))
    return 0


def _exit(ctx: Context, argv: list[str]) -> int:
    code = int(argv[1]) if len(argv) > 1 and argv[1].lstrip("-").isdigit() else int(ctx.env.get("?", "0"))
    raise ShellExit(code & 0xFF)


def _cd(ctx: Context, argv: list[str]) -> int:
    fs = ctx.phone.fs
    target = fs.normalize(argv[1] if len(argv) > 1 else "/", ctx.cwd)
    entry = fs.stat(target)
    if entry is None or not entry.is_dir:
        ctx.err(f"{SH}: cd: {target}: No such file or directory\n")
        return 2
    ctx.session.cwd = target
    return 0


def _export(ctx: Context, argv: list[str]) -> int:
    for arg in argv[1:]:
        name, eq, value = arg.partition("=")
        if eq:
            ctx.session.env[name] = value
    return 0


def _sleep(ctx: Context, argv: list[str]) -> int:
    try:
        seconds = float(argv[1].rstrip("s")) if len(argv) > 1 else 0.0
    except ValueError:
        ctx.err(f"sleep: invalid number '{argv[1]}'\n")
        return 1
    ctx.phone.faults.wait(seconds, ctx.alive)
    return 0


def _sh(ctx: Context, argv: list[str]) -> int:
    """``sh -c SCRIPT``: a child shell (its ``exit`` ends only itself)."""
    if len(argv) < 3 or argv[1] != "-c":
        ctx.err(f"{SH}: only 'sh -c SCRIPT' is supported by the fake shell\n")
        return 2
    child = ShellSession(ctx.phone, ctx.session.commands, env={k: v for k, v in ctx.env.items() if k != "?"},
                         alive=ctx.session.alive)
    child.cwd = ctx.cwd
    return child.run(argv[2], Streams(ctx.streams.out, ctx.streams.err, ctx.stdin))


_BUILTINS: dict[str, Command] = {
    "sh": _sh,
    "echo": _echo,
    "true": lambda ctx, argv: 0,
    ":": lambda ctx, argv: 0,
    "false": lambda ctx, argv: 1,
    "exit": _exit,
    "cd": _cd,
    "export": _export,
    "sleep": _sleep,
}
