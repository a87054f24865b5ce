"""`ElementFeatures`: the screen as a fixed-shape array, one row per element slot, and the
instruction encoded alongside it — the observation an MLP policy learns from.

Row k describes the element that `DiscreteElementActions` taps with action k (both read
``env.unwrapped.elements``), so a policy can learn "tap the row that says what the
instruction says" once for every slot. Each row holds

    visible bounds (4, normalised)  flags (8)  class (one-hot over CLASSES, last = other)
    hashed words of the label (text_dims)  hashed tokens of the resource-id (id_dims)
    match with the instruction (1)  slot filled (1)

Words are hashed (crc32, not Python's salted ``hash``) into buckets, so any app's text
has a place without a vocabulary. Multi-task policies need the instruction in the
observation: it is hashed into the same buckets as the labels, so an element that reads
as the instruction lights the buckets the instruction lights, plus a direct overlap score.
With ``text_encoder="minilm"`` the instruction is the bundled MiniLM model's sentence
embedding and the match score its cosine similarity with each label, each distinct text
encoded once (labels repeat across steps and episodes).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from zlib import crc32

import gymnasium as gym
import numpy as np

from mobile_gym.errors import ConfigError, whole_number
from mobile_gym.ui.elements import actionable_elements
from mobile_gym.ui.hierarchy import ViewHierarchy
from mobile_gym.wrappers.element_actions import MAX_ELEMENTS, MAX_SLOTS

#: Class names with a one-hot column each (by the last part of the name); the rest
#: share the final "other" column.
CLASSES = ("Button", "ImageButton", "TextView", "ImageView", "EditText", "Switch", "CheckBox", "RadioButton",
           "LinearLayout", "FrameLayout", "RelativeLayout", "RecyclerView", "ScrollView", "View")
FLAGS = ("clickable", "long-clickable", "checkable", "checked", "selected", "focused", "scrollable")
TEXT_ENCODERS = ("hash", "minilm")
MINILM_DIMS = 384

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_CLASS_COLUMN = {name: i for i, name in enumerate(CLASSES)}


@lru_cache(maxsize=65_536)
def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens (resource-ids split at ``:``, ``/``, ``_`` and ``.``)."""
    return tuple(_TOKEN.findall(text.lower()))


@lru_cache(maxsize=65_536)
def _bucket(word: str, dims: int) -> int:
    return crc32(word.encode("utf-8", "surrogatepass")) % dims


def hashed(text: str, dims: int) -> np.ndarray:
    """A text's bag of words as 0/1 over ``dims`` hash buckets."""
    v = np.zeros(dims, dtype=np.float32)
    for w in words(text):
        v[_bucket(w, dims)] = 1.0
    return v


