"""The README's task table is the registry's, and `mobile-gym tasks --markdown` prints it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile_gym.cli import main
from mobile_gym.errors import FormatError
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.tasks.table import BEGIN, END, readme_block, update_readme

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_holds_the_registry_table() -> None:
    text = README.read_text(encoding="utf-8")
    block = text[text.index(BEGIN):text.index(END) + len(END)]
    assert block == readme_block(), "the README's task table is stale: python -m mobile_gym.tasks.table README.md"
    for task in simulator_tasks().values():
        assert f"| `{task.env_id}` |" in block


def test_update_rewrites_only_the_block(tmp_path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\n{BEGIN}\nold table\n{END}\n\nafter\n", encoding="utf-8")
    assert update_readme(readme)
    assert readme.read_text(encoding="utf-8") == f"# title\n\n{readme_block()}\n\nafter\n"
    assert not update_readme(readme)  # up to date: left alone
    readme.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(FormatError, match="markers"):
        update_readme(readme)


def test_cli_prints_the_markdown_table(capsys) -> None:
    assert main(["tasks", "--backend", "sim", "--app", "gmail", "--markdown"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "| env id | app | steps | limit | instruction |"
    gmail = [t for t in simulator_tasks().values() if t.app_name == "Gmail"]
    assert len(lines) == 2 + len(gmail) and err.strip() == f"{len(gmail)} task(s)"
    assert all(f"| `{t.env_id}` | Gmail | {t.steps} |" in out for t in gmail)
