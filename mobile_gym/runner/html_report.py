"""A run's report as one self-contained HTML file (``report.html``).

Annotators checking the matcher need to see *where* each checkpoint matched and what the
agent did from each screen, next to the simulator oracle's verdict. One file with the
thumbnails and charts embedded as ``data:`` URIs, inline CSS and a few lines of plain JS
opens anywhere (attached to an issue, copied off a server) with no network and no other
files. Every piece of text from a record, a task or a trace is escaped, and the page is
made `printable` (no lone surrogates or control characters): dumps, typed text and error
messages can contain anything.

A step's thumbnail is made once, by the worker that saved the trace (`mobile_gym.runner.thumbnails`:
``<episode>/thumbnails/i.jpg``, from the observed screenshot, ~2 ms), so the report only
reads small files. A trace without them (written before, or by another tool) has its
thumbnails made from its screenshots, on several threads: decoding a device-resolution
screenshot costs ~15-30 ms, and a run has thousands. Each distinct thumbnail is in the
page once (`Pictures`): a run's screens repeat (``make run``'s reports: 14 MB -> 6 MB for
the oracle, 37 MB -> 10 MB for the random agent).
"""

from __future__ import annotations

import base64
import io
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import FormatError, MobileGymError
from mobile_gym.runner.batch import TRACES_DIR, trace_dir_name
from mobile_gym.runner.metrics import (MS_METRICS, SUMMARY_GROUPS, USAGE_GROUP, has_oracle, shown_agent,
                                      succeeded, summarize)
from mobile_gym.report_text import printable
from mobile_gym.runner.thumbnails import THUMB_WIDTH, THUMBNAILS_DIR, thumbnail_jpeg
from mobile_gym.trace import Trace, UIState

REPORT_FILE = "report.html"
#: Threads making the thumbnails of traces that have none (Pillow decodes and resizes without the GIL).
THUMB_THREADS = min(4, os.cpu_count() or 1)
#: Called as each episode's section is written: (episodes done, episodes in all).
Progress = Callable[[int, int], None]


@dataclass
class TaskInfo:
    """What the report shows of a task: its instruction and checkpoint descriptions,
    or why they are unknown (a task this version of mobile_gym does not define)."""

    instruction: str | None = None
    routes: list[list[str]] = field(default_factory=list)  # each route's checkpoints
    problem: str | None = None

    def checkpoints(self, route: int) -> list[str]:
        return self.routes[route] if 0 <= route < len(self.routes) else []


@dataclass(frozen=True)
class Thumbnail:
    """A step's JPEG thumbnail and its size (read from the JPEG's header)."""

    jpeg: bytes
    size: tuple[int, int]  # (width, height) in px


@dataclass
class Screens:
    """An episode's trace as the report shows it: its states and each one's thumbnail
    (or why there is none); or why there is no readable trace."""

    trace: Trace | None = None
    thumbnails: list[Thumbnail | MobileGymError] = field(default_factory=list)
    problem: str | None = None


class Pictures:
    """Each distinct thumbnail of the page once, as a CSS class whose background it is: a
    run's traces repeat their screens (two seeds of a task, an app's first screens, a
    random agent's taps on nothing): a third or fewer of a run's thumbnails are distinct."""

    def __init__(self) -> None:
        self._classes: dict[bytes, str] = {}

    def css_class(self, jpeg: bytes) -> str:
        return self._classes.setdefault(jpeg, f"t{len(self._classes)}")

    def style(self) -> str:
        return "".join(f".{name}{{background-image:url({_data_uri(jpeg)})}}\n" for jpeg, name in self._classes.items())


