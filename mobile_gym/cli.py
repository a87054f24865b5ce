"""The ``mobile-gym`` command line.

``mobile-gym evaluate`` judges recorded AgentEnv traces against a LlamaTouch dataset
with the essential-state matcher and/or the action-matching baselines, prints a table
and writes ``episodes.csv`` and ``summary.json``. ``mobile-gym tasks`` lists the
registered tasks and the backends that can run them; ``run`` runs agents on simulator
tasks, or on phones and emulators (``--backend device``, LlamaTouch's tasks with
``--dataset``); ``play`` on simulator tasks; ``export-dataset`` writes simulator tasks in LlamaTouch's dataset
format; ``demos`` records an agent's episodes in a policy preset's spaces as a Minari
dataset. Importing this module is cheap: the
evaluation code (and torch, only if a fuzzy primitive needs it) loads when a command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from mobile_gym.report_text import printable

#: Evaluator names the CLI accepts (kept here so parsing needs no heavy import;
#: `mobile_gym.evaluation.runner.EVALUATORS` is the authority and is checked at run time).
_EVALUATOR_CHOICES = ("essential", "action", "lcs", "all")


class UsageError(Exception):
    """Inputs that make the command impossible to run (exit code 2)."""


def build_parser() -> argparse.ArgumentParser:
    from mobile_gym.agents import AGENTS
    from mobile_gym.runner.batch import EPISODE_TIMEOUT, EXECUTORS
    from mobile_gym.wrappers.record_trace import TRACE_SCREENSHOTS
    from mobile_gym.simulator.dynamics import DYNAMICS
    from mobile_gym.simulator.profiles import DEFAULT_PROFILE, PROFILES
    from mobile_gym.tasks.definition import BACKENDS

    parser = argparse.ArgumentParser(
        prog="mobile-gym", description="Mobile UI task automation environments and evaluation tools."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    ev = commands.add_parser(
        "evaluate",
        help="judge recorded execution traces (or a `run`'s traces) against their ground truth",
        description=(
            "Judge AgentEnv execution traces (TRACES/<episode>/captured_data) against a LlamaTouch "
            "ground-truth dataset with the essential-state matcher and/or the action-matching "
            "baselines of the LlamaTouch paper; print completion rates (and accuracy against human "
            "labels) and write episodes.csv and summary.json. With --run, re-judge the traces a "
            "`mobile-gym run --save-traces` saved, each against its task's ground truth (--dataset, or "
            "the simulator tasks' own), and print per evaluator and agent the agreement with the "
            "run's online verdict and the simulator's oracle."
        ),
    )
    source = ev.add_mutually_exclusive_group(required=True)
    source.add_argument("--traces", type=Path, metavar="DIR", help="folder of execution traces, one per episode "
                        "(needs --dataset)")
    source.add_argument("--run", type=Path, metavar="DIR", help="output folder of `mobile-gym run --save-traces`")
    ev.add_argument("--dataset", type=Path, metavar="DIR",
                    help="ground-truth dataset folder (with --run, default: the simulator tasks' ground truth, "
                         "as export-dataset would write it)")
    ev.add_argument(
        "--metadata", type=Path, metavar="TSV",
        help="task metadata (default: llamatouch_task_metadata.tsv in --dataset when present)",
    )
    ev.add_argument("--labels", type=Path, metavar="CSV", help="human verdicts: CSV with header episode,human")
    ev.add_argument(
        "--evaluator", action="append", choices=_EVALUATOR_CHOICES, metavar="{essential,action,lcs,all}",
        help="evaluator to run; repeat for several (default: essential; with --run: all)",
    )
    ev.add_argument("--episodes", nargs="+", metavar="EP",
                    help="evaluate only these episodes (with --run: trace folder names, TASK__AGENT__SEED)")
    ev.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: .; with --run: RUN/evaluation)")
    ev.add_argument("--workers", type=_at_least_one, default=1, metavar="K",
                    help="judge in K processes (default: 1); the embedding model loads once, in this one")
    ev.add_argument("--embedding-cache", metavar="DIR|none",
                    help="keep sentence embeddings on disk across runs (default: $XDG_CACHE_HOME/mobile-gym/"
                         "embeddings, i.e. ~/.cache/...; none: do not)")
    ev.add_argument("--text-threshold", type=float, metavar="F", help="fuzzy<n> cosine threshold")
    ev.add_argument("--screen-threshold", type=float, metavar="F", help="fuzzy<-1> cosine threshold")
    ev.add_argument(
        "--embedding-model", metavar="NAME_OR_PATH",
        help="sentence-embedding model: local folder or hub name (default: bundled all-MiniLM-L6-v2)",
    )
    ev.set_defaults(handler=_evaluate)

    ts = commands.add_parser(
        "tasks", help="list the registered tasks",
        description="List the registered tasks: env id, app, golden-path steps, the env's step limit, "
                    "the backends that run it, instruction.",
    )
    ts.add_argument("--backend", choices=BACKENDS, help="only tasks this backend can run")
    ts.add_argument("--app", help="only tasks of this app (case-insensitive, part of the name)")
    ts.add_argument("--category", help="only tasks of this LlamaTouch category")
    ts.add_argument("--markdown", action="store_true", help="print a Markdown table (as in the README)")
    ts.set_defaults(handler=_tasks)

    agent_help = f"{', '.join(AGENTS)}, or module:Class (imported from the current directory too)"
    tasks_help = "task ids, env ids (LlamaTouch/<id>-v0) or fnmatch patterns of either"
    ex = commands.add_parser(
        "export-dataset", help="write the simulator tasks as a LlamaTouch ground-truth dataset",
        description="Replay every simulator task's golden path and write it in LlamaTouch's dataset "
                    "format (screens, dumps, droidbot-style .vh hierarchies, component lists with xpaths "
                    "LlamaTouch's evaluator runs on the raw dump, .ess annotations, eventStructs.txt, "
                    "instruction.txt, .activity) with a llamatouch_task_metadata.tsv. An ENTER is written as "
                    "the click on the keyboard's Enter key followed by '(Enter)', which LlamaTouch's loader "
                    "reads as that click and ours as ENTER.",
    )
    ex.add_argument("out", type=Path, metavar="DIR", help="output folder (must not hold these traces yet)")
    ex.add_argument("--tasks", nargs="+", metavar="PATTERN", help=f"only these: {tasks_help}")
    ex.set_defaults(handler=_export)

    pl = commands.add_parser(
        "play", help="run an agent on simulator tasks and print each episode's verdicts",
        description="Run an agent on simulator tasks (default: all) for a few "
                    "seeds and print, per episode, the matcher's and the oracle's verdicts.",
    )
    pl.add_argument("--agent", default="oracle", metavar="NAME|module:Class", help=f"{agent_help} (default: oracle)")
    pl.add_argument("--tasks", nargs="+", metavar="PATTERN", help=f"{tasks_help} (default: every simulator task)")
    pl.add_argument("--seeds", type=int, default=1, metavar="N", help="episodes per task (seeds 0..N-1)")
    pl.add_argument("--dynamics", choices=list(DYNAMICS), default="default")
    pl.add_argument("--profile", choices=list(PROFILES), default=DEFAULT_PROFILE)
    pl.set_defaults(handler=_play)

    rn = commands.add_parser(
        "run", help="run an agent over many tasks and seeds in parallel, resumably",
        description="Run an agent on simulator tasks matching the patterns, for N seeds each, in K "
                    "worker processes; append one JSON line per finished episode to OUT/episodes.jsonl "
                    "(--resume finishes a killed run without repeating an episode, and reruns the "
                    "episodes that ended in an error). With --backend device, on phones or emulators "
                    "over adb, one worker per --serial; with --dataset, on any of LlamaTouch's tasks.",
    )
    rn.add_argument("--agent", required=True, metavar="NAME|module:Class", help=agent_help)
    rn.add_argument("--tasks", nargs="+", default=["*"], metavar="PATTERN", help=f"{tasks_help} (default: all)")
    rn.add_argument("--backend", choices=BACKENDS, default="sim",
                    help="sim: the simulated phone (default); device: phones or emulators over adb")
    phone = rn.add_argument_group("phones and emulators (--backend device)")
    phone.add_argument("--serial", action="append", metavar="S",
                       help="a phone's adb serial; repeat for several, each driven by its own worker "
                            "(default: the only phone adb sees)")
    phone.add_argument("--dataset", type=Path, metavar="DIR",
                       help="LlamaTouch's ground-truth dataset (format A): any of its 495 tasks runs, judged by "
                            "its annotation (default: only the simulator's tasks, by their own)")
    phone.add_argument("--snapshot", metavar="NAME",
                       help="an emulator snapshot loaded at every reset (adb emu avd snapshot load NAME); "
                            "'{task}' in it stands for the task's id: one snapshot per task")
    phone.add_argument("--adb-host", default="127.0.0.1", metavar="HOST", help="the adb server's host")
    phone.add_argument("--adb-port", type=int, metavar="PORT",
                       help="the adb server's port (default: ANDROID_ADB_SERVER_PORT or 5037)")
    phone.add_argument("--console-port", type=int, metavar="PORT",
                       help="the emulator console's port, for --snapshot (default: the serial's, "
                            "emulator-5554 -> 5554); with one --serial")
    rn.add_argument("--seeds", type=_at_least_one, default=1, metavar="N")
    rn.add_argument("--workers", type=_at_least_one, default=1, metavar="K",
                    help="episodes at a time (default: 1)")
    rn.add_argument("--executor", choices=EXECUTORS, default="process",
                    help="process: worker processes on this machine (default); ray: tasks on a Ray cluster "
                         "(pip install 'mobile-gym[ray]'), phones as actors on the nodes that declare them")
    rn.add_argument("--address", metavar="ADDR",
                    help="with --executor ray: the cluster, 'auto' (started here by ray start) or ray://HOST:10001 "
                         "(default: RAY_ADDRESS, else the cluster ray start runs here, else a Ray started for this run)")
    rn.add_argument("--episode-timeout", type=_seconds, default=EPISODE_TIMEOUT, metavar="SECONDS",
                    help=f"an episode still running after this long is killed and recorded as an EpisodeTimeout "
                         f"error (default: {EPISODE_TIMEOUT:g}; 0 or none: no limit)")
    rn.add_argument("--out", type=Path, default=Path("runs/latest"), metavar="DIR")
    rn.add_argument("--actions", choices=("basic", "all"), default="basic",
                    help="the env's action set: basic, LlamaTouch's eight (default); all adds AndroidWorld's long "
                         "press, double tap, open app, wait and answer, and the loading screens wait is for")
    rn.add_argument("--dynamics", choices=list(DYNAMICS), help="the simulated phone's (default: default)")
    rn.add_argument("--profile", choices=list(PROFILES), help=f"the simulated phone's (default: {DEFAULT_PROFILE})")
    rn.add_argument("--save-traces", action="store_true",
                    help="write each episode as an AgentEnv trace in OUT/traces: screenshots, uiautomator dumps, "
                         "activities, actions, installed apps, and each screen's droidbot JSON hierarchy "
                         "(vh/i.vh as AgentEnv writes it, view_hierarchy/i.json as LlamaTouch's evaluator reads it)")
    rn.add_argument("--trace-screenshots", choices=TRACE_SCREENSHOTS, default="device",
                    help="with --save-traces: screenshots at the device's resolution (default; as AgentEnv's, "
                         "which LlamaTouch's evaluator needs to place taps) or at the observation size (a quarter "
                         "each way: lighter, enough for report.html)")
    rn.add_argument("--resume", action="store_true",
                    help="finish the run recorded in OUT, running again the episodes that ended in an error")
    rn.add_argument("--keep-errors", action="store_true",
                    help="with --resume, keep the episodes that ended in an error instead of rerunning them")
    rn.add_argument("--no-terminate-on-success", action="store_true",
                    help="let agents act after success (measures whether they know when to stop)")
    llm = rn.add_argument_group("LLM agents (--agent llm or autodroid)")
    llm.add_argument("--model", help="the model's name at the endpoint")
    llm.add_argument("--base-url", metavar="URL", help="an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 "
                     "(vLLM, Ollama, LM Studio); default: OpenAI")
    llm.add_argument("--api-key-env", metavar="VAR", help="the environment variable holding the key "
                     "(default: OPENAI_API_KEY; local servers take any)")
    llm.add_argument("--mode", choices=("text", "tools"), help="the reply as text in the action grammar (default), "
                     "or tool calls")
    llm.add_argument("--vision", action="store_true", default=None, help="send the screenshot too")
    llm.add_argument("--coordinates", choices=("device", "screenshot", "fraction", "permille"),
                     help="the frame of points the model names (tap(540, 1200), {\"x\": .., \"y\": ..}, ...): "
                          "pixels of the device or of the screenshot sent, fractions, or a 0-1000 grid "
                          "(default: screenshot with --vision, else device)")
    llm.add_argument("--max-tokens", type=_at_least_one, metavar="N", help="of each reply (default: 512)")
    llm.add_argument("--temperature", type=float, metavar="T", help="(default: 0)")
    llm.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                     help="per attempt of a call; a call ends within TIMEOUT x (RETRIES + 1) (default: 60)")
    llm.add_argument("--retries", type=int, metavar="N", help="after 408, 409, 429, 5xx and timeouts (default: 3)")
    llm.add_argument("--price", nargs=2, type=float, metavar=("IN", "OUT"),
                     help="US dollars per million tokens in and out for --model (default: a table of known models; "
                          "others' cost is unknown)")
    rn.set_defaults(handler=_run)

    xp = commands.add_parser(
        "explore", help="search a simulator task's routes to success, and failing ones",
        description="Search the simulated phone's states from the task's reset state (as reset(seed=SEED) "
                    "leaves it) over element-level moves (a tap on each element, scrolls, BACK, HOME, ENTER, "
                    "typing the task's texts and spans of its instruction), outwards from the golden route, for "
                    "routes of at most the golden length plus --margin moves; print a sample of the distinct "
                    "routes the task's oracle calls a success and of failing ones. With --check, judge every "
                    "route with the task's annotation as the env would, and print its recall and precision.",
    )
    xp.add_argument("task", metavar="TASK", help="a simulator task id or env id")
    _exploration_arguments(xp)
    xp.add_argument("--check", action="store_true", help="judge every route with the task's annotation")
    xp.add_argument("--out", type=Path, metavar="FILE", help="write the exploration as JSON")
    xp.set_defaults(handler=_explore)

    an = commands.add_parser(
        "annotate", help="suggest a simulator task's essential states from its explored routes",
        description="With --suggest: explore the task's routes (as `explore` does), then propose checkpoints "
                    "(activity, exact, exclude, check_install / check_uninstall; click, type and fuzzy only when "
                    "those are not enough) that hold on every successful route, in order, and on no failing one, "
                    "and print them as a task file's checkpoints: block (at: indices into the golden path, "
                    "selectors) with the recall and precision that block's annotation measures on the same "
                    "routes. Everything else is printed as YAML comments.",
    )
    an.add_argument("task", metavar="TASK", help="a simulator task id or env id")
    an.add_argument("--suggest", action="store_true", help="suggest checkpoints from the explored routes")
    _exploration_arguments(an)
    an.add_argument("--max-checkpoints", type=_at_least_one, default=3, metavar="N",
                    help="checkpoints at most (default: 3)")
    an.add_argument("--max-checks", type=_at_least_one, default=6, metavar="N",
                    help="primitives per checkpoint at most (default: 6)")
    an.add_argument("--compare", action="store_true",
                    help="also judge the task's own annotation on the same routes")
    an.set_defaults(handler=_annotate)

    from mobile_gym.policy_envs import PRESETS

    dm = commands.add_parser(
        "demos", help="record an agent's episodes as a Minari dataset in a policy preset's spaces",
        description="Record N episodes (seeds S..S+N-1) of an agent (default: the oracle) on each simulator "
                    "task matching the patterns, in the policy preset's observation and action spaces, as the "
                    "Minari dataset OUT/DATASET_ID: load it with MINARI_DATASETS_PATH=OUT and "
                    "minari.load_dataset(DATASET_ID). An episode with an action no slot of the preset does "
                    "(text outside --phrases, a tap on no element) is skipped and reported.",
    )
    dm.add_argument("--tasks", nargs="+", required=True, metavar="PATTERN", help=tasks_help)
    dm.add_argument("--episodes", type=_at_least_one, required=True, metavar="N", help="episodes per task")
    dm.add_argument("--out", type=Path, required=True, metavar="DIR", help="Minari datasets folder to write into")
    dm.add_argument("--preset", choices=PRESETS, default="elements", help="policy preset (default: elements)")
    dm.add_argument("--agent", default="oracle", metavar="NAME|module:Class", help=f"{agent_help} (default: oracle)")
    dm.add_argument("--seed", type=int, default=0, metavar="S", help="first episode seed (default: 0)")
    dm.add_argument("--profile", choices=list(PROFILES), help=f"device profile (default: {DEFAULT_PROFILE})")
    dm.add_argument("--dynamics", choices=list(DYNAMICS), help="simulator dynamics (default: default)")
    dm.add_argument("--phrases", nargs="+", metavar="TEXT",
                    help="the texts the elements preset can type (default: spans of each task's instruction)")
    dm.add_argument("--dataset-id", metavar="NAME",
                    help="Minari dataset id, (namespace/)name-v<version> (default: mobile-gym/<agent>-<preset>-v0)")
    dm.set_defaults(handler=_demos)

    fk = commands.add_parser(
        "fake-device", help="serve simulated phones to adb clients (adbutils, uiautomator2, adb) on loopback",
        description="Run a fake adb server on 127.0.0.1 whose phones are simulators, until Ctrl-C: the real "
                    "adbutils, uiautomator2 and adb command line drive them as phones (shell, push/pull, "
                    "screenshots, the uiautomator2 server on device port 9008).",
    )
    fk.add_argument("--port", type=int, default=0, metavar="P", help="adb server port (default: a free one)")
    fk.add_argument("--serial", nargs="+", action="extend", metavar="S",
                    help="phone serials, one simulator each (default: emulator-5554); as an emulator's, an "
                         "emulator-PORT phone's console (snapshots) listens on 127.0.0.1:PORT")
    fk.add_argument("--profile", choices=list(PROFILES), default=DEFAULT_PROFILE)
    fk.add_argument("--seed", type=int, default=0, metavar="S", help="simulator seed (default: 0)")
    fk.set_defaults(handler=_fake_device)
    return parser


def _fake_device(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C (exit 0); 2 if a port cannot be had. Each phone's emulator
    console listens where an emulator's does, on its serial's port (emulator-5554: 5554),
    so that snapshots load without naming the port; another serial's, on a free port."""
    import threading

    from mobile_gym.devices.emulator_console import console_port
    from mobile_gym.devices.fake import FakePhoneServer
    from mobile_gym.errors import MobileGymError

    serials = list(dict.fromkeys(args.serial or ["emulator-5554"]))
    try:
        server = FakePhoneServer(port=args.port, serials=serials, profile=args.profile, seed=args.seed)
    except MobileGymError as exc:
        raise UsageError(str(exc)) from exc
    with server:
        try:
            consoles = {serial: server.console_port(serial, port=console_port(serial) or 0) for serial in serials}
        except MobileGymError as exc:
            raise UsageError(f"{exc} (an emulator running? give the fake phone another emulator-PORT serial)") \
                from exc
        print(f"fake adb server on 127.0.0.1:{server.port}, phones: {' '.join(serials)}")
        print(f"  adb:          ANDROID_ADB_SERVER_PORT={server.port} adb -s {serials[0]} shell")
        print(f"  adbutils:     adbutils.AdbClient(port={server.port}).device({serials[0]!r})")
        print(f"  uiautomator2: ANDROID_ADB_SERVER_PORT={server.port} before importing it, then "
              f"u2.connect({serials[0]!r})")
        print(f"  mobile-gym:   mobile-gym run --backend device --adb-port {server.port} --serial {serials[0]} "
              "--agent random --tasks 'settings-*'")
        for serial, port in consoles.items():
            named = "" if console_port(serial) == port else f" (run ... --console-port {port})"
            print(f"  {serial}'s emulator console (avd snapshot save/load): 127.0.0.1:{port}{named}")
        print("Ctrl-C stops it.", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def _seconds(text: str) -> float | None:
    """``--episode-timeout``: seconds, or ``0`` / ``none`` for no limit (None)."""
    if text.strip().lower() in ("0", "none"):
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds (a number >= 0) or none, got {text!r}")
    return value or None


def _chosen_simulator_tasks(patterns: Sequence[str] | None) -> list:
    """The simulator tasks ``--tasks`` names (all when none), in the order named: task ids,
    env ids (``LlamaTouch/<id>-v0``) or fnmatch patterns of either. A name that matches
    nothing is a usage error that suggests the closest names."""
    from mobile_gym.errors import UnknownTaskError
    from mobile_gym.tasks.suite import select_simulator_tasks

    try:
        return select_simulator_tasks(patterns)
    except UnknownTaskError as exc:
        raise UsageError(str(exc)) from None


def _export(args: argparse.Namespace) -> int:
    from mobile_gym.errors import MobileGymError
    from mobile_gym.tasks.export import export_dataset

    chosen = _chosen_simulator_tasks(args.tasks)
    try:
        rows = export_dataset(args.out, chosen)
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {len(rows)} task(s) to {args.out}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from textwrap import shorten

    from mobile_gym.errors import MobileGymError
    from mobile_gym.runner import check_agent, run_episode

    def verdict(ok: bool) -> str:
        return "success" if ok else "fail"

    tasks = _chosen_simulator_tasks(args.tasks)
    try:
        check_agent(args.agent, tasks[0], 0)
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None
    records = []
    for task in tasks:
        for seed in range(args.seeds):
            r = run_episode(task, args.agent, seed, env_kwargs={"dynamics": args.dynamics, "profile": args.profile})
            records.append(r)
            if r["error"] is not None:
                error = printable(f"{r['error']['kind']}: {shorten(r['error']['message'], 300)}")
                print(f"{task.env_id:<48} seed {seed:<3} error {error}")
                continue
            print(f"{task.env_id:<48} seed {seed:<3} steps {r['steps']:>3}  matcher {verdict(r['success']):<7}  "
                  f"oracle {verdict(r['oracle_success']):<7}  progress {r['progress']:.2f}")
    ok = [r for r in records if r["error"] is None]
    print(f"{args.agent} agent: {sum(r['success'] for r in ok)}/{len(records)} episodes succeeded; "
          f"matcher and oracle agree on {sum(r['success'] == r['oracle_success'] for r in ok)}/{len(records)}")
    return _report_errors(records)


#: ``run`` options passed to the agent's constructor when given (an LLM agent's `LLMConfig` fields).
LLM_OPTIONS = ("model", "base_url", "api_key_env", "mode", "vision", "coordinates", "max_tokens", "temperature",
               "timeout", "retries")


def _run(args: argparse.Namespace) -> int:
    """Exit codes: 0 done; 1 every episode errored, or results could not be written
    (disk full: free space, then --resume); 2 bad arguments or agent; 130 Ctrl-C."""
    from mobile_gym.errors import MobileGymError, StorageError
    from mobile_gym.runner import Job, run_batch
    from mobile_gym.runner.batch import progress_printer
    from mobile_gym.progress import ProgressLine
    from mobile_gym.runner.metrics import markdown_table, write_reports

    args.out = Path(os.path.abspath(args.out))  # the reports go there even if the agent changes directory
    env_kwargs, devices = _run_backend(args)
    tasks = _chosen_run_tasks(args)
    _check_snapshot(args.snapshot, tasks)
    jobs = [Job(t.id, args.agent, seed) for t in tasks for seed in range(args.seeds)]
    options = {name: getattr(args, name) for name in LLM_OPTIONS if getattr(args, name) is not None}
    if args.price is not None:
        from mobile_gym.agents import LLMConfig

        options["prices"] = {args.model or LLMConfig.model: tuple(args.price)}
    try:
        records = run_batch(jobs, args.out, workers=args.workers, resume=args.resume, agent_options=options,
                            retry_errors=not args.keep_errors, env_kwargs=env_kwargs, devices=devices,
                            save_traces=args.save_traces, trace_screenshots=args.trace_screenshots,
                            episode_timeout=args.episode_timeout, progress=progress_printer(),
                            executor=args.executor, address=args.address)
        summary = write_reports(args.out, records, dataset=args.dataset,
                                progress=ProgressLine("report.html: episodes").update)
    except KeyboardInterrupt:
        print("\ninterrupted: finished episodes are kept; --resume continues", file=sys.stderr)
        return 130
    except (StorageError, OSError) as exc:  # OSError: the reports, written after every episode is recorded
        print(f"\nmobile-gym run: stopped, {printable(exc)}; the episodes recorded so far are kept: "
              "make room, then run again with --resume", file=sys.stderr)
        return 1
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None
    print(markdown_table(summary, "agent"))
    code = _report_errors(records)
    print(f"\nresults in {printable(args.out)}: episodes.jsonl, episodes.csv, summary.json, *.png, report.html")
    return code


def _run_backend(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """The envs' keyword arguments for ``run``, and on phones one entry per worker."""
    from mobile_gym.simulator.profiles import DEFAULT_PROFILE

    env_kwargs: dict[str, Any] = {"terminate_on_success": not args.no_terminate_on_success}
    if args.actions != "basic":
        env_kwargs["actions"] = args.actions
    phone = {"--serial": args.serial, "--dataset": args.dataset, "--snapshot": args.snapshot,
             "--adb-port": args.adb_port, "--adb-host": None if args.adb_host == "127.0.0.1" else args.adb_host,
             "--console-port": args.console_port}
    if args.backend == "sim":
        given = [flag for flag, value in phone.items() if value is not None]
        if given:
            raise UsageError(f"{', '.join(given)} go with --backend device")
        env_kwargs.update(dynamics=args.dynamics or "default", profile=args.profile or DEFAULT_PROFILE)
        return env_kwargs, None
    if args.dynamics is not None or args.profile is not None:
        raise UsageError("--dynamics and --profile describe the simulated phone; a real one is what it is")
    if args.dataset is not None and not args.dataset.is_dir():
        raise UsageError(f"dataset folder {args.dataset} does not exist")
    env_kwargs.update(backend="device", adb_host=args.adb_host, adb_port=args.adb_port,
                      dataset=None if args.dataset is None else str(args.dataset.resolve()), snapshot=args.snapshot)
    serials = list(dict.fromkeys(args.serial or []))
    if args.console_port is not None:
        if len(serials) != 1:
            raise UsageError("--console-port is one emulator's: give exactly one --serial")
        env_kwargs["console_port"] = args.console_port
    if args.workers != 1 and args.workers != max(1, len(serials)):
        raise UsageError("on phones there is one worker per --serial: leave out --workers")
    return env_kwargs, [{"serial": s} for s in serials] or [{"serial": None}]


def _check_snapshot(snapshot: str | None, tasks: list) -> None:
    """One snapshot for every task cannot hold the start states of tasks that need their
    own (`mobile_gym.env.held_setup`): those need ``--snapshot '{task}'``, or a run of their own."""
    from mobile_gym.env import held_setup, snapshot_name
    from mobile_gym.errors import MobileGymError

    try:
        for task in tasks:
            snapshot_name(snapshot, task)
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None
    own = [t.id for t in tasks if held_setup(t)]
    if snapshot is not None and "{task}" not in snapshot and own and len(tasks) > 1:
        raise UsageError(f"{', '.join(own)} start from states of their own that adb cannot set up: one snapshot "
                         f"({snapshot}) cannot hold every task's; save one per task, named by its id, and give "
                         "--snapshot '{task}' (or run such a task alone)")


def _chosen_run_tasks(args: argparse.Namespace) -> list:
    """``--tasks`` among the simulator's tasks, or (with ``--dataset``) among LlamaTouch's
    tasks the dataset holds."""
    if args.dataset is None:
        return _chosen_simulator_tasks(args.tasks)
    from mobile_gym.errors import MobileGymError, UnknownTaskError
    from mobile_gym.tasks.catalogue import llamatouch_catalogue
    from mobile_gym.tasks.dataset import open_dataset
    from mobile_gym.tasks.suite import select_tasks

    try:
        held = set(open_dataset(args.dataset.resolve()).episodes())
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None
    tasks = {t.id: t for t in llamatouch_catalogue().values() if t.episode in held}
    try:
        return select_tasks(args.tasks, tasks, "LlamaTouch task",
                            f"the dataset at {args.dataset} holds {len(tasks)} of them")
    except UnknownTaskError as exc:
        raise UsageError(str(exc)) from None


def _demos(args: argparse.Namespace) -> int:
    """Exit codes: 0 episodes written; 1 none could be expressed in the preset (the
    dataset is written, empty, with the reasons in its metadata) or the dataset could
    not be written; 2 bad arguments or agent."""
    from collections import Counter

    from mobile_gym.demos import TaskSummary, record_demos
    from mobile_gym.errors import MobileGymError

    tasks = [t.id for t in _chosen_simulator_tasks(args.tasks)]
    if args.phrases is not None and args.preset != "elements":
        raise UsageError(f"--phrases is for the elements preset: the {args.preset} preset does not type")
    if args.seed < 0:
        raise UsageError(f"--seed must be at least 0, got {args.seed}")
    phrases = {"DiscreteElementActions": {"phrases": args.phrases}} if args.phrases is not None else {}

    def report(s: TaskSummary) -> None:
        print(f"{s.task:<40} episodes {s.episodes:>3}  steps {s.steps:>5}  success {s.successes}/{s.episodes}  "
              f"skipped {len(s.skipped)}")
        for reason, n in Counter(skip["reason"] for skip in s.skipped).items():
            print(printable(f"  skipped {n}: {reason}"))

    try:
        dataset = record_demos(tasks, args.episodes, args.out, dataset_id=args.dataset_id, preset=args.preset,
                               agent=args.agent, seed=args.seed, profile=args.profile, dynamics=args.dynamics,
                               wrapper_kwargs=phrases, on_task=report)
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        print(f"mobile-gym demos: cannot write the dataset: {printable(exc)}", file=sys.stderr)
        return 1
    name = dataset.id
    skipped = len(dataset.storage.metadata["skipped"])
    print(f"\n{dataset.total_episodes} episode(s), {dataset.total_steps} steps, {skipped} skipped: "
          f"{printable(args.out / name)}\nload with MINARI_DATASETS_PATH={printable(args.out)} and "
          f"minari.load_dataset({name!r})")
    if dataset.total_episodes == 0:
        print(f"no episode could be expressed in the {args.preset} preset's actions", file=sys.stderr)
        return 1
    return 0


def _exploration_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a route exploration (`mobile_gym.authoring.explorer.ExploreConfig`)."""
    from mobile_gym.authoring.explorer import ExploreConfig
    from mobile_gym.simulator.dynamics import DYNAMICS
    from mobile_gym.simulator.profiles import DEFAULT_PROFILE, PROFILES

    d = ExploreConfig()
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="reset seed (default: 0)")
    parser.add_argument("--profile", choices=list(PROFILES), default=DEFAULT_PROFILE)
    parser.add_argument("--dynamics", choices=list(DYNAMICS), default="default")
    parser.add_argument("--margin", type=_whole, default=d.margin, metavar="N",
                        help=f"moves a route may take beyond the golden route (default: {d.margin})")
    parser.add_argument("--max-states", type=_at_least_one, default=d.max_states, metavar="N",
                        help=f"states expanded at most (default: {d.max_states})")
    parser.add_argument("--time-budget", type=_positive_seconds, default=d.time_budget, metavar="SECONDS",
                        help=f"search time at most (default: {d.time_budget:g})")
    parser.add_argument("--routes", type=_whole, default=d.max_routes, metavar="N",
                        help=f"successful routes kept, a seeded sample when more (default: {d.max_routes})")
    parser.add_argument("--failures", type=_whole, default=d.max_failures, metavar="N",
                        help=f"failing routes kept (default: {d.max_failures})")


def _exploration(args: argparse.Namespace):
    from mobile_gym.authoring.explorer import ExploreConfig, explore
    from mobile_gym.errors import MobileGymError

    task = _chosen_simulator_tasks([args.task])
    if len(task) != 1:
        raise UsageError(f"{args.task!r} names {len(task)} tasks; name one")
    config = ExploreConfig(margin=args.margin, max_states=args.max_states, time_budget=args.time_budget,
                           max_routes=args.routes, max_failures=args.failures)
    try:
        return explore(task[0], seed=args.seed, profile=args.profile, dynamics=args.dynamics, config=config)
    except MobileGymError as exc:
        raise UsageError(str(exc)) from None


def _explore(args: argparse.Namespace) -> int:
    import json

    found = _exploration(args)
    cut = "" if found.exhausted else " (budget reached: not every state within reach was expanded)"
    print(f"{found.task} seed {found.seed} {found.profile} dynamics {found.dynamics}: golden route "
          f"{len(found.golden)} moves, routes up to {found.depth}; {found.states} states, {found.expanded} expanded, "
          f"{found.transitions} moves tried in {found.seconds:.1f} s{cut}")
    total = f"{found.routes_found}" if found.routes_exact else f"more than {found.routes_found}"
    print(f"{total} distinct successful routes found; showing {len(found.successes)}, and {len(found.failures)} "
          "failing routes")
    verdicts = None
    if args.check:
        from mobile_gym.authoring.validate import judge_routes, score

        verdicts = {id(v.route): v for v in judge_routes(found)}
        s = score(list(verdicts.values()))
        print(f"the task's annotation credits {s.credited}/{s.successes} successful routes "
              f"({s.early} before their last move) and {s.false_credits}/{s.failures} failing ones: "
              f"recall {_percent(s.recall)}, precision {_percent(s.precision)}")

    def show(title: str, routes: list) -> None:
        print(f"\n{title}:")
        for n, route in enumerate(routes, 1):
            mark = ""
            if verdicts is not None:
                v = verdicts[id(route)]
                mark = "  [credited]" if v.credited_at is not None else "  [not credited]"
                if v.route.success and v.credited_at is not None and v.credited_at < len(route):
                    mark = f"  [credited early, after move {v.credited_at}]"
            print(printable(f"{n:>3}. " + " | ".join(route.steps) + mark))

    show("successful routes", found.successes)
    show("failing routes", found.failures)
    if args.out is not None:
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(found.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:
            print(f"mobile-gym explore: cannot write {printable(args.out)}: {printable(exc)}", file=sys.stderr)
            return 1
        print(f"\nwrote {printable(args.out)}")
    return 0


def _annotate(args: argparse.Namespace) -> int:
    """Print a suggested ``checkpoints:`` block; everything else is a YAML comment, so the
    output pastes into a task file as it is."""
    from mobile_gym.authoring.suggest import SuggestConfig, suggest_annotation
    from mobile_gym.errors import MobileGymError

    if not args.suggest:
        raise UsageError("say what to do: --suggest (suggest checkpoints from the explored routes)")
    found = _exploration(args)
    try:
        suggestion = suggest_annotation(found, suggest=SuggestConfig(args.max_checkpoints, args.max_checks))
    except MobileGymError as exc:
        print(f"mobile-gym annotate: {printable(exc)}", file=sys.stderr)
        return 1
    cut = "" if found.exhausted else "; budget reached"
    print(f"# {found.task}: {found.states} states, {len(found.successes)} successful and {len(found.failures)} "
          f"failing routes in {found.seconds:.1f} s{cut}")
    if args.compare:
        from mobile_gym.authoring.validate import judge_routes, score

        own = score(judge_routes(found))
        print(f"# the task's own annotation: recall {_percent(own.recall)}, precision {_percent(own.precision)}")
    print(printable(suggestion.yaml), end="")
    wrong = [v for v in suggestion.verdicts if not v.right]
    if wrong:
        print("# routes the suggestion judges wrong:")
        for v in wrong:
            kind = "successful" if v.route.success else "failing"
            verdict = "not credited" if v.credited_at is None else f"credited after move {v.credited_at}"
            print(printable(f"#   {kind}, {verdict}: " + " | ".join(v.route.steps)))
    return 0


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _whole(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number (0 or more), got {text!r}")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds (a number > 0), got {text!r}")
    return value


def _report_errors(records: list[dict]) -> int:
    """Print how many episodes ended in each kind of error, with the first message of each,
    and return the exit code: 1 when every episode errored (nothing was measured), else 0."""
    from textwrap import shorten

    from mobile_gym.runner.metrics import error_kinds

    kinds = error_kinds(records)
    if not kinds:
        return 0
    first: dict[str, str] = {}
    for r in records:
        if r["error"] is not None:
            first.setdefault(r["error"]["kind"], str(r["error"]["message"]))
    errors = sum(kinds.values())
    print(f"\n{errors} of {len(records)} episode(s) ended in an error:")
    for kind, n in kinds.items():
        print(printable(f"  {n} x {kind}: {shorten(first[kind], 160)}"))
    if errors < len(records):
        return 0
    print("every episode ended in an error", file=sys.stderr)
    return 1


def _tasks(args: argparse.Namespace) -> int:
    from mobile_gym.tasks.table import markdown_table, task_rows

    rows = [r for r in task_rows()
            if (args.backend is None or args.backend in r["backends"].split(","))
            and (args.app is None or args.app.lower() in r["app"].lower())
            and (args.category is None or args.category == r["category"])]
    if args.markdown:
        print(markdown_table(rows))
    else:
        columns, numbers = ("id", "app", "steps", "limit", "backends"), ("steps", "limit")
        widths = {c: max([len(c), *(len(r[c]) for r in rows)]) for c in columns}
        for r in [{c: c for c in (*columns, "instruction")}, *rows]:  # the header, then the rows
            cells = [r[c].rjust(widths[c]) if c in numbers else r[c].ljust(widths[c]) for c in columns]
            print("  ".join([*cells, r["instruction"]]))
    print(f"{len(rows)} task(s)", file=sys.stderr)
    return 0


#: Exit codes of a command stopped from outside: Ctrl-C (128 + SIGINT), and a reader that
#: went away (``mobile-gym tasks | head``: 128 + SIGPIPE, what the shell reports of Unix tools).
INTERRUPTED, BROKEN_PIPE = 130, 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; Ctrl-C at any point (its imports included: a model or Ray can take
    seconds to load) and a closed stdout end it quietly with `INTERRUPTED` or `BROKEN_PIPE`."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        handler = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return 2
        try:
            code = handler(args)
        except UsageError as exc:
            print(f"mobile-gym {args.command}: {exc}", file=sys.stderr)
            return 2
        sys.stdout.flush()  # a closed pipe shows here rather than at exit, where it cannot be caught
        return code
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at /dev/null so that flush succeeds
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE


def _evaluate(args: argparse.Namespace) -> int:
    """Exit codes: 0 judged (error rows included); 1 results could not be written;
    2 unusable inputs (a missing folder, a folder that is no run, bad labels)."""
    from mobile_gym.errors import FormatError, MobileGymError
    from mobile_gym.evaluation.report import (
        format_run_table,
        format_table,
        read_labels,
        summarize,
        summarize_run,
        write_episodes_csv,
        write_summary_json,
    )
    from mobile_gym.evaluation.runner import EVALUATORS, evaluate_dataset
    from mobile_gym.formats.llamatouch import GroundTruthDataset
    from mobile_gym.matcher.embeddings import default_cache_dir
    from mobile_gym.matcher.primitives import MatcherConfig
    from mobile_gym.progress import ProgressLine

    run = args.run
    chosen = args.evaluator or (["all"] if run is not None else ["essential"])
    evaluators = list(EVALUATORS) if "all" in chosen else list(dict.fromkeys(chosen))

    if run is None and args.dataset is None:
        raise UsageError("--traces needs --dataset (the ground truth to judge the traces against)")
    if run is not None and not run.is_dir():
        raise UsageError(f"run folder {run} does not exist")
    if args.dataset is not None and not args.dataset.is_dir():
        raise UsageError(f"dataset folder {args.dataset} does not exist")
    if args.traces is not None and not args.traces.is_dir():
        raise UsageError(f"traces folder {args.traces} does not exist")
    if args.metadata is not None and args.dataset is None:
        raise UsageError("--metadata describes a --dataset; give one")
    if args.metadata is not None and not args.metadata.exists():
        raise UsageError(f"metadata file {args.metadata} does not exist")
    out = args.out if args.out is not None else (run / "evaluation" if run is not None else Path("."))
    if run is not None and out.resolve() == run.resolve():
        raise UsageError(f"--out {out} is the run folder: its episodes.csv and summary.json are the run's own")
    cache = args.embedding_cache
    cache_dir = None if cache is not None and cache.strip().lower() == "none" else Path(cache or default_cache_dir())
    try:
        dataset = GroundTruthDataset(args.dataset, metadata=args.metadata) if args.dataset is not None else None
        labels = read_labels(args.labels) if args.labels is not None else None
        known = dataset.episodes() if dataset is not None else None  # reads the index now: a broken one stops here
        if run is not None:
            from mobile_gym.evaluation.run import check_run

            check_run(run)  # a folder that is no run with traces stops here
    except MobileGymError as exc:
        raise UsageError(str(exc)) from exc
    if run is None and not known and args.episodes is None:
        raise UsageError(f"the dataset at {args.dataset} has no episodes")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create output folder {out} ({exc.strerror or exc})") from exc

    overrides = {
        name: value
        for name, value in (
            ("text_threshold", args.text_threshold),
            ("screen_threshold", args.screen_threshold),
            ("embedding_model", args.embedding_model),
        )
        if value is not None
    }
    config = MatcherConfig(**overrides)
    line = ProgressLine("traces")

    def progress(done: int, total: int, rows: list) -> None:
        verdicts = " ".join(f"{r.evaluator}={'error' if r.error else 'ok' if r.success else 'fail'}" for r in rows)
        line.update(done, total, f"{rows[0].episode if rows else ''} {verdicts}")

    options = dict(evaluators=evaluators, episodes=args.episodes, config=config, workers=args.workers,
                   embedding_cache=cache_dir, progress_callback=progress)
    try:
        if run is not None:
            from mobile_gym.evaluation.run import evaluate_run

            results = evaluate_run(run, dataset=dataset, **options)
        else:
            results = evaluate_dataset(dataset, args.traces, **options)
    except FormatError as exc:
        raise UsageError(str(exc)) from exc
    except MobileGymError as exc:  # a worker process died
        print(f"mobile-gym evaluate: {printable(exc)}", file=sys.stderr)
        return 1
    summary = summarize_run(results, labels) if run is not None else summarize(results, labels)
    episodes_csv, summary_json = out / "episodes.csv", out / "summary.json"
    try:
        write_episodes_csv(episodes_csv, results)
        write_summary_json(summary_json, summary)
    except OSError as exc:
        print(f"mobile-gym evaluate: cannot write results to {out} ({exc})", file=sys.stderr)
        return 1
    print(format_run_table(summary) if run is not None else format_table(summary))
    if run is not None and labels is not None:
        print("\n" + format_table(summary))
    print(f"\nwrote {episodes_csv} and {summary_json}")
    return 0


__all__ = ["build_parser", "main"]
