"""The batch runner: many episodes of an agent over many tasks, in parallel worker
processes that outlive hung and crashing episodes, appended to an ``episodes.jsonl``
that survives being killed at any moment (``--resume``)."""

from mobile_gym.runner.batch import Job, run_batch
from mobile_gym.runner.episode import check_agent, load_agent, run_episode

__all__ = ["Job", "check_agent", "load_agent", "run_batch", "run_episode"]