def write_html_report(out: str | Path, records: list[dict[str, Any]], *, dataset: str | Path | None = None,
                      progress: Progress | None = None) -> Path:
    """Write ``out/report.html`` for ``records`` (with screenshots for the episodes whose
    traces are in ``out/traces``; ``dataset``: the LlamaTouch dataset that judged a
    phone's tasks); returns its path. ``progress`` is called after each episode."""
    from mobile_gym.runner.plots import charts

    out = Path(out)
    tasks = {r["task"]: task_info(r["task"], dataset) for r in records}
    traces = out / TRACES_DIR
    by_task: dict[str, list[tuple[int, dict[str, Any]]]] = {}  # numbered for the episodes' ids
    for n, r in enumerate(records):
        by_task.setdefault(r["task"], []).append((n, r))
    order = sorted(by_task)
    summary = summarize(records)
    body = [
        "<h1>mobile_gym run report</h1>",
        f"<p class='meta'>{_count(len(records), 'episode')} of {_count(len(order), 'task')}, "
        f"from <code>{escape(str(out))}</code>.</p>",
        _no_traces_note(traces, records),
        _summary_table(summary),
        _charts(charts(summary, records)),
        _task_index(order, by_task),
        _toolbar(),
    ]
    episodes = {task: sorted(by_task[task], key=lambda e: (str(e[1]["agent"]), e[1]["seed"])) for task in order}
    folders = [traces / trace_dir_name(r["task"], str(r["agent"]), r["seed"])
               for task in order for _, r in episodes[task]]
    pictures = Pictures()
    with ThreadPoolExecutor(THUMB_THREADS) as pool:
        screens = pool.map(_screens, folders)  # in order, made ahead of the section being written
        done = 0
        for t, task in enumerate(order):
            sections = []
            for n, r in episodes[task]:
                sections.append(_episode(n, r, tasks[task], next(screens), folders[done], pictures))
                done += 1
                if progress is not None:
                    progress(done, len(records))
            body.append(_task_section(t, task, tasks[task], episodes[task], sections))
    path = out / REPORT_FILE
    path.write_text(printable(_page("\n".join(body), pictures.style())), encoding="utf-8")  # any text records hold
    return path


def task_info(env_id: str, dataset: str | Path | None = None) -> TaskInfo:
    """The instruction and checkpoints of the task an env id names (as ``dataset``
    annotates it, if given); a task that cannot be resolved gets the reason instead, so
    one odd record does not sink the report."""
    from mobile_gym.env import resolve_task

    try:
        task = resolve_task(env_id, "device", dataset) if dataset is not None else resolve_task(env_id)
        return TaskInfo(task.instruction, [[str(c) for c in route] for route in task.annotation.routes])
    except MobileGymError as e:
        return TaskInfo(problem=str(e))


def _data_uri(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")


def _screens(folder: Path) -> Screens:
    """An episode's trace and thumbnails: those its worker wrote, else made from its
    screenshots (a screenshot that cannot be read is its step's problem, not the trace's)."""
    from mobile_gym.formats.agentenv import read_trace

    if not folder.is_dir():
        return Screens()
    try:
        trace = read_trace(folder)
    except MobileGymError as e:
        return Screens(problem=str(e))
    thumbnails: list[Thumbnail | MobileGymError] = []
    for i, state in enumerate(trace):
        try:
            thumbnails.append(_thumbnail(folder / THUMBNAILS_DIR / f"{i}.jpg", state))
        except MobileGymError as e:
            thumbnails.append(e)
    return Screens(trace, thumbnails)


def _thumbnail(path: Path, state: UIState) -> Thumbnail:
    """The thumbnail the worker wrote at ``path``, else one made from the state's
    screenshot (by a state of its own: the decoded screenshot is not kept with the trace)."""
    try:
        jpeg = path.read_bytes()
    except OSError:
        jpeg = thumbnail_jpeg(UIState(screenshot_path=state.screenshot_path, index=state.index).image)
    try:
        with Image.open(io.BytesIO(jpeg)) as image:  # reads the header alone
            return Thumbnail(jpeg, image.size)
    except Image.UnidentifiedImageError:
        raise FormatError(path, "thumbnail is not a readable image") from None


def matched_steps(record: dict[str, Any]) -> dict[int, int]:
    """Checkpoint index -> step index; JSON turned the keys into strings."""
    return {int(k): int(v) for k, v in (record.get("matched") or {}).items()}


# -- page parts -----------------------------------------------------------------------------

def _count(n: Any, word: str) -> str:
    return f"{_fmt(n)} {word}{'' if n == 1 else 's'}"


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.2f}"
    return escape(str(v))


