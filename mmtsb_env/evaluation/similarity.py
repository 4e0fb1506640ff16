"""Column similarity measures used to compare an expected row with an actual one (0..1).

Measure names follow the reference's scenario files (``column_rouge_l_similarity``...), so
its ``column_similarity_measure`` maps work unchanged; short aliases (``"rouge_l"``) work too.

>>> rouge_l("Call Modicon about OSIRIS", "call modicon, inc. about osiris")
0.888889
>>> rouge_l("你好 世界", "你好 世界")
1.0
>>> exact(10.0, 10.05), exact([2, 1], [1, 2]), exact("2026-04-20T10:00:00Z", "2026-04-20T10:00:00+00:00")
(1.0, 1.0, 1.0)
>>> datetime_equal("2026-04-20T10:00:00+02:00", "2026-04-20T08:00:00Z")
1.0
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from datetime import timedelta
from typing import Any, Callable

from ..world.clock import parse_datetime

NUMERIC_REL_TOL = 0.01  # 1 %, as the paper's judge tolerates
DATETIME_TOL = timedelta(minutes=1)

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def tokens(text: Any) -> list[str]:
    """Lower-cased word tokens; CJK characters count as one token each (Unicode-safe)."""
    norm = unicodedata.normalize("NFKC", str(text or "")).lower()
    out: list[str] = []
    for tok in _TOKEN.findall(norm):
        if _CJK.search(tok):
            out.extend(ch for ch in tok)
        else:
            out.append(tok)
    return out


def _lcs(a: list[str], b: list[str]) -> int:
    if len(a) < len(b):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def rouge_l(expected: Any, actual: Any) -> float:
    """ROUGE-L F-measure over word tokens (same as rouge-score's without stemming)."""
    a, b = tokens(expected), tokens(actual)
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    lcs = _lcs(a, b)
    if lcs == 0:
        return 0.0
    p, r = lcs / len(b), lcs / len(a)
    return round(2 * p * r / (p + r), 6)


def _as_list(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", "").strip())
        except ValueError:
            return None
    return None


def _as_datetime(value: Any):
    if not isinstance(value, str) or len(value) < 10 or not value[:4].isdigit():
        return None
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def exact(expected: Any, actual: Any) -> float:
    """Equality with sensible normalisation: numbers within 1 %, lists as multisets, datetimes by instant."""
    if expected is None or actual is None:
        return 1.0 if expected is None and actual is None else 0.0
    expected, actual = _as_list(expected), _as_list(actual)
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        try:
            return 1.0 if sorted(map(_canon, expected)) == sorted(map(_canon, actual)) else 0.0
        except TypeError:
            return 1.0 if list(expected) == list(actual) else 0.0
    if isinstance(expected, bool) or isinstance(actual, bool):
        return 1.0 if expected == actual else 0.0
    ne, na = _as_number(expected), _as_number(actual)
    if ne is not None and na is not None and (isinstance(expected, (int, float)) or isinstance(actual, (int, float))):
        return 1.0 if math.isclose(ne, na, rel_tol=NUMERIC_REL_TOL, abs_tol=1e-9) else 0.0
    de, da = _as_datetime(expected), _as_datetime(actual)
    if de is not None and da is not None:
        return 1.0 if de == da else 0.0
    if isinstance(expected, str) and isinstance(actual, str):
        return 1.0 if expected.strip().casefold() == actual.strip().casefold() else 0.0
    return 1.0 if expected == actual else 0.0


def _canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, default=str).casefold()


def datetime_equal(expected: Any, actual: Any) -> float:
    """Same instant within a minute; naive values are read as UTC."""
    de, da = _as_datetime(expected), _as_datetime(actual)
    if de is None or da is None:
        return exact(expected, actual)
    return 1.0 if abs(de - da) <= DATETIME_TOL else 0.0


def datetime_naive_equal(expected: Any, actual: Any) -> float:
    """Same wall-clock time ignoring time zones (the reference's naive comparison)."""
    de, da = _as_datetime(expected), _as_datetime(actual)
    if de is None or da is None:
        return exact(expected, actual)
    return 1.0 if de.replace(tzinfo=None, microsecond=0) == da.replace(tzinfo=None, microsecond=0) else 0.0


def set_overlap(expected: Any, actual: Any) -> float:
    """Jaccard overlap of two lists treated as sets."""
    e = {_canon(x) for x in (_as_list(expected) or [])}
    a = {_canon(x) for x in (_as_list(actual) or [])}
    if not e and not a:
        return 1.0
    return len(e & a) / len(e | a)


def contains(expected: Any, actual: Any) -> float:
    """The expected text appears in the actual text (case-insensitive)."""
    return 1.0 if str(expected).casefold() in str(actual or "").casefold() else 0.0


def ignore(expected: Any, actual: Any) -> float:
    return 1.0


MEASURES: dict[str, Callable[[Any, Any], float]] = {
    "exact": exact,
    "rouge_l": rouge_l,
    "datetime": datetime_equal,
    "datetime_naive": datetime_naive_equal,
    "set": set_overlap,
    "contains": contains,
    "ignore": ignore,
    # the reference's names
    "column_exact_match_similarity": exact,
    "column_rouge_l_similarity": rouge_l,
    "column_datetime_naive_equal_similarity": datetime_naive_equal,
    "column_datetime_similarity": datetime_equal,
    "column_contains_similarity": contains,
    "column_ignore_similarity": ignore,
    "column_one_similarity": ignore,
}

TEXT_COLUMNS = {"content", "title", "description", "name", "body", "text", "subject", "message", "label", "comment", "note"}


def measure_for(column: str, expected: Any, explicit: str | None) -> Callable[[Any, Any], float] | None:
    """The measure for a column: the explicit one, else a default from the column and value.

    Returns ``None`` when the column should be ignored.
    """
    if explicit is not None:
        try:
            fn = MEASURES[explicit]
        except KeyError:
            raise ValueError(f"unknown similarity measure {explicit!r}; known: {sorted(MEASURES)}") from None
        return None if fn is ignore else fn
    if column in TEXT_COLUMNS and isinstance(expected, str):
        return rouge_l
    if _as_datetime(expected) is not None:
        return datetime_equal
    if isinstance(expected, list):
        return exact
    return exact
