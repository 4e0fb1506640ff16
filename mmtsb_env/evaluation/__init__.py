"""Evaluation: entity-diff F1, rubric judges (deterministic and LLM), the user judge, metrics, reports.

- :mod:`.similarity`      column measures (exact, ROUGE-L, datetime, set, present, facts...), normalisation, tolerances
- :mod:`.entity_diff`     :func:`score_changes`, :class:`EntityScorer` (incremental), collateral rule
- :mod:`.reference_specs` :func:`from_reference_specs` for the reference's ``entity_diff_specs``
- :mod:`.judge`           :class:`Evidence`, :class:`Verdict`, :class:`RubricJudge` (five criteria)
- :mod:`.claims`          does a reply commit to a fact (hedging, number carpets, near misses)
- :mod:`.taxonomy`        the paper's failure classes from a verdict's criteria
- :mod:`.llm_judge`       :class:`LLMJudge` through any chat backend (cached, repaired, retried)
- :mod:`.user_judge`      :class:`UserJudge` (deterministic) and :class:`LLMUserJudge`
- :mod:`.metrics`         :func:`compute_metrics` over episode records, failure taxonomy
- :mod:`.report`          run folders: ``results.json`` -> markdown, JSON, plots, HTML viewer

The names below are imported from here; those of :mod:`.user_judge` and :mod:`.report` from
their modules (they build on the users and export layers, which import parts of this package).

See ``docs/evaluation.md``.
"""

from __future__ import annotations

from typing import Any

from .entity_diff import (
    DEFAULT_EXEMPTIONS, EntityScore, EntityScorer, Exemption, GroupScore, PairScore, ScoringConfig, coerce_expected,
    row_similarity, score_changes,
)
from .judge import CRITERIA, Criterion, Evidence, RubricJudge, Verdict, fact_in_text
from .reference_specs import NAMESPACE_TABLES, from_reference_specs
from .similarity import MEASURES, Tolerances, measure_for, rouge_l

_LAZY = {
    "LLMJudge": "llm_judge", "LLMRubricJudge": "llm_judge", "VerdictCache": "llm_judge", "PROMPT_VERSION": "llm_judge",
    "evidence_from_record": "evidence",
    "compute_metrics": "metrics", "episode_summary": "metrics", "classify_failure": "metrics", "FAILURE_CLASSES": "taxonomy",
    "classify": "taxonomy", "claim_status": "claims",
    "render_viewer": "viewer",
    "parse_json_object": "jsonrepair",
}

__all__ = [
    "CRITERIA", "DEFAULT_EXEMPTIONS", "MEASURES", "NAMESPACE_TABLES", "Criterion", "EntityScore", "EntityScorer", "Evidence",
    "Exemption", "GroupScore", "PairScore", "RubricJudge", "ScoringConfig", "Tolerances", "Verdict", "coerce_expected",
    "fact_in_text", "from_reference_specs", "measure_for", "rouge_l", "row_similarity", "score_changes", *_LAZY,
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