def _metric(name: str, v: Any) -> str:
    """A summary cell; latencies (seconds per step in the records) in milliseconds."""
    if name == "cost" and isinstance(v, float):
        return f"{v:.4f}"
    return _ms(v) if name in MS_METRICS else _fmt(v)


def _ms(seconds: Any) -> str:
    """A latency in milliseconds, the report's one unit of time."""
    return f"{seconds * 1000:.1f}" if isinstance(seconds, (int, float)) else "-"


def _no_traces_note(traces: Path, records: list[dict[str, Any]]) -> str:
    if not records or traces.is_dir():
        return ""
    return ("<p class='note'>No traces were saved for this run: screenshots and actions per step "
            "need <code>mobile-gym run --save-traces</code>.</p>")


def _summary_table(summary: dict[str, Any]) -> str:
    """The summary by agent (as in summary.json), its columns under what their figures
    are (counts, rates, means per episode or per step, run totals); it scrolls sideways
    in a narrow window."""
    groups = SUMMARY_GROUPS + ((USAGE_GROUP,) if summary["overall"]["tokens"] is not None else ())
    columns = [c for _, group in groups for c in group]
    head = ("<tr><th rowspan='2'>agent</th>"
            + "".join(f"<th colspan='{len(group)}' class='group'>{escape(name)}</th>" for name, group in groups)
            + "</tr><tr>" + "".join(f"<th>{escape(label)}</th>" for _, label in columns) + "</tr>")
    rows = [f"<tr><td>{escape(name)}</td>" + "".join(f"<td>{_metric(c, m[c])}</td>" for c, _ in columns)
            + "</tr>" for name, m in summary["by_agent"].items()]
    rows.append("<tr class='total'><td>all</td>"
                + "".join(f"<td>{_metric(c, summary['overall'][c])}</td>" for c, _ in columns) + "</tr>")
    return f"<h2>Summary</h2><div class='wide'><table class='summary'>{head}{''.join(rows)}</table></div>"


def _task_index(order: list[str], by_task: dict[str, list[tuple[int, dict[str, Any]]]]) -> str:
    """A row per task linking to its section: episodes, successes, disagreements, errors."""
    index = ["<div class='wide'><table class='summary'><tr><th>task</th><th>episodes</th><th>matcher success</th>"
             "<th>oracle success</th><th>matcher &ne; oracle</th><th>errors</th></tr>"]
    for t, task in enumerate(order):
        rs = [r for _, r in by_task[task]]
        disagree = sum(_disagrees(r) for r in rs)
        index.append(
            f"<tr><td><a href='#task-{t}'>{escape(task)}</a></td><td>{len(rs)}</td>"
            f"<td>{_successes(rs, 'success')}/{len(rs)}</td><td>{_oracle_successes(rs)}</td>"
            f"<td{' class=warn' if disagree else ''}>{disagree}</td>"
            f"<td>{sum(r.get('error') is not None for r in rs)}</td></tr>")
    index.append("</table></div>")
    return f"<h2>Tasks</h2>{''.join(index)}"


def _charts(images: dict[str, Image.Image]) -> str:
    """The run's charts (`mobile_gym.runner.plots`), inline as the screenshots are."""
    shown = []
    for name, image in images.items():
        buf = io.BytesIO()
        image.save(buf, "PNG", optimize=True)
        uri = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        shown.append(f"<img src='{uri}' width='{image.width}' height='{image.height}' alt='{escape(name)}'>")
    return f"<h2>Charts</h2><div class='charts'>{''.join(shown)}</div>"


