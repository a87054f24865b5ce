"""Where an evaluation takes each episode's ground truth from: a LlamaTouch dataset on
disk, or the simulator tasks themselves.

`DatasetTruth` reads a dataset folder (``mobile-gym export-dataset`` writes one for the
simulator tasks). `SimulatorTruth` needs no folder: each task's annotation is the one the
env judges by, made on the canonical replay of its golden path — what ``export-dataset``
writes — and the replay's actions go through the ``eventStructs.txt`` spelling
(whole pixels) and back, so the baselines see the actions a dataset would give them.
That is what lets ``mobile-gym evaluate --run DIR`` re-judge a simulator run without
exporting anything (exporting encodes every screenshot as PNG: ten seconds for the 30
tasks, longer than judging a whole run).

Both load an episode once per process and keep it (errors too), since a run judges
many traces of each task.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import FormatError, MobileGymError, UnknownEpisodeError, UnknownTaskError
from mobile_gym.formats.llamatouch import GroundTruthDataset
from mobile_gym.matcher.annotation import Annotation
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.hierarchy import ViewHierarchy


class GroundTruth(Protocol):
    """Annotations by episode id; errors are `MobileGymError`s naming what is wrong."""

    def annotation(self, episode: str) -> Annotation: ...

    def category(self, episode: str) -> str | None: ...

    def episode_of(self, task: str) -> str:
        """The ground-truth episode of a task (id or env id) a run recorded."""
        ...

    def may_need_embeddings(self, episode: str) -> bool:
        """Whether judging the episode may need the embedding model (a cheap guess, made
        before anything is judged: it decides whether to load the model early)."""
        ...


class _Loaded:
    """Annotations (or the error loading one raised) by episode, loaded once."""

    def __init__(self) -> None:
        self._loaded: dict[str, Annotation | MobileGymError] = {}

    def annotation(self, episode: str) -> Annotation:
        got = self._loaded.get(episode)
        if got is None:
            try:
                got = self._load(episode)
            except MobileGymError as exc:
                got = exc
            self._loaded[episode] = got
        if isinstance(got, MobileGymError):
            raise got
        return got

    def _load(self, episode: str) -> Annotation:
        raise NotImplementedError


class DatasetTruth(_Loaded):
    """The episodes of a LlamaTouch ground-truth dataset folder."""

    def __init__(self, dataset: GroundTruthDataset):
        super().__init__()
        self.dataset = dataset

    def __repr__(self) -> str:
        return f"DatasetTruth({self.dataset!r})"

    def _load(self, episode: str) -> Annotation:
        return self.dataset.load(episode)

    def may_need_embeddings(self, episode: str) -> bool:
        try:
            return self.annotation(episode).needs_embeddings
        except MobileGymError:
            return False

    def category(self, episode: str) -> str | None:
        try:
            return self.dataset.category(episode)
        except MobileGymError:
            return None

    def episode_of(self, task: str) -> str:
        """A simulator task's episode as ``export-dataset`` names it (its LlamaTouch
        episode id, else its task id); a LlamaTouch task's episode id."""
        from mobile_gym.tasks.catalogue import llamatouch_catalogue, task_id
        from mobile_gym.tasks.suite import simulator_tasks

        name = task_id(task)
        sim = simulator_tasks().get(name)
        if sim is not None:
            return sim.episode or sim.id
        listed = llamatouch_catalogue().get(name)
        if listed is not None:
            return listed.episode
        raise UnknownTaskError(f"task {task!r} is neither a simulator task nor a LlamaTouch task")


class SimulatorTruth(_Loaded):
    """The simulator tasks' ground truth, made in memory; episodes are task ids."""

    def __repr__(self) -> str:
        return "SimulatorTruth()"

    def _load(self, episode: str) -> Annotation:
        task = self._task(episode)
        annotation = task.annotation
        alternatives = [_as_recorded_route(task, episode, a) for a in annotation.alternatives]
        return _as_recorded_route(task, episode, annotation, alternatives)

    def category(self, episode: str) -> str | None:
        try:
            return self._task(episode).category
        except MobileGymError:
            return None

    def may_need_embeddings(self, episode: str) -> bool:
        """From the task's definition, without replaying its golden path."""
        from mobile_gym.matcher.annotation import Keyword

        try:
            task = self._task(episode)
        except MobileGymError:
            return False
        return any(c.keyword is Keyword.FUZZY
                   for route in task.routes for spec in route.checkpoints for c in spec.checks)

    def episode_of(self, task: str) -> str:
        from mobile_gym.tasks.catalogue import task_id

        name = task_id(task)
        self._task(name)
        return name

    @staticmethod
    def _task(episode: str):
        from mobile_gym.tasks.suite import simulator_tasks

        task = simulator_tasks().get(episode)
        if task is None:
            raise UnknownEpisodeError(
                f"task {episode!r} is no simulator task of this version of mobile_gym, so it has no built-in "
                "ground truth: pass --dataset"
            )
        return task


def _as_recorded_route(task: Any, episode: str, annotation: Annotation,
                       alternatives: list[Annotation] | None = None) -> Annotation:
    """One route's annotation on new states (the task's own replay stays as the env uses
    it) whose actions are as the dataset spells them."""
    gt = annotation.ground_truth
    if gt is None:  # pragma: no cover - a simulator annotation always has its replay
        raise FormatError(task.source, f"task {task.id}: no ground-truth replay")
    states = [
        UIState(xml=s.xml, activity=s.activity, installed_packages=s.installed_packages,
                screen_size=s.screen_size, tree=_parse_of(s),
                action=None if s.action is None else _as_recorded(s.action, s.screen_size, task.id))
        for s in gt.states
    ]
    trace = Trace.from_states(states, episode=episode, instruction=gt.instruction,
                              installed_packages=gt.installed_packages)
    return Annotation(annotation.checkpoints, episode=episode, instruction=annotation.instruction,
                      category=task.category, ground_truth=trace, alternatives=alternatives or [])


def _parse_of(state: UIState) -> Callable[[], ViewHierarchy]:
    """The replay state's own parse, shared (not its screenshot: the baselines read
    boxes and actions only, and the checkpoints keep the replay's states)."""
    return lambda: state.hierarchy


def _as_recorded(action: Action, screen: tuple[int, int], task: str) -> Action:
    """The action as a dataset's ``eventStructs.txt`` gives it back: whole pixels (an
    ENTER, written as the tap on the keyboard's key, is read back as ENTER)."""
    from mobile_gym.errors import InvalidActionError

    if action.action_type is ActionType.ENTER:
        return action
    try:
        return Action.parse_event_line(action.to_event_line(*screen))[0]
    except InvalidActionError as exc:
        raise FormatError(None, f"task {task}: the golden path's {action} has no eventStructs.txt line: {exc}") from exc


__all__ = ["DatasetTruth", "GroundTruth", "SimulatorTruth"]
