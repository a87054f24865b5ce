"""The one exception hierarchy of mobile_gym.

Every error the library raises on bad input is a `MobileGymError`; callers that want
to keep a batch going catch that and nothing broader.
"""

from __future__ import annotations

import numbers
from pathlib import Path
from typing import Any


class MobileGymError(Exception):
    """Base class of every error raised by mobile_gym."""


class ConfigError(MobileGymError, ValueError):
    """An argument of an env, device or command has a value it cannot use; the message
    names the argument and what it accepts."""


def whole_number(name: str, value: Any, low: int = 0, high: int | None = None) -> int:
    """``value`` as an ``int`` when it is a whole number (Python's or numpy's, not a bool)
    from ``low`` to ``high``; else a `ConfigError` naming the argument ``name``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and low <= value \
            and (high is None or value <= high):
        return int(value)
    wanted = (f"an integer from {low} to {high}" if high is not None else "a positive integer" if low == 1
              else "a non-negative integer" if low == 0 else f"an integer from {low} up")
    raise ConfigError(f"{name} must be {wanted}; got {value!r}")


class ResetNeededError(MobileGymError, RuntimeError):
    """``step`` was called before ``reset`` or after the episode ended."""


class InvalidActionError(MobileGymError, ValueError):
    """An action is malformed: unknown type, bad coordinates, text too long, ..."""


class AppNotInstalledError(InvalidActionError):
    """An OPEN_APP names an app the device does not have; the message names the
    installed apps whose names come nearest."""


class ViewHierarchyError(MobileGymError, ValueError):
    """A uiautomator dump cannot be parsed even in recovery mode."""


class FormatError(MobileGymError, ValueError):
    """A file on disk (trace, dataset, annotation, metadata) is missing or corrupt.

    The message names the file and says what is wrong with it.
    """

    def __init__(self, path: str | Path | None, problem: str):
        self.path = None if path is None else Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}" if path is not None else problem)


class AnnotationError(FormatError):
    """An essential-state annotation (.ess) is malformed or refers to nothing."""


class UnknownEpisodeError(MobileGymError, KeyError):
    """An episode id is not in the dataset or metadata."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "unknown episode"


class ModelUnavailableError(MobileGymError, RuntimeError):
    """The sentence-embedding model cannot be loaded (package missing, bad path)."""


class MissingExtraError(MobileGymError, ImportError):
    """An optional extra (Ray, RLlib) is not installed; the message says which to install."""


class SimulatorError(MobileGymError, ValueError):
    """A simulated device was given a setup it cannot apply (unknown app, field, value)."""


class DeviceError(MobileGymError, RuntimeError):
    """A device cannot do what was asked (closed, disconnected, died mid-episode)."""


class TaskError(FormatError):
    """A task definition is malformed, or its golden path or selectors do not resolve
    in the simulator (the message names the task file, the task and the step)."""


class UnknownTaskError(MobileGymError, KeyError):
    """A task id is in no registry (neither the simulator suite nor LlamaTouch's list)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown task"


class BackendUnavailableError(MobileGymError, RuntimeError):
    """The chosen backend cannot run this task; the message names the backends that can."""


class StorageError(MobileGymError, OSError):
    """Results cannot be written (disk full, over quota, an I/O error); the message names
    the file. A batch run stops on it and keeps what it recorded: ``--resume`` finishes
    it once there is room."""


class ReplyError(MobileGymError, ValueError):
    """A model's reply that names no action this env can do; the message is written to
    be shown to the model."""


class AgentError(MobileGymError):
    """The model could not be asked: the endpoint is unreachable, refuses the key, or keeps failing."""