def _toolbar() -> str:
    return ("<div class='toolbar'><label>Show <select id='show'><option value='episode'>all episodes</option>"
            "<option value='disagree'>matcher &ne; oracle</option><option value='fail'>matcher failures</option>"
            "<option value='error'>errors</option></select></label> "
            "<button type='button' onclick='openAll(true)'>expand all</button> "
            "<button type='button' onclick='openAll(false)'>collapse all</button> "
            "<span class='legend'>Steps are numbered as the trace files (0 = first screen); "
            "the action shown is the one taken from that screen.</span></div>")


def _successes(records: list[dict[str, Any]], verdict: str) -> int:
    return sum(succeeded(r, verdict) for r in records)


def _oracle_successes(records: list[dict[str, Any]]) -> str:
    """``k/n`` over the episodes an oracle judged; "-" when none was (a phone's)."""
    judged = [r for r in records if has_oracle(r)]
    return f"{_successes(judged, 'oracle_success')}/{len(judged)}" if judged else "-"


def _task_section(t: int, task: str, info: TaskInfo, episodes: list[tuple[int, dict]], sections: list[str]) -> str:
    about = (f"<p class='instruction'>{escape(info.instruction)}</p>" if info.instruction is not None
             else f"<p class='note'>{escape(info.problem or '')}</p>")
    head = (f"<h2>{escape(task)}</h2>{about}<p class='meta'>{_count(len(episodes), 'episode')}, matcher success "
            f"{_successes([r for _, r in episodes], 'success')}/{len(episodes)}</p>")
    return (f"<section class='task' id='task-{t}'>{head}"
            + "".join(sections) + "</section>")


def _disagrees(record: dict[str, Any]) -> bool:
    return (record.get("error") is None and has_oracle(record)
            and bool(record["success"]) != bool(record["oracle_success"]))


def _episode(n: int, r: dict[str, Any], info: TaskInfo, screens: Screens, folder: Path, pictures: Pictures) -> str:
    """One episode: a header line of verdicts, then (when opened) the instruction,
    checkpoints and steps. Disagreements and errors start open."""
    error = r.get("error")
    kinds = ["episode", "error" if error else "success" if r["success"] else "fail"]
    if _disagrees(r):
        kinds.append("disagree")
    attrs = (f"class='{' '.join(kinds)}' id='ep-{n}' data-task='{escape(r['task'])}' "
             f"data-agent='{escape(str(r['agent']))}' data-seed='{escape(str(r['seed']))}'")
    is_open = " open" if error or _disagrees(r) else ""
    matched = matched_steps(r)
    parts = [f"<section {attrs}><details{is_open}><summary>{_header(r)}</summary><div class='body'>"]
    if info.instruction is not None:
        parts.append(f"<p>Instruction: <span class='instruction'>{escape(info.instruction)}</span></p>")
    if error:
        parts.append(f"<pre class='error'>{escape(str(error.get('kind')))}: {escape(str(error.get('message')))}</pre>")
    parts.append(_checkpoints(info, int(r.get("route") or 0), matched, bool(r.get("success"))))
    replies = _replies_by_step(r.get("agent_steps"))
    parts.append(_steps(screens, folder, matched, error, replies, pictures))
    parts.append("</div></details></section>")
    return "".join(parts)


def _verdict(label: str, ok: bool) -> str:
    return f"<span class='badge {'ok' if ok else 'no'}'>{label} {'&#10003; success' if ok else '&#10007; fail'}</span>"


