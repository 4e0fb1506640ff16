"""Column similarity measures: how close an actual cell is to the expected one (0..1).

Measure names follow the reference's scenario files (``column_rouge_l_similarity``...), so its
``column_similarity_measure`` maps work unchanged; short aliases (``"rouge_l"``) work too. Every
measure is ``fn(expected, actual, tol=DEFAULT_TOLERANCES) -> float``; :func:`measure_for` picks
one from the column name and the expected value's type when a scenario does not name one.

>>> rouge_l("Call Modicon about OSIRIS", "call modicon, inc. about osiris")
0.888889
>>> rouge_l("你好 世界", "你好 世界"), rouge_l("क्षत्रिय नमस्ते", "नमस्ते क्षत्रिय")
(1.0, 0.5)
>>> exact(10.0, 10.004), exact(1000, 1005), exact([2, 1], [1, 2]), exact("2026-04-20T10:00:00Z", "2026-04-20T10:00:00+00:00")
(1.0, 0.0, 1.0, 1.0)
>>> datetime_equal("2026-04-20T10:00:00+02:00", "2026-04-20T08:00:00Z")
1.0
>>> set_overlap(["a", "b", "c"], ["c", "a"])
0.666667
>>> exact(23.14, 23.35), exact(23.14, 23.144)   # amounts written to the world: to the cent
(0.0, 1.0)
>>> canonical_text("Paid 1234.50 USD on May 9, 2026"), canonical_text("paid $1,234.50 on 2026-05-09")
('paid 1234.5 on 2026-05-09', 'paid 1234.5 on 2026-05-09')
>>> rouge_l("Sunrise Diner $18.53; City Parking $9.00", "city parking 9 USD; sunrise diner 18.53 USD")
1.0
>>> present(None, "Collected details"), present("anything", "  ")
(1.0, 0.0)
>>> facts(["Lumen Hardware", "$22.13"], "lumen hardware: 22.13 USD"), facts(["22.13"], "22.1")
(1.0, 0.0)
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache, partial
from typing import Any, Callable

from ..textcache import text_cache
from ..world import pools
from ..world.clock import parse_datetime
from ..values.clock import canonical_times
from ..values.dates import iso_dates
from ..values.money import joined_thousands, without_currency
from ..values.numbers import rounding_of, without_title_numbers
from ..values.words import words_to_digits

NUMERIC_REL_TOL = 0.01  # 1 %, the tolerance the paper's judge allows for numbers stated in replies
AMOUNT_TOL = 0.005  # half a cent: amounts written to the world must match to the cent
DATETIME_TOL = timedelta(minutes=1)


@dataclass(frozen=True)
class Tolerances:
    """How close is close enough.

    ``amount_tol`` applies to non-integer numbers *written to the world* (amounts, prices: to the
    cent); ``rel_tol`` to numbers *stated in replies* (the paper's 1 % for rounding) and to the
    explicitly named ``numeric`` measure. Integers (ids, counts, quantities) always compare
    exactly. ``datetime_tol`` is the largest gap between two instants that still counts as the
    same time.

    ``read`` holds the scenario's **read tolerances** (``metadata.value_tolerances``): ``(true
    value, tolerance)`` for values a careful reader can only read to within a tolerance (a bar
    read off a chart's axis) or that are computed from such values. A number within its value's
    tolerance counts as that value, in the world and in replies; values without one keep the
    rules above.
    """

    rel_tol: float = NUMERIC_REL_TOL
    abs_tol: float = 1e-9
    datetime_tol: timedelta = DATETIME_TOL
    amount_tol: float = AMOUNT_TOL
    read: tuple[tuple[float, float], ...] = ()

    def read_tolerance(self, value: float) -> float:
        """How far off a reading of true ``value`` may be (0 when the scenario gives no tolerance)."""
        return max((t for v, t in self.read if math.isclose(v, value, abs_tol=1e-9)), default=0.0)

    def within_read(self, expected: float, actual: float) -> bool:
        """Whether ``actual`` is a reading of ``expected`` within the scenario's tolerance for it."""
        t = self.read_tolerance(expected)
        return t > 0 and abs(actual - expected) <= t + 1e-9


DEFAULT_TOLERANCES = Tolerances()


def read_tolerances(metadata: Any) -> tuple[tuple[float, float], ...]:
    """``Tolerances.read`` from a scenario's ``metadata.value_tolerances`` (``{"1,883": 50.0}``);
    entries that are not a number with a positive tolerance are skipped."""
    raw = metadata.get("value_tolerances") if isinstance(metadata, dict) else None
    out = []
    for value, tol in (raw or {}).items() if isinstance(raw, dict) else ():
        v, t = as_number(value), as_number(tol)
        if v is not None and t is not None and t > 0:
            out.append((v, t))
    return tuple(sorted(out))


def scenario_tolerances(metadata: Any, base: "Tolerances | None" = None) -> "Tolerances":
    """``base`` (the defaults) with the read tolerances of a scenario's metadata."""
    from dataclasses import replace

    base = base or DEFAULT_TOLERANCES
    read = read_tolerances(metadata)
    return replace(base, read=read) if read else base
Measure = Callable[..., float]

# ---------------------------------------------------------------------------------------------
# Tokens (Unicode-safe)
# ---------------------------------------------------------------------------------------------

# Scripts written without spaces between words: each character (with its marks) is one token.
_NO_SPACE = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x3040, 0x30FF), (0x3400, 0x4DBF),
             (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0x20000, 0x2FFFF))
