"""How the ``mobile-gym`` command ends and what it shows on the way, as a shell sees it:
Ctrl-C during its start-up imports, a reader that closes the pipe (``| head``), and its
progress on a terminal and off one (CI logs, ``| tee``)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mobile_gym.cli import BROKEN_PIPE, INTERRUPTED
from mobile_gym.progress import ProgressLine

ROOT = Path(__file__).resolve().parents[1]

#: Put first on the path of a child process: Ctrl-C (a real SIGINT to itself) arrives
#: just as the module named by INTERRUPT_AT starts importing.
SITECUSTOMIZE = """
import importlib.abc, os, signal, sys

class InterruptAt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == os.environ["INTERRUPT_AT"]:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, InterruptAt())
"""


def mobile_gym(*args: str, cwd: Path, env: dict[str, str] | None = None, **popen) -> subprocess.Popen:
    """``python -m mobile_gym ARGS`` with SIGINT as a terminal's programs have it (a suite run
    in the background inherits it ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen([sys.executable, "-m", "mobile_gym", *args], cwd=cwd, env=env, text=True, **popen)
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("command, module", [
    (["run", "--agent", "oracle", "--tasks", "settings-open", "--out", "run"], "mobile_gym.runner.batch"),
    (["evaluate", "--run", "run"], "mobile_gym.evaluation.runner"),
    (["tasks"], "mobile_gym.tasks.table"),
])
def test_ctrl_c_during_start_up_imports_exits_130_without_a_traceback(tmp_path, command, module) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {**os.environ, "INTERRUPT_AT": module,
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = mobile_gym(*command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == INTERRUPTED == 130, err
    assert "Traceback" not in err and err.strip() == "interrupted"
    assert not (tmp_path / "run").exists()


def test_a_closed_pipe_ends_the_command_quietly(tmp_path) -> None:
    """``mobile-gym tasks | head -1``: the listing (about 75 KB) outgrows the pipe's buffer."""
    with mobile_gym("tasks", cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout.readline().startswith("id ")
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == BROKEN_PIPE == 141
    assert err == "", err


def test_a_run_off_a_terminal_prints_plain_progress_lines(tmp_path) -> None:
    proc = mobile_gym("run", "--agent", "oracle", "--tasks", "settings-open", "settings-turn-off-wifi",
                      "--out", "run", cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "\r" not in err and "\033" not in err
    lines = [line for line in err.splitlines() if line.startswith("episodes ")]
    assert [line.split()[1] for line in lines] == ["1/2", "2/2"] and "success 100%" in lines[-1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal() -> None:
    screen = Terminal()
    line = ProgressLine("episodes", screen)
    for n in range(1, 101):
        line.update(n, 100, "success 50%")
    text = screen.getvalue()
    assert text.count("\r") == 100 and text.count("\n") == 1 and text.endswith("100/100  success 50%  ETA    0s \033[K\n")


def test_progress_off_a_terminal_writes_a_line_per_tenth_and_the_last() -> None:
    log = io.StringIO()
    line = ProgressLine("episodes", log)
    for n in range(1, 1001):
        line.update(n, 1000, f"step {n}")
    lines = log.getvalue().splitlines()
    assert [ln.split()[1] for ln in lines] == [f"{n}/1000" for n in range(100, 1001, 100)]


def test_progress_off_a_terminal_also_writes_when_time_passes(monkeypatch) -> None:
    clock = iter(range(0, 10_000, 20))  # each reading 20 s after the last
    monkeypatch.setattr("mobile_gym.progress.time.monotonic", lambda: next(clock))
    log = io.StringIO()
    line = ProgressLine("traces", log)  # made at t=0
    for n in range(1, 6):  # t = 20, 40, 60, 80, 100: well inside the first tenth of 1000
        line.update(n, 1000)
    assert [ln.split()[1] for ln in log.getvalue().splitlines()] == ["2/1000", "4/1000"]  # 40 s, then 80 s