def _header(r: dict[str, Any]) -> str:
    error = r.get("error")
    bits = [f"<span class='who' title='{escape(printable(r['agent']))}'>{escape(printable(shown_agent(r)))} "
            f"&middot; seed {escape(str(r['seed']))}</span>"]
    if error:
        bits.append(f"<span class='badge err'>error: {escape(str(error.get('kind')))}</span>")
    else:
        bits.append(_verdict("matcher", bool(r["success"])))
        if has_oracle(r):
            bits.append(_verdict("oracle", bool(r["oracle_success"])))
        if _disagrees(r):
            bits.append("<span class='badge warn'>matcher &ne; oracle</span>")
    bits.append(f"<span class='stats'>progress {_fmt(r.get('progress'))} &middot; {_count(r.get('steps'), 'step')} "
                f"&middot; ended by {_fmt(r.get('terminated_by'))}</span>")
    if r.get("answer") is not None:  # an information task's answer, as the agent gave it
        bits.append(f"<span class='stats'>answered <q>{escape(printable(str(r['answer'])))}</q></span>")
    if r.get("tokens") is not None:  # a model was asked: its cost and time, apart from the env's
        cost = "cost unknown" if r.get("cost") is None else f"${r['cost']:.4f}"
        bits.append(f"<span class='stats usage'>{_fmt(r.get('tokens_in'))} tokens in &middot; "
                    f"{_fmt(r.get('tokens_out'))} out &middot; {cost} &middot; model {_ms(r.get('act_latency'))} ms"
                    f"/step &middot; env {_ms(r.get('step_latency'))} ms/step</span>")
    return " ".join(bits)


def _replies_by_step(agent_steps: Any) -> dict[int, tuple[int, dict[str, Any]]]:
    """Env step -> (the model's step, its record): a reply carried out in two actions
    (a tap, then the typing) covers two env steps."""
    out: dict[int, tuple[int, dict[str, Any]]] = {}
    if not isinstance(agent_steps, list):
        return out
    step = 0
    for k, record in enumerate(agent_steps):
        if not isinstance(record, dict):
            continue
        for _ in range(max(1, len(record.get("actions") or []))):
            out[step] = (k, record)
            step += 1
    return out


def _reply(k: int, record: dict[str, Any], first: bool) -> str:
    """The model's reply, what it was read as, and a parse error in red."""
    if not first:
        return f"<div class='reply'>(reply {k + 1}, continued)</div>"
    error = record.get("parse_error")
    read = (f"<span class='badge err'>not used: {escape(str(error))}</span>" if error
            else f"<code class='command'>{escape(str(record.get('command')))}</code>")
    if record.get("refused"):  # read, but the device could not do it (an app not installed)
        read += f" <span class='badge err'>not done: {escape(str(record['refused']))}</span>"
    text = record.get("reply")
    shown = escape(text if isinstance(text, str) else json.dumps(text, ensure_ascii=False))
    return (f"<div class='reply{' bad' if error else ''}'>reply {k + 1}: {read}"
            f"<details><summary>model's reply</summary><pre>{shown}</pre></details></div>")


def _checkpoints(info: TaskInfo, route: int, matched: dict[int, int], success: bool) -> str:
    """Each checkpoint of the episode's leading route with the step it matched at; the
    record's matches are listed even when the task's checkpoints are unknown."""
    checkpoints = info.checkpoints(route)
    count = max(len(checkpoints), max(matched, default=-1) + 1)
    if not count:
        return ""
    items = []
    for k in range(count):
        text = escape(checkpoints[k]) if k < len(checkpoints) else "(description unknown)"
        where = (f"<span class='badge ok'>matched at step {matched[k]}</span>" if k in matched
                 else "<span class='badge no'>not matched</span>")
        items.append(f"<li><span class='cp'>C{k + 1}</span> <code>{text}</code> {where}</li>")
    why = "the route that solved the task" if success else "the route this episode got furthest on"
    which = f"<p>Checkpoints of alternative route {route} of {len(info.routes) - 1}, {why}:</p>" if route else ""
    return f"{which}<ol class='checkpoints'>{''.join(items)}</ol>"