_token_re: re.Pattern[str] | None = None


def _no_space(ch: str) -> bool:
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in _NO_SPACE)


def _token_pattern() -> re.Pattern[str]:
    """Letters/digits plus combining marks (``re``'s ``\\w`` splits Devanagari words at vowel signs)."""
    global _token_re
    if _token_re is None:
        ranges: list[list[int]] = []
        for cp in range(0x300, 0x1E900):
            if unicodedata.category(chr(cp)) in ("Mn", "Mc", "Me"):
                if ranges and ranges[-1][1] == cp - 1:
                    ranges[-1][1] = cp
                else:
                    ranges.append([cp, cp])
        marks = "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)
        _token_re = re.compile(f"(?:[^\\W_]|[{marks}])+")
    return _token_re


@text_cache(maxsize=16384)
def _tokens(text: str) -> tuple[str, ...]:
    norm = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    for tok in _token_pattern().findall(norm):
        if tok.isascii() or not any(_no_space(c) for c in tok):
            out.append(tok)
            continue
        word = ""
        for ch in tok:
            if unicodedata.category(ch).startswith("M"):
                if out and not word:
                    out[-1] += ch
                else:
                    word += ch
            elif _no_space(ch):
                if word:
                    out.append(word)
                    word = ""
                out.append(ch)
            else:
                word += ch
        if word:
            out.append(word)
    return tuple(out)


def tokens(text: Any) -> list[str]:
    """Case-folded word tokens; characters of scripts without spaces (CJK, Thai...) are one token each."""
    return list(_tokens(str(text if text is not None else "")))


