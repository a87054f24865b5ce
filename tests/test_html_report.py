"""The run's HTML report, from real runs: one self-contained file, a section per episode
with a thumbnail per trace step, the step each checkpoint matched, escaped text, and a
useful page when no traces were saved."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import lxml.html
import pytest
from PIL import Image

from mobile_gym.agents import Agent, OracleAgent
from mobile_gym.env import resolve_task
from mobile_gym.formats.agentenv import read_trace
from mobile_gym.runner import Job, run_batch
from mobile_gym.runner.batch import TRACES_DIR, trace_dir_name
from mobile_gym.runner.html_report import REPORT_FILE, THUMB_WIDTH, write_html_report
from mobile_gym.runner.metrics import write_reports

HOSTILE = "<script>alert('pwned')</script> & </details><img src=http://example.com/x.png>"


class HostileAgent(Agent):
    """Crashes on its first move with a message full of markup."""

    def act(self, observation, info):
        raise RuntimeError(HOSTILE)


class SecondRouteAgent(OracleAgent):
    """Plays the task's alternative route 1."""

    def __init__(self, task):
        super().__init__(task, route=1)


JOBS = [Job("settings-turn-off-wifi", "oracle", 0), Job("settings-open", "oracle", 0),
        Job("settings-turn-off-wifi", "random", 0), Job("settings-open", f"{__name__}:HostileAgent", 0),
        Job("settings-set-system-dark", f"{__name__}:SecondRouteAgent", 0)]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, list[dict]]:
    out = tmp_path_factory.mktemp("run")
    records = run_batch(JOBS, out, save_traces=True)
    write_reports(out, records)
    return out, records


def parse(path: Path):
    return lxml.html.fromstring(path.read_text(encoding="utf-8"))


def episodes(doc) -> dict[tuple[str, str, int], object]:
    sections = doc.xpath("//section[contains(concat(' ', @class, ' '), ' episode ')]")
    found = {(s.get("data-task"), s.get("data-agent"), int(s.get("data-seed"))): s for s in sections}
    assert len(found) == len(sections)
    return found


def key(record: dict) -> tuple[str, str, int]:
    return (record["task"], record["agent"], record["seed"])


def test_the_report_is_one_file_with_no_outside_references(run) -> None:
    out, _ = run
    path = out / REPORT_FILE
    doc = parse(path)
    assert doc.xpath("//link") == [] and doc.xpath("//iframe") == [] and doc.xpath("//script[@src]") == []
    for element in doc.iter():
        src, href = element.get("src"), element.get("href")
        assert src is None or src.startswith("data:image/"), src
        assert href is None or href.startswith("#"), href
    style = "".join(doc.xpath("//style/text()"))
    assert "url(" not in style and "@import" not in style
    # internal links lead somewhere
    ids = set(doc.xpath("//@id"))
    assert all(h[1:] in ids for h in doc.xpath("//@href"))


def test_one_section_per_episode_with_a_thumbnail_per_trace_step(run) -> None:
    out, records = run
    sections = episodes(parse(out / REPORT_FILE))
    assert set(sections) == {key(r) for r in records}
    for r in records:
        folder = out / TRACES_DIR / trace_dir_name(r["task"], r["agent"], r["seed"])
        assert folder.is_dir() == (r["error"] is None)  # the runner and the report agree on the name
        images = sections[key(r)].xpath(".//img")
        assert len(images) == (len(read_trace(folder)) if folder.is_dir() else 0)
        if folder.is_dir():  # a dot on the thumbnail where each tap or swipe began
            for state, figure in zip(read_trace(folder), sections[key(r)].xpath(".//figure")):
                dots = figure.xpath(".//span[@class='touch']/@style")
                touch = state.action.touch if state.action is not None else None
                assert dots == ([] if touch is None else [f"left:{touch[0] * 100:.1f}%;top:{touch[1] * 100:.1f}%"])
    first = sections[key(records[0])].xpath(".//img")[0].get("src")
    with Image.open(io.BytesIO(base64.b64decode(first.split(",", 1)[1]))) as thumb:
        assert thumb.format == "JPEG" and thumb.width == THUMB_WIDTH