def _steps(screens: Screens, folder: Path, matched: dict[int, int], error: Any,
           replies: dict[int, tuple[int, dict[str, Any]]], pictures: Pictures) -> str:
    """The trace's screens as thumbnails with the action taken from each (and the model's
    reply that chose it), and a badge on the steps where checkpoints matched; a note when
    there is no readable trace (the replies are listed anyway)."""
    def reply(i: int) -> str:
        if i not in replies:
            return ""
        k, record = replies[i]
        return _reply(k, record, i == 0 or replies.get(i - 1, (None,))[0] != k)

    if screens.problem is not None:
        return f"<p class='note'>Trace unreadable: {escape(screens.problem)}</p>"
    if screens.trace is None:
        if not folder.parent.is_dir():
            why = "screenshots need <code>--save-traces</code>"
        elif error:
            why = "the episode broke before its trace was written"
        else:
            why = f"<code>{escape(folder.parent.name)}/{escape(folder.name)}</code> is missing"
        listed = "".join(f"<li>step {i}: {reply(i)}</li>" for i in sorted(replies))
        return f"<p class='note'>No trace: {why}.</p>" + (f"<ol class='replies'>{listed}</ol>" if listed else "")
    hits: dict[int, list[int]] = {}
    for k, step in matched.items():
        hits.setdefault(step, []).append(k)
    figures = []
    for i, (state, thumb) in enumerate(zip(screens.trace, screens.thumbnails)):
        unused = bool(replies.get(i, (0, {}))[1].get("parse_error")) or (
            state.action is not None and state.action.action_type is ActionType.INVALID)
        picture = _picture(i, thumb, pictures, "" if unused else _touch_marks(state.action))
        figures.append(_step(i, state, picture, sorted(hits.get(i, [])), reply(i), unused))
    return "<div class='steps'>" + "".join(figures) + "</div>"


def _picture(i: int, thumb: Thumbnail | MobileGymError, pictures: Pictures, marks: str) -> str:
    """A step's thumbnail (the background of its `Pictures` class), with ``marks`` on it."""
    if isinstance(thumb, MobileGymError):
        return f"<div class='noimg'>{escape(str(thumb))}</div>"
    width, height = thumb.size
    return (f"<div class='shot {pictures.css_class(thumb.jpeg)}' role='img' aria-label='step {i} screenshot' "
            f"style='width:{width}px;height:{height}px'>{marks}</div>")


def _step(i: int, state: UIState, picture: str, checkpoints: list[int], reply: str, unused: bool) -> str:
    """One step's figure. A step whose reply could not be used (``unused``) did nothing:
    it shows as no action (its reply, below, says why), not as the no-op the env was given."""
    badges = "".join(f"<span class='badge ok'>&#10003; C{k + 1}</span>" for k in checkpoints)
    if state.action is None:
        action = "<code>(end)</code>"
    elif unused:
        action = "<span class='none'>no action: the reply could not be used</span>"
        if not reply and state.action.action_type is ActionType.INVALID:  # no model record: the reply itself
            action += f" <q>{escape(printable(state.action.text or ''))}</q>"
    else:
        action = f"<code>{escape(str(state.action))}</code>"
    title = escape(state.activity or "activity unknown")
    return (f"<figure class='step{' hit' if checkpoints else ''}' title='{title}'>{picture}"
            f"<figcaption><b>step {i}</b> {badges}{action}{reply}</figcaption></figure>")


def _touch_marks(action: Action | None) -> str:
    """Dots where a tap or swipe touched the screen (hollow where a swipe lifted), so a
    CLICK's coordinates read as a place on the thumbnail."""
    if action is None or action.touch is None:
        return ""
    points = [("touch", action.touch)] + ([("lift", action.lift)] if action.lift and action.lift != action.touch else [])
    return "".join(f"<span class='{kind}' style='left:{x * 100:.1f}%;top:{y * 100:.1f}%'></span>"
                   for kind, (x, y) in points)