def lcs_length(a: tuple[str, ...] | list[str], b: tuple[str, ...] | list[str]) -> int:
    """Length of the longest common subsequence of two token sequences (bit-parallel, O(len·words))."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    masks = _lcs_masks(tuple(b))
    full = (1 << len(b)) - 1
    v = full
    for t in a:
        m = masks.get(t)
        if m:
            u = v & m
            v = ((v + u) | (v - u)) & full
    return len(b) - bin(v).count("1")


@text_cache(maxsize=4096)
def _lcs_masks(b: tuple[str, ...]) -> dict[str, int]:
    """Bit ``i`` of ``masks[t]`` is set when ``b[i] == t`` (memoised: one side of a pair recurs)."""
    masks: dict[str, int] = {}
    for i, t in enumerate(b):
        masks[t] = masks.get(t, 0) | (1 << i)
    return masks


def _rouge(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    lcs = lcs_length(a, b)
    if lcs == 0:
        return 0.0
    p, r = lcs / len(b), lcs / len(a)
    return round(2 * p * r / (p + r), 6)


def rouge_l_raw(expected: Any, actual: Any, tol: Tolerances | None = None) -> float:
    """ROUGE-L F-measure over word tokens (rouge-score's formula, no stemming, any script), on the
    texts as written."""
    return _rouge(_tokens(str(expected if expected is not None else "")), _tokens(str(actual if actual is not None else "")))


def rouge_l(expected: Any, actual: Any, tol: Tolerances | None = None) -> float:
    """ROUGE-L after meaning-preserving normalisation (:func:`canonical_text`): the better of the
    texts in their order and with their list items sorted. Padding a text with extra words never
    raises the score (it only lowers precision)."""
    e, se = _rouge_forms(str(expected if expected is not None else ""))
    a, sa = _rouge_forms(str(actual if actual is not None else ""))
    score = _rouge(e, a)
    if se is not None and sa is not None:
        score = max(score, _rouge(se, sa))
    return score


@text_cache(maxsize=16384)
def _rouge_forms(text: str) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    """The canonical text's tokens, and those of its sorted list items (``None`` for one item)."""
    canon = _canonical(text)
    items = _sorted_items(canon)
    return _tokens(canon), (_tokens(items) if items is not None else None)


# ---------------------------------------------------------------------------------------------
# Meaning-preserving text normalisation
# ---------------------------------------------------------------------------------------------

# an ISO date-time, or a date followed by a time ("2024-04-25, at 22:59"): "2024-04-25 22:59"
_DATE_TIME = re.compile(r"\b(\d{4}-\d{2}-\d{2})(?:t|,?\s+(?:at\s+)?)(\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?(?:z|[+-]00:?00)?(?![\d:])")
# a unit written out after a number, as its symbol ("1.97 kilograms" -> "1.97 kg")
_UNIT_WORDS = {"kilograms": "kg", "kilogram": "kg", "kilos": "kg", "kilo": "kg", "grams": "g", "gram": "g",
               "litres": "l", "liters": "l", "litre": "l", "liter": "l", "millilitres": "ml", "milliliters": "ml",
               "millilitre": "ml", "milliliter": "ml", "kilometres": "km", "kilometers": "km", "kilometre": "km",
               "kilometer": "km", "centimetres": "cm", "centimeters": "cm", "metres": "m", "meters": "m"}
_UNIT_WORD = re.compile(r"(?<=\d)(\s*)(" + "|".join(sorted(_UNIT_WORDS, key=len, reverse=True)) + r")\b")
_DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?!\.?\d)")
_ITEM_SEPARATOR = re.compile(r"[\n;,]")
_SPACE_RUN = re.compile(r"\s+")  # one match per run: linear (``\s*\n\s*`` rescans a run from each of its spaces)
_INLINE_SPACES = re.compile(r"[ \t\r\f\v]+")


def _decimal(m: re.Match[str]) -> str:
    frac = m.group(2).rstrip("0")
    return m.group(1) + ("." + frac if frac else "")


@text_cache(maxsize=16384)
def canonical_dates(text: str) -> str:
    """The text case-folded, with number words as digits (:func:`~mmtsb_env.values.words.words_to_digits`), dates
    in any common form as ISO ``2026-05-09``, an amount's thousands apart by spaces joined ("$1 599"),
    clock times as 24-hour ``HH:MM`` and a date followed
    by its time as ``2026-05-09 22:59`` (``"25 April 2024 at 10:59 PM"``, ``"2024-04-25T22:59:00"``);
    amounts are left as written."""
    t = joined_thousands(words_to_digits(unicodedata.normalize("NFKC", text)).casefold())
    t = canonical_times(iso_dates(t))
    return canonical_times(_DATE_TIME.sub(lambda m: f"{m.group(1)} {int(m.group(2).split(':')[0]):02d}:{m.group(2).split(':', 1)[1]}", t))


@text_cache(maxsize=16384)
def _canonical(text: str) -> str:
    t = canonical_dates(text)
    t = without_currency(t)
    t = _DECIMAL.sub(_decimal, t)
    t = _UNIT_WORD.sub(lambda m: m.group(1) + _UNIT_WORDS[m.group(2)], t)
    return _SPACE_RUN.sub(_collapse, t).strip()


def _collapse(m: re.Match[str]) -> str:
    """A run of white space: one line break if it holds one, else its blanks and tabs as one space."""
    run = m.group(0)
    return "\n" if "\n" in run else _INLINE_SPACES.sub(" ", run)


