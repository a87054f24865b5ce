"""``mobile-gym evaluate --run DIR``: re-judging a runner's output folder, and the batch
engine behind it (batched embeddings, the on-disk cache, shared screens, workers).

Runs are made with ``mobile-gym run`` itself. The fast tests use tasks whose annotations
need no embedding model; the slow ones run fuzzy tasks and load the real model."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mobile_gym.cli import main
from mobile_gym.errors import FormatError
from mobile_gym.evaluation.engine import Job, judge, judge_plainly
from mobile_gym.evaluation.ground_truth import DatasetTruth, SimulatorTruth
from mobile_gym.evaluation.run import evaluate_run, read_run_records, run_jobs
from mobile_gym.evaluation.runner import EVALUATORS
from mobile_gym.matcher.embeddings import EmbeddingCache, SentenceEmbedder, model_fingerprint
from mobile_gym.matcher.primitives import Matcher

EXACT_TASKS = ["settings-turn-off-wifi", "settings-open", "clock-set-timer"]
FUZZY_TASKS = ["settings-go-network", "clock-set-alarm-9am", "chrome-refresh-tabs", "settings-set-system-dark"]


def make_run(out: Path, agents, tasks, *extra: str, seeds: int = 1) -> Path:
    for agent in agents:
        resume = ["--resume"] if (out / "episodes.jsonl").exists() else []
        code = main(["run", "--agent", agent, "--tasks", *tasks, "--seeds", str(seeds), "--save-traces",
                     "--out", str(out), *resume, *extra])
        assert code == 0
    return out


@pytest.fixture(scope="module")
def exact_run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("run") / "run", ["oracle", "stop-short"], EXACT_TASKS,
                    "--dynamics", "none")


def read_csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def verdicts(rows) -> dict:
    return {(r.episode, r.evaluator): (r.success, r.progress, r.matched, r.explanation, r.error) for r in rows}


# -- the command ----------------------------------------------------------------------------
def test_evaluate_run_alone_judges_every_trace_of_a_simulator_run(exact_run, tmp_path, capsys):
    out = tmp_path / "out"
    cache = tmp_path / "cache"
    assert main(["evaluate", "--run", str(exact_run), "--out", str(out), "--embedding-cache", str(cache)]) == 0
    printed = capsys.readouterr().out
    assert "vs online" in printed and "vs oracle" in printed and "stop-short" in printed
    rows = read_csv(out / "episodes.csv")
    assert len(rows) == 2 * len(EXACT_TASKS) * len(EVALUATORS)  # every evaluator by default
    assert {"task", "agent", "seed", "online_success", "oracle_success"} <= set(rows[0])
    names = {r["episode"] for r in rows}
    assert "settings-open__oracle__0" in names and all(r["error"] == "" for r in rows)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    essential = summary["essential"]
    assert essential["online_agreement"] == 1.0 and essential["compared"] == 6
    assert essential["per_agent"]["oracle"]["completion_rate"] == 1.0
    # the oracle's episodes ended on success (no popups: its actions are the golden path's),
    # and the baselines credit them
    for evaluator in ("action", "lcs"):
        assert summary[evaluator]["per_agent"]["oracle"]["completed"] == len(EXACT_TASKS)
    assert not cache.exists()  # no fuzzy check: nothing encoded, nothing cached


def test_default_output_goes_beside_the_run_not_over_it(exact_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(exact_run, run)
    before = (run / "episodes.csv").read_bytes()
    assert main(["evaluate", "--run", str(run), "--evaluator", "essential", "--embedding-cache", "none"]) == 0
    assert (run / "evaluation" / "episodes.csv").exists()
    assert (run / "episodes.csv").read_bytes() == before
    assert main(["evaluate", "--run", str(run), "--out", str(run)]) == 2


def test_the_built_in_ground_truth_gives_the_exported_datasets_verdicts(exact_run, tmp_path):
    assert main(["export-dataset", str(tmp_path / "dataset"), "--tasks", *EXACT_TASKS]) == 0
    from mobile_gym.formats.llamatouch import GroundTruthDataset

    built_in = evaluate_run(exact_run)
    exported = evaluate_run(exact_run, dataset=GroundTruthDataset(tmp_path / "dataset"))
    assert verdicts(built_in) == verdicts(exported)


def test_workers_give_the_same_rows_in_the_same_order(exact_run):
    one = evaluate_run(exact_run)
    two = evaluate_run(exact_run, workers=2)
    assert [(r.episode, r.evaluator) for r in one] == [(r.episode, r.evaluator) for r in two]
    assert verdicts(one) == verdicts(two)
    assert [r.agent for r in one[::3]] == [r["agent"] for r in read_run_records(exact_run)]


def test_episodes_selects_traces_and_names_unknown_ones(exact_run):
    rows = evaluate_run(exact_run, evaluators=["essential"],
                        episodes=["settings-open__stop-short__0", "nope__oracle__0"])
    assert [r.episode for r in rows] == ["settings-open__stop-short__0", "nope__oracle__0"]
    assert rows[0].error is None and "not in the run" in rows[1].error


# -- a folder that is not what it should be ---------------------------------------------------
def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_folders_that_are_no_run_are_clear_usage_errors(exact_run, tmp_path, capsys):
    assert main(["evaluate", "--run", str(tmp_path / "missing")]) == 2
    assert "does not exist" in one_line_error(capsys)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["evaluate", "--run", str(empty)]) == 2
    assert "episodes.jsonl" in one_line_error(capsys) and not (empty / "evaluation").exists()
    no_traces = tmp_path / "no-traces"
    no_traces.mkdir()
    shutil.copy(exact_run / "episodes.jsonl", no_traces)
    assert main(["evaluate", "--run", str(no_traces)]) == 2
    assert "--save-traces" in one_line_error(capsys)
    assert main(["evaluate", "--traces", str(exact_run / "traces")]) == 2
    assert "--dataset" in one_line_error(capsys)


def copy_run(exact_run: Path, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(exact_run, run)
    return run


def rewrite(run: Path, edit) -> None:
    path = run / "episodes.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps(r) + "\n" for r in edit(records)), encoding="utf-8")


def test_bad_records_are_format_errors_naming_the_line(exact_run, tmp_path):
    run = copy_run(exact_run, tmp_path)
    rewrite(run, lambda rs: rs + [rs[0]])
    with pytest.raises(FormatError, match="line 7 records .* again"):
        read_run_records(run)
    rewrite(run, lambda rs: rs[:-1] + [{"task": "x", "agent": "oracle", "seed": "0"}])
    with pytest.raises(FormatError, match="line 7 is not an episode record"):
        read_run_records(run)
    (run / "episodes.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(FormatError, match="records no episodes"):
        read_run_records(run)


def test_a_torn_last_line_is_skipped_and_the_file_left_alone(exact_run, tmp_path):
    run = copy_run(exact_run, tmp_path)
    path = run / "episodes.jsonl"
    torn = path.read_bytes() + b'{"task": "LlamaTouch/settings-open-v0", "agent": "rand'
    path.write_bytes(torn)
    assert len(read_run_records(run)) == 6
    assert path.read_bytes() == torn


def test_records_without_a_trace_are_error_rows(exact_run, tmp_path):
    run = copy_run(exact_run, tmp_path)
    shutil.rmtree(run / "traces" / "settings-open__oracle__0")

    def fail_one(records):
        for r in records:
            if r["task"].endswith("clock-set-timer-v0") and r["agent"] == "oracle":
                r.update(error={"kind": "EpisodeTimeout", "message": "over 600 s"}, success=False)
        return records

    rewrite(run, fail_one)
    rows = {(r.episode, r.evaluator): r for r in evaluate_run(run)}
    missing = rows["settings-open__oracle__0", "essential"]
    assert "no trace at" in missing.error and "settings-open__oracle__0" in missing.error
    assert missing.online is True and not missing.predicted
    failed = rows["clock-set-timer__oracle__0", "lcs"]
    assert "EpisodeTimeout: over 600 s" in failed.error and failed.online is None
    assert rows["settings-turn-off-wifi__oracle__0", "essential"].success


def test_a_task_without_ground_truth_is_an_error_row(exact_run, tmp_path):
    run = copy_run(exact_run, tmp_path)

    def rename(records):
        records[0]["task"] = "LlamaTouch/no-such-task-v0"
        return records

    rewrite(run, rename)
    rows = evaluate_run(run, evaluators=["essential"])
    assert "no simulator task" in rows[0].error and "--dataset" in rows[0].error
    assert all(r.error is None for r in rows[1:])


# -- fair action baselines on runner traces (slow: three tasks of each app, three agents) --------
def _three_of_each_app() -> list[str]:
    """Three tasks of every app, and the one whose last golden-path entry does nothing
    (the faithfulness benchmark scores the baselines on every task)."""
    from mobile_gym.tasks.suite import simulator_tasks

    by_app: dict[str, list[str]] = {}
    for task in sorted(simulator_tasks().values(), key=lambda t: t.id):
        by_app.setdefault(task.app_name, []).append(task.id)
    return sorted({"clock-trace-tokyo-time", *(t for ids in by_app.values() for t in ids[:3])})


@pytest.mark.slow
def test_oracle_runs_score_with_the_action_baselines_and_near_misses_do_not(tmp_path):
    """Clean (dynamics none) runner traces against the exported dataset: the env ends the
    oracle's episodes on success, which stands for its COMPLETE, so both baselines credit
    them all; the agent that stops one step short is credited by neither; tapping around
    after the task (the env left running) fails the step-wise match, while the
    subsequence match tolerates the extra taps by design."""
    from mobile_gym.formats.llamatouch import GroundTruthDataset

    tasks = _three_of_each_app()
    n = len(tasks)
    assert main(["export-dataset", str(tmp_path / "dataset"), "--tasks", *tasks]) == 0
    dataset = GroundTruthDataset(tmp_path / "dataset")
    run = make_run(tmp_path / "run", ["oracle", "stop-short"], tasks, "--dynamics", "none")
    after = make_run(tmp_path / "after", ["break-after"], tasks, "--dynamics", "none", "--no-terminate-on-success")
    rows = evaluate_run(run, dataset=dataset, embedding_cache=tmp_path / "cache", workers=2)
    rows += evaluate_run(after, dataset=dataset, embedding_cache=tmp_path / "cache")
    assert not [r for r in rows if r.error]

    def credited(agent: str, evaluator: str) -> int:
        return sum(r.predicted for r in rows if r.agent == agent and r.evaluator == evaluator)

    assert credited("oracle", "action") == credited("oracle", "lcs") == n
    # one step short is a failure, except where the golden path's last entry does nothing
    # (clock-trace-tokyo-time ends scrolling to a city already in view): there the
    # oracle, the matcher and both baselines agree it is done
    short = [r for r in rows if r.agent == "stop-short" and r.evaluator in ("action", "lcs")]
    assert all(r.predicted == r.oracle for r in short)
    assert credited("stop-short", "action") == credited("stop-short", "lcs") <= 1
    assert credited("break-after", "action") == 0 and credited("break-after", "lcs") == n
    assert all(r.predicted == r.online for r in rows if r.evaluator == "essential")
    # without the run's record of how episodes ended, the oracle's traces fail both
    plain = judge_plainly([Job(j.name, j.episode, j.trace, j.root) for j in run_jobs(run, DatasetTruth(dataset))],
                          DatasetTruth(dataset), ["action", "lcs"], Matcher())
    assert sum(r.predicted for r in plain) == 0


# -- the batch engine: same verdicts, fewer encodes, a cache that never lies (slow: the model) ----
@pytest.fixture(scope="module")
def fuzzy_run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("fuzzy") / "run", ["oracle", "random", "stop-short"], FUZZY_TASKS,
                    seeds=2)


@pytest.fixture(scope="module")
def plain_rows(fuzzy_run):
    """The reference: one Matcher, trace by trace, the model called as the tracker asks."""
    embedder = SentenceEmbedder()
    truth = SimulatorTruth()
    rows = judge_plainly(run_jobs(fuzzy_run, truth), truth, EVALUATORS, Matcher(embedder=embedder))
    return rows, embedder.encoded


@pytest.mark.slow
def test_batched_cached_and_parallel_paths_give_the_plain_verdicts(fuzzy_run, plain_rows, tmp_path):
    rows, plain_encodes = plain_rows
    assert any(r.evaluator == "essential" and r.predicted for r in rows)
    assert any(r.evaluator == "essential" and not r.predicted for r in rows)
    truth = SimulatorTruth()
    jobs = run_jobs(fuzzy_run, truth)
    cache = tmp_path / "cache"

    cold = SentenceEmbedder(cache_dir=cache)
    batched = judge(jobs, truth, EVALUATORS, embedder=cold)
    assert verdicts(batched) == verdicts(rows)
    assert 0 < cold.encoded <= plain_encodes  # each text once, nothing an explanation alone asks for

    warm = SentenceEmbedder(cache_dir=cache)  # a later run: every text is on disk
    cached = judge(jobs, truth, EVALUATORS, embedder=warm, workers=2)
    assert verdicts(cached) == verdicts(rows)
    assert not warm.loaded and warm.encoded == 0

    parallel_cold = judge(jobs, truth, EVALUATORS, cache_dir=tmp_path / "other", workers=2)
    assert verdicts(parallel_cold) == verdicts(rows)


@pytest.mark.slow
def test_a_corrupt_cache_costs_encodes_never_verdicts(fuzzy_run, plain_rows, tmp_path):
    rows, _ = plain_rows
    truth = SimulatorTruth()
    jobs = run_jobs(fuzzy_run, truth)
    cache = tmp_path / "cache"
    first = SentenceEmbedder(cache_dir=cache)
    judge(jobs, truth, EVALUATORS, embedder=first)
    segments = list(cache.glob("*/seg-*.bin"))
    assert segments
    for path in segments:  # flip a byte inside the vectors of every segment
        data = bytearray(path.read_bytes())
        data[-100] ^= 0xFF
        path.write_bytes(bytes(data))
    again = SentenceEmbedder(cache_dir=cache)
    assert verdicts(judge(jobs, truth, EVALUATORS, embedder=again)) == verdicts(rows)
    assert again.encoded == first.encoded  # everything encoded again
    assert not any(p.exists() for p in segments)  # the corrupt files are gone


@pytest.mark.slow
def test_no_screenshot_is_decoded_when_no_image_check_needs_it(fuzzy_run, monkeypatch):
    import mobile_gym.trace as trace_module

    decoded = []
    real = trace_module._load_image
    monkeypatch.setattr(trace_module, "_load_image", lambda path: decoded.append(path) or real(path))
    rows = evaluate_run(fuzzy_run)
    assert rows and decoded == []


# -- the on-disk cache on its own (no model) -----------------------------------------------------
def unit(rows: int, dim: int = 8, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_cache_round_trip_and_concurrent_writers(tmp_path):
    a, b = EmbeddingCache(tmp_path, "m"), EmbeddingCache(tmp_path, "m")
    va, vb = unit(3, seed=1), unit(2, seed=2)
    a.add(["x", "y", "z"], va)
    b.add(["u", "v"], vb)  # another process, at the same time: its own segment
    c = EmbeddingCache(tmp_path, "m")
    got = c.get(["x", "v", "nope"])
    assert set(got) == {"x", "v"}
    assert np.array_equal(got["x"], va[0]) and np.array_equal(got["v"], vb[1])
    assert a.get(["u"])["u"].tolist() == vb[0].tolist()  # a finds b's vectors by listing again
    assert EmbeddingCache(tmp_path, "other").get(["x"]) == {}  # another model's folder


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "not unit"])
def test_a_damaged_segment_is_ignored_and_removed(tmp_path, damage, caplog):
    good = EmbeddingCache(tmp_path, "m")
    good.add(["kept"], unit(1, seed=3))
    bad = EmbeddingCache(tmp_path, "m")
    bad.add(["lost"], unit(1, seed=4) * (2.0 if damage == "not unit" else 1.0))
    (path,) = [p for p in (tmp_path / "m").iterdir() if p.name.endswith(".bin") and p.name not in good._seen]
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        path.write_bytes(data[:40] + bytes([data[40] ^ 1]) + data[41:])
    elif damage == "garbage":
        path.write_bytes(b"\x00" * len(data))
    fresh = EmbeddingCache(tmp_path, "m")
    assert set(fresh.get(["kept", "lost"])) == {"kept"}
    assert not path.exists() and "corrupt" in caplog.text


def test_many_segments_are_merged_and_an_unwritable_cache_is_only_logged(tmp_path, caplog):
    from mobile_gym.matcher import embeddings

    for i in range(embeddings.MAX_SEGMENTS + 2):
        EmbeddingCache(tmp_path, "m").add([f"t{i}"], unit(1, seed=i))
    reader = EmbeddingCache(tmp_path, "m")
    assert len(reader.get([f"t{i}" for i in range(embeddings.MAX_SEGMENTS + 2)])) == embeddings.MAX_SEGMENTS + 2
    assert len(list((tmp_path / "m").glob("seg-*.bin"))) == 1
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    cache = EmbeddingCache(blocked, "m")
    cache.add(["a"], unit(1))  # cannot write: logged once, kept in memory
    assert cache.get(["a"]) and cache.written == 0 and "cannot write" in caplog.text


def test_the_fingerprint_follows_the_model_files(tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    first = model_fingerprint(str(model))
    assert model_fingerprint(str(model)) == first
    (model / "config.json").write_text('{"hidden": 1}', encoding="utf-8")
    assert model_fingerprint(str(model)) != first
    assert model_fingerprint("some/hub-model") != model_fingerprint("other/hub-model")


@pytest.mark.slow
def test_a_model_that_cannot_load_is_an_error_row_where_a_verdict_needs_it(fuzzy_run, tmp_path, capsys):
    empty = tmp_path / "no-model"
    empty.mkdir()
    out = tmp_path / "out"
    assert main(["evaluate", "--run", str(fuzzy_run), "--evaluator", "essential", "--embedding-model", str(empty),
                 "--embedding-cache", str(tmp_path / "cache"), "--out", str(out)]) == 0
    rows = read_csv(out / "episodes.csv")
    failed = [r for r in rows if r["error"]]
    assert failed and all("cannot load embedding model" in r["error"] for r in failed)
    assert any(r["success"] == "True" for r in rows)  # a verdict that needed no model stands


# -- shared screens and spared work (no model) ---------------------------------------------------
def test_shared_screens_give_the_plain_verdicts_and_parse_each_dump_once(exact_run):
    from mobile_gym.evaluation.shared import SharedDumps, SharingMatcher
    from mobile_gym.formats.agentenv import read_trace
    from mobile_gym.matcher.tracker import evaluate_trace

    truth = SimulatorTruth()
    jobs = run_jobs(exact_run, truth)
    plain = judge_plainly(jobs, truth, EVALUATORS, Matcher())
    assert verdicts(judge(jobs, truth, EVALUATORS)) == verdicts(plain)

    dumps = SharedDumps()
    first, again = (read_trace(jobs[0].trace, make_state=dumps.state) for _ in range(2))
    assert all(a.hierarchy is b.hierarchy for a, b in zip(first, again))
    assert dumps.parsed == len({s.dump_digest for s in first})
    matcher = SharingMatcher()
    annotation = truth.annotation(jobs[0].episode)
    one, two = evaluate_trace(annotation, first, matcher), evaluate_trace(annotation, again, matcher)
    assert matcher.shared > 0 and (one.success, one.matched, one.explanations) == (two.success, two.matched,
                                                                                     two.explanations)


def test_an_explanation_judges_no_costly_primitive_the_verdict_did_not(exact_run):
    """A step rejected on its activity is explained without the model: the fuzzy check
    after the failure is reported as not judged (and the embedder is never asked)."""
    from mobile_gym.matcher.annotation import Checkpoint, Keyword, Primitive
    from mobile_gym.matcher.primitives import NOT_JUDGED

    class NoModel:
        def embed(self, texts):
            raise AssertionError("the model was asked")

    truth = SimulatorTruth()
    job = run_jobs(exact_run, truth)[0]
    annotation = truth.annotation(job.episode)
    screen = annotation.checkpoints[-1].screen
    checkpoint = Checkpoint(screen, [Primitive(Keyword.ACTIVITY, "1"), Primitive(Keyword.FUZZY, "-1")])
    from mobile_gym.formats.agentenv import read_trace

    first = read_trace(job.trace)[0]  # the launcher: another activity
    result = Matcher(embedder=NoModel()).check(checkpoint, first, exhaustive=True, skip_costly=True)
    assert [r.passed for r in result.results] == [False, False]
    assert result.results[1].detail == NOT_JUDGED
