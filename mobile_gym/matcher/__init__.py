"""LlamaTouch's essential-state matcher: annotations, primitive tests, the tracker."""

from mobile_gym.matcher.annotation import (
    Annotation,
    Checkpoint,
    Keyword,
    Primitive,
    ReferenceScreen,
    format_ess,
    parse_ess,
)
from mobile_gym.matcher.apps import AppRegistry
from mobile_gym.matcher.embeddings import SentenceEmbedder, TextEmbedder, shared_embedder
from mobile_gym.matcher.primitives import CheckResult, Matcher, MatcherConfig, PrimitiveResult
from mobile_gym.matcher.tracker import TraceEvaluation, Tracker, evaluate_trace

__all__ = [
    "Annotation",
    "AppRegistry",
    "CheckResult",
    "Checkpoint",
    "Keyword",
    "Matcher",
    "MatcherConfig",
    "Primitive",
    "PrimitiveResult",
    "ReferenceScreen",
    "SentenceEmbedder",
    "TextEmbedder",
    "TraceEvaluation",
    "Tracker",
    "evaluate_trace",
    "format_ess",
    "parse_ess",
    "shared_embedder",
]