def canonical_text(value: Any) -> str:
    """The text with its meaning kept and its formatting dropped: case-folded; dates in any common
    form (``"May 9, 2026"``, ``"9 May 2026"``, ``"05/09/2026"``) as ISO ``2026-05-09``; amounts
    without currency marks or thousands separators (``"$1,234.50"``, ``"1234.50 USD"`` ->
    ``1234.5``); a unit written out after a number as its symbol (``"1.97 kilograms"`` -> ``1.97
    kg``); spaces collapsed (line breaks kept).

    >>> canonical_text("1.97 Kilograms"), canonical_text("2 litres of milk")
    ('1.97 kg', '2 l of milk')
    """
    return _canonical(str(value if value is not None else ""))


def _sorted_items(text: str) -> str | None:
    """The text's list items (lines, ``;`` or ``,`` separated) sorted, or ``None`` for a single item."""
    items = [x for x in (part.strip() for part in _ITEM_SEPARATOR.split(text)) if x]
    return "\n".join(sorted(items)) if len(items) > 1 else None


def text_contains(needle: Any, text: Any) -> bool:
    """Whether ``text`` contains ``needle`` after :func:`canonical_text`, as whole words/numbers
    (``"22.1"`` is not in ``"22.13"``; ``"12"`` is not in ``"120"``)."""
    n, t = canonical_text(needle), canonical_text(text)
    if not n:
        return True
    return _contained(n).search(t) is not None


@text_cache(maxsize=8192)
def _contained(n: str) -> re.Pattern[str]:
    """The pattern of ``n`` as whole words/numbers (compiled once: ``re``'s own cache is small)."""
    left = r"(?<![0-9a-z.])" if n[0].isascii() and n[0].isalnum() else ""
    right = r"(?![0-9a-z]|\.\d)" if n[-1].isascii() and n[-1].isalnum() else ""
    return re.compile(left + re.escape(n) + right)


# ---------------------------------------------------------------------------------------------
# Value coercion
# ---------------------------------------------------------------------------------------------

_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$")
_CURRENCY = "$€£¥₹₩"