class ElementFeatures(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """The observation as ``{"elements": Box(max_elements * F), "instruction": Box(D)}``
    (``flat=False`` keeps ``elements`` as ``(max_elements, F)`` rows).

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.wrappers import ElementFeatures
    >>> env = ElementFeatures(gym.make("LlamaTouch/settings-open-v0"))
    >>> obs, info = env.reset(seed=0)
    >>> obs["elements"].shape, obs["instruction"].shape   # 48 slots of 109 features, flattened
    ((5232,), (64,))
    >>> rows = obs["elements"].reshape(env.shape)
    >>> int(rows[:, -1].sum())   # slots holding an element on the launcher
    11
    >>> env.feature_names()[:5]
    ['left', 'top', 'right', 'bottom', 'clickable']
    """

    def __init__(self, env: gym.Env, *, max_elements: int = MAX_ELEMENTS, text_dims: int = 64, id_dims: int = 16,
                 text_encoder: str = "hash", embedding_model: str | None = None, flat: bool = True):
        gym.utils.RecordConstructorArgs.__init__(self, max_elements=max_elements, text_dims=text_dims,
                                                 id_dims=id_dims, text_encoder=text_encoder,
                                                 embedding_model=embedding_model, flat=flat)
        gym.ObservationWrapper.__init__(self, env)
        self.max_elements = whole_number("max_elements", max_elements, 0, MAX_SLOTS)
        self.text_dims = whole_number("text_dims", text_dims, 1, MAX_SLOTS)
        self.id_dims = whole_number("id_dims", id_dims, 1, MAX_SLOTS)
        if text_encoder not in TEXT_ENCODERS:
            raise ConfigError(f"text_encoder must be one of {', '.join(TEXT_ENCODERS)}; got {text_encoder!r}")
        self.text_encoder = text_encoder
        self.embedding_model = embedding_model
        self.flat = bool(flat)  # rows joined into one vector, the shape SB3's MLP extractors expect
        self._attach_embedder()
        names = self.feature_names()
        instruction_dims = MINILM_DIMS if text_encoder == "minilm" else self.text_dims
        self.shape = (self.max_elements, len(names))  # of the rows, before flattening
        self.observation_space = gym.spaces.Dict({
            "elements": gym.spaces.Box(0.0, 1.0, (self.shape[0] * self.shape[1],) if self.flat else self.shape,
                                       np.float32),
            "instruction": gym.spaces.Box(-1.0, 1.0, (instruction_dims,), np.float32),
        })
        self._instruction: tuple[str, np.ndarray, frozenset[str]] | None = None  # encoded once per text

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_embedder": None}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_embedder()

    def _attach_embedder(self) -> None:
        """The process's shared MiniLM for ``text_encoder="minilm"``, loaded now (at make or
        unpickling), never in a step."""
        self._embedder = None
        if self.text_encoder == "minilm":
            from mobile_gym.matcher.embeddings import shared_embedder

            self._embedder = shared_embedder(self.embedding_model)
            self._embedder.load()

    def feature_names(self) -> list[str]:
        """The name of each column of a row of ``obs["elements"]``."""
        return (["left", "top", "right", "bottom", *FLAGS, "editable"] + [f"class:{c}" for c in CLASSES]
                + ["class:other"] + [f"text#{i}" for i in range(self.text_dims)]
                + [f"id#{i}" for i in range(self.id_dims)] + ["match", "filled"])

    def observation(self, observation: dict[str, Any]) -> dict[str, np.ndarray]:
        instruction = observation["instruction"]
        if self._instruction is None or self._instruction[0] != instruction:
            self._instruction = (instruction, self._encode_instruction(instruction), frozenset(words(instruction)))
        _, encoded, instruction_words = self._instruction
        hierarchy = self.env.unwrapped.hierarchy  # type: ignore[attr-defined]
        key = (__name__, self.max_elements, self.text_dims, self.id_dims, self.text_encoder, self.embedding_model,
               instruction)
        rows = hierarchy.shared.get(key)  # the same app windows and instruction: the same rows
        if rows is None:
            rows = hierarchy.shared[key] = self._rows(hierarchy, instruction, instruction_words)
        return {"elements": rows.reshape(self.observation_space["elements"].shape).copy(),
                "instruction": encoded.copy()}

    def _encode_instruction(self, instruction: str) -> np.ndarray:
        if self._embedder is not None:
            return self._embedder.embed([instruction])[0].astype(np.float32)
        return hashed(instruction, self.text_dims)

    def _rows(self, hierarchy: ViewHierarchy, instruction: str, instruction_words: frozenset[str]) -> np.ndarray:
        elements = actionable_elements(hierarchy)[:self.max_elements]
        screen = hierarchy.screen_bounds
        width, height = screen.right or 1, screen.bottom or 1
        n_classes = len(CLASSES) + 1
        text_start = 4 + len(FLAGS) + 1 + n_classes
        id_start = text_start + self.text_dims
        rows = np.zeros(self.shape, dtype=np.float32)
        if not elements:
            return rows
        rows[:len(elements), -1] = 1.0
        for i, e in enumerate(elements):
            node, v = e.node, e.visible
            row = rows[i]
            row[0:4] = (v.left / width, v.top / height, v.right / width, v.bottom / height)
            flags = node.flags
            row[4:4 + len(FLAGS)] = [flags[f] for f in FLAGS]
            row[4 + len(FLAGS)] = e.editable
            short = node.class_name.rsplit(".", 1)[-1]
            row[4 + len(FLAGS) + 1 + _CLASS_COLUMN.get(short, len(CLASSES))] = 1.0
            row[text_start:id_start] = hashed(e.label, self.text_dims)
            row[id_start:id_start + self.id_dims] = hashed(node.resource_id.rsplit("/", 1)[-1], self.id_dims)
            label = words(e.label)
            if label and self._embedder is None:
                row[-2] = sum(w in instruction_words for w in label) / len(label)
        if self._embedder is not None:
            labels = [e.label for e in elements]
            vectors = self._embedder.embed([instruction, *labels])
            has_label = np.array([bool(t) for t in labels])
            rows[:len(elements), -2] = np.clip(vectors[1:] @ vectors[0], 0.0, 1.0) * has_label
        np.clip(rows, 0.0, 1.0, out=rows)
        return rows