STYLE = """
.reply{margin-top:4px;font-size:12px;color:#333}.reply .badge{white-space:normal}.reply.bad{background:#ffe6e6;border-radius:3px;padding:2px}
.reply pre{white-space:pre-wrap;max-height:220px;overflow:auto;background:#f4f4f7;padding:4px;margin:2px 0}
.usage{color:#2a4f8a}ol.replies li{margin:4px 0}
body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;padding:16px 24px;
 max-width:1400px;color:#28282f;background:#fafafb}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:22px 0 6px}
code{font:12px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.meta{color:#666;margin:2px 0 8px}.note{color:#8a5a00;background:#fff6e0;padding:6px 10px;border-radius:4px}
table.summary{border-collapse:collapse;margin:6px 0 10px;background:#fff}
.wide{max-width:100%;overflow-x:auto}.summary th.group{text-align:center;font-weight:500;color:#555}
.charts{display:flex;flex-wrap:wrap;gap:10px}.charts img{max-width:100%;height:auto;border:1px solid #dcdce2}
.none{display:block;font-size:11px;color:#a50e0e}
.summary th,.summary td{border:1px solid #dcdce2;padding:3px 6px;text-align:right}.summary{font-size:13px}
.summary th{background:#f0f0f4}.summary td:first-child,.summary th:first-child{text-align:left}
.summary tr.total td{font-weight:600}.summary td.warn{background:#ffe3c2;font-weight:600}
.toolbar{position:sticky;top:0;background:#fafafb;padding:8px 0;border-bottom:1px solid #dcdce2;z-index:1}
.legend{color:#666;margin-left:12px;font-size:12px}
section.task{margin-top:18px}.instruction{font-style:italic;margin:2px 0 6px}
section.episode{background:#fff;border:1px solid #dcdce2;border-left:5px solid #c5c5cf;border-radius:4px;margin:6px 0}
section.episode.success{border-left-color:#1e8e3e}section.episode.fail{border-left-color:#c5221f}
section.episode.error{border-left-color:#7b1fa2}
section.episode.disagree{border-left-color:#f29900;box-shadow:0 0 0 2px #f29900}
summary{cursor:pointer;padding:6px 10px}details[open] summary{border-bottom:1px solid #eee}
details .body{padding:4px 12px 8px}details .body p{margin:4px 0}
.who{font-weight:600;margin-right:6px}.stats{color:#555;margin-left:6px}
.badge{display:inline-block;padding:0 6px;border-radius:9px;font-size:12px;margin:1px 2px;white-space:nowrap}
.badge.ok{background:#e6f4ea;color:#137333}.badge.no{background:#fce8e6;color:#a50e0e}
.badge.warn{background:#f29900;color:#fff;font-weight:600}.badge.err{background:#f3e5f5;color:#6a1b9a}
.cp{font-weight:600;color:#444}
ol.checkpoints{list-style:none;padding:0;margin:6px 0}ol.checkpoints li{margin:2px 0}
pre.error{white-space:pre-wrap;word-break:break-word;background:#f3e5f5;padding:6px 10px;border-radius:4px}
.steps{display:flex;flex-wrap:wrap;gap:8px;padding:4px 0}
figure.step{margin:0;width:135px;border:1px solid #dcdce2;border-radius:4px;background:#fff;overflow:hidden}
figure.step.hit{border:2px solid #1e8e3e}
.shot{position:relative;background-color:#eee;background-size:100% 100%;background-repeat:no-repeat}
.shot span{position:absolute;width:10px;height:10px;margin:-7px 0 0 -7px;border-radius:50%;border:2px solid #fff;
 box-shadow:0 0 0 1px #d93025}.shot .touch{background:#d93025}.shot .lift{background:transparent;border-color:#d93025}
figcaption{padding:3px 4px;font-size:12px}figcaption code{display:block;word-break:break-all;font-size:11px}
.noimg{height:120px;padding:6px;font-size:11px;color:#a50e0e;word-break:break-word}
"""

SCRIPT = """
const show = document.getElementById('show');
function filter() {
  for (const s of document.querySelectorAll('section.episode')) s.hidden = !s.classList.contains(show.value);
  for (const t of document.querySelectorAll('section.task')) t.hidden = !t.querySelector('section.episode:not([hidden])');
}
function openAll(open) { for (const d of document.querySelectorAll('section.episode:not([hidden]) details')) d.open = open; }
show.addEventListener('change', filter);
if (location.hash === '#expand') openAll(true);  // report.html#expand opens every episode
"""


def _page(body: str, pictures: str) -> str:
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>mobile_gym run report</title><style>{STYLE}</style><style>{pictures}</style></head>\n"
            f"<body>\n{body}\n"
            f"<script>{SCRIPT}</script></body></html>\n")