def test_each_checkpoint_shows_the_step_it_matched(run) -> None:
    out, records = run
    sections = episodes(parse(out / REPORT_FILE))
    assert any(r["success"] for r in records) and any(not r["success"] and r["error"] is None for r in records)
    for r in records:
        section = sections[key(r)]
        checkpoints = resolve_task(r["task"]).annotation.routes[r["route"]]
        items = section.xpath(".//ol[@class='checkpoints']/li")
        if r["agent"].endswith("SecondRouteAgent"):  # solved by its second route, which is shown
            assert r["success"] and r["route"] == 1 and "Checkpoints of alternative route 1 of 1, the route that solved" in section.text_content()
        assert len(items) == len(checkpoints)
        for k, (item, checkpoint) in enumerate(zip(items, checkpoints)):
            text = item.text_content()
            assert str(checkpoint) in text
            step = r["matched"].get(str(k))
            assert (f"matched at step {step}" if step is not None else "not matched") in text
            if step is not None:  # the badge sits on that step's thumbnail
                figure = section.xpath(".//figure")[step]
                assert f"step {step}" in figure.text_content() and f"C{k + 1}" in figure.text_content()
                assert "hit" in figure.get("class")


def test_text_from_records_is_escaped(run) -> None:
    out, records = run
    doc = parse(out / REPORT_FILE)
    broken = next(r for r in records if r["error"] is not None)
    assert broken["error"]["message"] == HOSTILE
    section = episodes(doc)[key(broken)]
    assert HOSTILE in section.text_content()  # shown as text ...
    assert len(doc.xpath("//script")) == 1 and doc.xpath("//img[starts-with(@src, 'http')]") == []  # ... not markup
    assert section.xpath(".//details")[0].get("open") is not None  # errors start open


def test_without_traces_every_episode_is_listed_with_its_matches(tmp_path) -> None:
    records = run_batch(JOBS[:3], tmp_path)
    # a disagreement between matcher and oracle, and a task this version does not know
    flipped = {**records[0], "seed": 7, "oracle_success": False}
    unknown = {**records[1], "task": "LlamaTouch/no-such-<task>-v0", "matched": {"0": 2}}
    path = write_html_report(tmp_path, records + [flipped, unknown])
    doc = parse(path)
    sections = episodes(doc)
    assert len(sections) == 5 and doc.xpath("//img") == []
    assert "--save-traces" in doc.text_content()
    for r in records:
        text = sections[key(r)].text_content()
        assert "--save-traces" in text
        for k, step in r["matched"].items():
            assert f"C{int(k) + 1}" in text and f"matched at step {step}" in text
    disagree = sections[key(flipped)]
    assert "disagree" in disagree.get("class") and "matcher ≠ oracle" in disagree.text_content()
    assert "unknown task" in sections[key(unknown)].xpath("ancestor::section")[0].text_content()
    assert "matched at step 2" in sections[key(unknown)].text_content()
    assert json.loads(json.dumps(records)) == records  # the report does not touch the records


def test_the_summary_shows_agent_and_env_latency_per_step_in_ms(tmp_path) -> None:
    record, = run_batch(JOBS[:1], tmp_path)
    doc = parse(write_html_report(tmp_path, [{**record, "act_latency": 0.25, "step_latency": 0.004}]))
    table = doc.xpath("//table[contains(@class, 'summary')]")[0]
    head = [th.text_content() for th in table.xpath(".//th")]
    total = [td.text_content() for td in table.xpath(".//tr[@class='total']/td")]
    assert total[head.index("agent act (ms)")] == "250.00" and total[head.index("env step (ms)")] == "4.00"


def test_errors_count_as_failures_in_the_task_index_and_sections(run) -> None:
    out, _ = run
    doc = parse(out / REPORT_FILE)
    row = doc.xpath("//a[text()='LlamaTouch/settings-open-v0']/ancestor::tr")[0]
    # episodes, matcher success, oracle success, disagreements, errors: the oracle's success and the hostile error
    assert [td.text_content() for td in row.xpath("td")][1:] == ["2", "1/2", "1/2", "0", "1"]
    section = doc.xpath("//section[@class='task'][.//h2[text()='LlamaTouch/settings-open-v0']]")[0]
    assert "2 episodes, matcher success 1/2" in section.xpath("p[@class='meta']")[0].text_content()