def _as_list(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    return value


def as_number(value: Any) -> float | None:
    """A number from an int/float or a numeric string (``"$1,234.50"``); ``None`` otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip().strip(_CURRENCY).strip()
        if text and _NUMBER.match(text) and any(c.isdigit() for c in text):
            return float(text.replace(",", ""))
    return None


def _is_integral(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, str):
        return "." not in value
    return False


def _as_datetime(value: Any):
    if not isinstance(value, str) or len(value) < 10 or not value[:4].isdigit() or value[4] != "-":
        return None
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, tuple, dict, set)) and len(value) == 0)


def _norm_text(value: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", value)).strip().casefold()


def _canon(x: Any) -> str:
    """Canonical string of a list element (numbers 2 and 2.0 alike, text case-folded)."""
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if isinstance(x, str):
        return _norm_text(x)
    return json.dumps(x, sort_keys=True, default=str, ensure_ascii=False).casefold()


def numbers_close(expected: float, actual: float, tol: Tolerances = DEFAULT_TOLERANCES, *, integral: bool = False) -> bool:
    if tol.within_read(expected, actual):
        return True
    if integral:
        return expected == actual
    return math.isclose(expected, actual, rel_tol=tol.rel_tol, abs_tol=tol.abs_tol)


# ---------------------------------------------------------------------------------------------
# Measures
# ---------------------------------------------------------------------------------------------


def exact(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Equality after normalisation.

    ``None`` equals empty text/list/dict; lists compare as multisets; non-integer numbers to the
    cent (``tol.amount_tol``; integers exactly); datetimes by instant (time-zone aware); text case-
    and space-insensitively.
    """
    if _empty(expected) or _empty(actual):
        return 1.0 if _empty(expected) and _empty(actual) else 0.0
    expected, actual = _as_list(expected), _as_list(actual)
    if isinstance(expected, list) or isinstance(actual, list):
        if not (isinstance(expected, list) and isinstance(actual, list)):
            return 0.0
        return 1.0 if sorted(map(_canon, expected)) == sorted(map(_canon, actual)) else 0.0
    if isinstance(expected, dict) or isinstance(actual, dict):
        return 1.0 if _canon(expected) == _canon(actual) else 0.0
    if isinstance(expected, bool) or isinstance(actual, bool):
        other = actual if isinstance(expected, bool) else expected
        if isinstance(other, str) and other.strip().lower() in ("true", "false"):
            other = other.strip().lower() == "true"
        return 1.0 if (expected if isinstance(expected, bool) else actual) is other else 0.0
    if isinstance(expected, (int, float)) or isinstance(actual, (int, float)):
        ne, na = as_number(expected), as_number(actual)
        if ne is None or na is None:
            return 0.0
        if tol.within_read(ne, na):
            return 1.0
        if _is_integral(expected) and _is_integral(actual):
            return 1.0 if ne == na else 0.0
        return 1.0 if abs(ne - na) <= tol.amount_tol + tol.abs_tol else 0.0
    if isinstance(expected, str) and isinstance(actual, str):
        de, da = _as_datetime(expected), _as_datetime(actual)
        if de is not None and da is not None:
            return 1.0 if de == da else 0.0
        return 1.0 if _norm_text(expected) == _norm_text(actual) else 0.0
    return 1.0 if expected == actual else 0.0


def numeric(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Numbers (also numeric text such as ``"$18.53"``) within the relative tolerance, even integers."""
    ne, na = as_number(expected), as_number(actual)
    if ne is None or na is None:
        return exact(expected, actual, tol)
    return 1.0 if numbers_close(ne, na, tol) else 0.0


def close(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Numbers within an absolute tolerance of 0.01 (the reference's ``close``) or ``tol.rel_tol``."""
    ne, na = as_number(expected), as_number(actual)
    if ne is None or na is None:
        return exact(expected, actual, tol)
    return 1.0 if abs(ne - na) <= 0.01 or numbers_close(ne, na, tol) else 0.0


_TEXT_NUMBER = re.compile(r"(?<![\w.\-/:])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|\.\d|[:/\-]\d)")


def readings(fact: Any, text: Any, tol: Tolerances = DEFAULT_TOLERANCES, others: Any = (), titles: Any = (),
             shown: Any = ()) -> list[str]:
    """The different numbers ``text`` states within the read tolerance of numeric ``fact`` (empty
    when the scenario gives it none), other than the values ``others`` (other facts asked for) and
    ``shown`` (values the images show), and the numbers of the titles among ``others`` and
    ``titles`` ("Week 39", "Sales 2025"): the readings of it the text offers; a reading and its
    own rounding ("17.6 (about 18)") are one; a number near another fact the text does not hold
    as such is taken as that fact's reading."""
    value = as_number(fact)
    if value is None or not tol.read_tolerance(value):
        return []
    asked = [x for x in (as_number(o) for o in others) if x is not None and x != value]
    skip = asked + [x for x in shown if x != value]
    t = canonical_text(without_title_numbers(text if isinstance(text, str) else json.dumps(text, default=str)))
    for title in sorted({canonical_text(x) for x in [*others, *titles] if isinstance(x, str) and as_number(x) is None
                         and re.search(r"\d", x)}, key=len, reverse=True):
        t = t.replace(title, " ")
    raws = list(dict.fromkeys(m.group(0) for m in _TEXT_NUMBER.finditer(t)))
    stated = {float(r.replace(",", "")) for r in raws}
    # another fact the text does not hold as such may be what a nearby number reads
    pending = [o for o in asked if not any(math.isclose(o, x) for x in stated)]
    near = tol.read_tolerance(value)
    raws = [r for r in raws if tol.within_read(value, float(r.replace(",", "")))
            and not any(math.isclose(float(r.replace(",", "")), o) for o in skip)
            and (math.isclose(float(r.replace(",", "")), value) or not any(abs(float(r.replace(",", "")) - o) <= near for o in pending))]
    return [r for r in raws if not any(rounding_of(r, o) for o in raws)]


def holds_fact(fact: Any, text: Any, tol: Tolerances = DEFAULT_TOLERANCES, others: Any = ()) -> bool:
    """Whether ``text`` holds ``fact`` (:func:`text_contains`); for a value the scenario gives a
    read tolerance: whether it states exactly one reading of it within that tolerance (a spray of
    readings holds none)."""
    if as_number(fact) is not None and tol.read_tolerance(as_number(fact)):
        n = len(readings(fact, text, tol, others))
        return n == 1 or (n == 0 and text_contains(fact, text))
    return text_contains(fact, text)


def datetime_equal(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Same instant within ``tol.datetime_tol`` (time-zone aware; naive values are read as UTC)."""
    de, da = _as_datetime(expected), _as_datetime(actual)
    if de is None or da is None:
        return exact(expected, actual, tol)
    return 1.0 if abs(de - da) <= tol.datetime_tol else 0.0


def datetime_naive_equal(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Same wall-clock time, ignoring time zones and sub-seconds (the reference's naive comparison)."""
    de, da = _as_datetime(expected), _as_datetime(actual)
    if de is None or da is None:
        return exact(expected, actual, tol)
    return 1.0 if de.replace(tzinfo=None, microsecond=0) == da.replace(tzinfo=None, microsecond=0) else 0.0


def datetime_after(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """The actual time is strictly later than the expected one (proves a timestamp was refreshed)."""
    de, da = _as_datetime(expected), _as_datetime(actual)
    if de is None or da is None:
        return 0.0
    return 1.0 if da > de else 0.0


def set_overlap(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Jaccard overlap of two lists taken as sets (order and duplicates ignored)."""
    e, a = _as_list(expected), _as_list(actual)
    e = [] if _empty(e) else (e if isinstance(e, list) else [e])
    a = [] if _empty(a) else (a if isinstance(a, list) else [a])
    se, sa = {_canon(x) for x in e}, {_canon(x) for x in a}
    if not se and not sa:
        return 1.0
    return round(len(se & sa) / len(se | sa), 6)


def contains(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """The expected text appears in the actual text (after :func:`canonical_text`, whole words)."""
    return 1.0 if text_contains(expected, actual) else 0.0


def present(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """The actual value is there and not blank; the expected value is ignored. For free text the
    user never worded (a subject line, a summary's phrasing)."""
    if isinstance(actual, str):
        actual = actual.strip()
    return 0.0 if _empty(actual) else 1.0


# Phrase pools images draw list items from (the generator's own lists, world/pools.py): a written
# list naming pool phrases no image shows was not read off an image.
_POOL_NAMES = ("ERRANDS", "REPAIRS", "WEEKDAYS", "VENUES", "CLASSES", "JOB_TITLES", "CARD_COMPANIES", "ORGANISERS")


@lru_cache(maxsize=1)
def phrase_pools() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(getattr(pools, name)) for name in _POOL_NAMES)


def facts_counts(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> tuple[int, int, list[str]]:
    """(facts found, facts expected, extra items) of a ``facts`` column: the extra items are the
    phrases of a pool some expected fact comes from that the text names although no expected fact
    is that phrase (``"water the ferns"`` in a list of errands the image does not show)."""
    items = _as_list(expected)
    items = [items] if not isinstance(items, list) else items
    items = [str(x) for x in items if not _empty(x)]
    text = actual if isinstance(actual, str) else ("" if actual is None else json.dumps(actual, ensure_ascii=False, default=str))
    found = sum(1 for f in items if holds_fact(f, text, tol, items))
    wanted = {canonical_text(f) for f in items}
    extras: list[str] = []
    for pool in phrase_pools():
        if not wanted & {canonical_text(p) for p in pool}:
            continue
        extras += [p for p in pool if canonical_text(p) not in wanted and p not in extras and text_contains(p, text)]
    return found, len(items), extras


def facts(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """F1 of a text against the facts it must hold (a list of strings; a single string is one fact):
    recall is the fraction of the facts the text contains (:func:`text_contains`: normalised, whole
    words, amounts to the cent); precision is the share of facts among the facts and the *extra
    items* the text names -- phrases of the same pool no expected fact is (:func:`facts_counts`),
    so writing a whole pool of errands scores below writing the ones the image shows. For free
    text whose wording is free but whose content is not ("the summary names the store and the total")."""
    found, n, extras = facts_counts(expected, actual, tol)
    if not n:
        return 1.0
    if not found:
        return 0.0
    recall, precision = found / n, found / (found + len(extras))
    return round(2 * precision * recall / (precision + recall), 6)


_PLACEHOLDER = re.compile(r"^\s*(?:\[[^\]]*\]|\{[^}]*\}|<[^>]*>|tbd|todo|xxx+|n/?a|placeholder|\?+|\.\.\.|…|-+)\s*$"
                          r"|\[(?:amount|total|name|date|value|insert|your|placeholder)[^\]]*\]|\{\{[^}]*\}\}",
                          re.IGNORECASE)


def is_placeholder(value: Any) -> bool:
    """Whether a written value stands in for one not filled in (``"[amount]"``, ``"TBD"``, ``"{{date}}"``).

    >>> is_placeholder("Total: [amount]"), is_placeholder("TBD"), is_placeholder("Total: $22.13")
    (True, True, False)
    """
    return isinstance(value, str) and bool(_PLACEHOLDER.search(value))


def one(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Always 1: the column counts in the mean but any value is fine."""
    return 1.0


def ignore(expected: Any, actual: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Marker: the column is not compared at all (:func:`measure_for` returns ``None``)."""
    return 1.0


MEASURES: dict[str, Measure] = {
    "exact": exact,
    "numeric": numeric,
    "close": close,
    "rouge_l": rouge_l,
    "datetime": datetime_equal,
    "datetime_naive": datetime_naive_equal,
    "datetime_after": datetime_after,
    "set": set_overlap,
    "contains": contains,
    "present": present,
    "facts": facts,
    "one": one,
    "ignore": ignore,
    # the reference's names
    "column_exact_match_similarity": exact,
    "column_rouge_l_similarity": rouge_l,
    "column_datetime_naive_equal_similarity": datetime_naive_equal,
    "column_datetime_similarity": datetime_after,
    "column_close_similarity": close,
    "column_contains_similarity": contains,
    "column_ignore_similarity": ignore,
    "column_one_similarity": one,
}

TEXT_COLUMNS = frozenset({
    "content", "title", "description", "name", "body", "text", "subject", "message", "label", "comment",
    "note", "question", "answer", "summary", "caption", "reason",
})
TEXT_SUFFIXES = ("_title", "_description", "_body", "_content", "_text", "_message", "_comment", "_note")


def is_text_column(column: str) -> bool:
    return column in TEXT_COLUMNS or column.endswith(TEXT_SUFFIXES)


def is_id_column(column: str) -> bool:
    return column == "id" or column.endswith("_id") or column.endswith("_ids")


_bound: dict[tuple[Measure, Tolerances], Measure] = {}


def _bind(fn: Measure, tol: Tolerances | None) -> Measure:
    if tol is None or tol is DEFAULT_TOLERANCES or tol == DEFAULT_TOLERANCES:
        return fn
    key = (fn, tol)
    got = _bound.get(key)
    if got is None:
        got = _bound[key] = partial(fn, tol=tol)
    return got


def measure_named(name: str) -> Measure:
    """The measure registered under ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return MEASURES[name]
    except KeyError:
        raise ValueError(f"unknown similarity measure {name!r}; known: {sorted(MEASURES)}") from None


def default_measure(column: str, expected: Any) -> Measure:
    """The measure used when a scenario names none, from the column name and the value's type.

    ids and keys, booleans, numbers, dicts -> :func:`exact`; lists -> :func:`set_overlap`;
    ISO datetimes -> :func:`datetime_equal`; free-text columns -> :func:`rouge_l`; other text -> :func:`exact`.
    """
    value = _as_list(expected)
    if isinstance(value, list):
        return set_overlap
    if is_id_column(column) or isinstance(value, (bool, int, float, dict)):
        return exact
    if _as_datetime(value) is not None:
        return datetime_equal
    if isinstance(value, str) and is_text_column(column):
        return rouge_l
    return exact


def measure_for(column: str, expected: Any, explicit: str | None, tol: Tolerances | None = None) -> Measure | None:
    """The measure for a column (explicit name, else :func:`default_measure`), bound to ``tol``.

    Returns ``None`` when the column is not compared (the ``ignore`` measures).
    """
    fn = measure_named(explicit) if explicit is not None else default_measure(column, expected)
    if fn is ignore:
        return None
    if tol is not None and tol.read and is_id_column(column):  # a read tolerance is for values read, never for ids
        from dataclasses import replace

        tol = replace(tol, read=())
    return _bind(fn, tol)
