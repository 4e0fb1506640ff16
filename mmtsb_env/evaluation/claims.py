"""Claims in the assistant's replies: does a reply *commit* to a fact?

A fact counts as stated only when a reply asserts it. Three ways of mentioning a value without
committing to it do not count:

* **hedging** -- the sentence that states the fact also offers an alternative or doubt
  ("maybe X or Y", "either 20.51 or 22.13", "I think it is X"), see :data:`HEDGES`;
* **a number carpet** -- a reply that sprays numbers: a run of at least ``carpet_run`` numbers
  with nothing but separators between them, or more than ``carpet_max`` distinct numbers;
* **competing values** -- for a numeric fact that the reply never states exactly, two different
  numbers that both lie within the tolerance of it ("22.10, 22.16" for 22.13).

A numeric fact that no reply states but some reply gets *nearly* right (within ``near_miss``,
15 %, yet outside the tolerance: "$18.15" for 18.53) is ``"contradicted"``: the reply asserts a
wrong value.

Numbers in replies match by value within the reply tolerance (1 %, integers exactly); other facts
match after :func:`~.similarity.canonical_text` (dates in any common format, amounts with or
without currency and separators, case) as whole words.

>>> claim_status("22.13", ["Lumen Hardware was more expensive at $22.13 (Pine Street Books: $20.51)."])
'stated'
>>> claim_status("Lumen Hardware", ["It was maybe Pine Street Books or Lumen Hardware."])
'hedged'
>>> claim_status("22.13", [", ".join(f"{10 + i / 5:.1f}" for i in range(150))])
'carpet'
>>> claim_status("22.13", ["Saved 22.13. Should I also file the 20.51 one or keep it?"])
'stated'
>>> claim_status("18.53", ["Saved. The total is $18.15."])
'contradicted'
>>> claim_status("2026-05-02", ["The Night Market (May 2, 2026) is earlier."]), claim_status("9.00", ["Parking: $9"])
('stated', 'stated')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from ..textcache import text_cache
from .similarity import DEFAULT_TOLERANCES, Tolerances, as_number, canonical_text, numbers_close, text_contains

_NUM_IN_TEXT = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|\.\d)")
# Between two numbers of a carpet: only separators, currency marks and "and"/"to" (not "-" or "/":
# phone numbers and dates are single values).
_CARPET_GAP = re.compile(r"^(?:[\s,;:|()\[\]$€£¥₹₩%*+]|\.\.\.|…|\band\b|\bto\b)*$", re.IGNORECASE)
HEDGES = ("maybe", "perhaps", "possibly", "probably", "might", "either", "or", "unsure", "not sure", "not certain",
          "can't tell", "cannot tell", "hard to tell", "i think", "i guess", "i believe", "could be", "somewhere between")
_HEDGE = re.compile(r"\b(?:" + "|".join(re.escape(h) for h in HEDGES) + r")\b")
_SENTENCE = re.compile(r"((?<!\d)[.!?](?!\d)|\n)")


@text_cache(maxsize=8192)  # pure; a judge normalises each message once per value it looks for
def normalise(text: str) -> str:
    """Case-, accent-, space- and thousands-separator-insensitive form for fact matching.

    >>> normalise("Total:  1,440  CAFÉ")
    'total: 1440 cafe'
    """
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c))
    t = unicodedata.normalize("NFKC", t).casefold()
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", t)
    return re.sub(r"\s+", " ", t).strip()


def numbers_in(text: str) -> list[str]:
    """The numbers written in a text, as they appear (``"$1,234.50"`` gives ``"1,234.50"``)."""
    return _NUM_IN_TEXT.findall(text)


def _matching_numbers(fact: str, text: str, tol: Tolerances) -> set[float]:
    value = as_number(fact)
    assert value is not None
    integral = "." not in fact
    found = set()
    for raw in numbers_in(text):
        got = as_number(raw)
        if got is not None and numbers_close(value, got, tol, integral=integral and "." not in raw):
            found.add(got)
    return found


def fact_in_text(fact: str, text: str, tol: Tolerances = DEFAULT_TOLERANCES) -> bool:
    """Whether ``text`` mentions ``fact``: numbers by value (1 % for decimals), other facts as
    normalised text (no judgement on whether the mention commits; see :func:`claim_status`).

    >>> fact_in_text("$18.53", "The total was 18.53 dollars"), fact_in_text("9.00", "Parking: $9")
    (True, True)
    >>> fact_in_text("Night Market", "the night  market is first"), fact_in_text("12", "it costs 120")
    (True, False)
    """
    fact = str(fact)
    if as_number(fact) is not None:
        return bool(_matching_numbers(fact, text, tol))
    return text_contains(fact, text) or normalise(fact) in normalise(text)


@dataclass(frozen=True)
class ClaimRules:
    carpet_run: int = 6  # this many numbers in a row with only separators between them
    carpet_max: int = 40  # or more distinct numbers than this in one reply
    near_miss: float = 0.15  # a number this close to a numeric fact, but not within tolerance, contradicts it


DEFAULT_RULES = ClaimRules()


def is_carpet(text: str, rules: ClaimRules = DEFAULT_RULES, expected: int = 0) -> bool:
    """Whether a reply sprays numbers instead of stating them (see the module docstring).

    ``expected`` is how many numbers the reply legitimately has to state (the numeric facts it
    must report): a bare list of them is an answer, not a carpet, so the limits grow with it
    (run: ``max(carpet_run, expected + 3)``; distinct: ``max(carpet_max, 2 * expected + 10)``).
    """
    matches = list(_NUM_IN_TEXT.finditer(text))
    if len({m.group(0) for m in matches}) > max(rules.carpet_max, 2 * expected + 10):
        return True
    limit = max(rules.carpet_run, expected + 3)
    run = 1
    for prev, cur in zip(matches, matches[1:]):
        run = run + 1 if _CARPET_GAP.match(text[prev.end():cur.start()]) else 1
        if run >= limit:
            return True
    return False


def _sentences(text: str) -> list[str]:
    """The statements of a text (questions -- sentences ending in "?" -- are not statements)."""
    parts = _SENTENCE.split(text)
    out = []
    for i in range(0, len(parts), 2):
        end = parts[i + 1] if i + 1 < len(parts) else ""
        if parts[i].strip() and end != "?":
            out.append(parts[i].strip())
    return out


def hedges(text: str) -> bool:
    """Whether a text offers alternatives or doubt (one of :data:`HEDGES`)."""
    return _HEDGE.search(canonical_text(text)) is not None


def _near_miss(fact: str, text: str, rules: ClaimRules) -> bool:
    value = as_number(fact)
    if value is None or value == 0:
        return False
    for raw in numbers_in(text):
        got = as_number(raw)
        if got is not None and got != value and abs(got - value) <= rules.near_miss * abs(value):
            return True
    return False


def _status_in(fact: str, text: str, tol: Tolerances, rules: ClaimRules, expected: int) -> str:
    if not fact_in_text(fact, text, tol):
        return "contradicted" if _near_miss(fact, text, rules) and not is_carpet(text, rules, expected) else "missing"
    if is_carpet(text, rules, expected):
        return "carpet"
    value = as_number(fact)
    if value is not None:
        near = _matching_numbers(fact, text, tol)
        if len(near) > 1 and not any(abs(v - value) <= tol.amount_tol + tol.abs_tol for v in near):
            return "hedged"
    said = [s for s in _sentences(text) if fact_in_text(fact, s, tol)]
    return "hedged" if any(hedges(s) for s in said) else "stated"


_RANK = {"stated": 4, "hedged": 3, "contradicted": 2, "carpet": 1, "missing": 0}


def claim_status(fact: str, replies: Iterable[str], tol: Tolerances = DEFAULT_TOLERANCES,
                 rules: ClaimRules = DEFAULT_RULES, expected: int = 0) -> str:
    """``"stated"`` when some reply asserts ``fact``; otherwise the best of ``"hedged"`` (only
    mentioned with alternatives or doubt), ``"contradicted"`` (a near-miss number stated instead),
    ``"carpet"`` (only inside a number carpet) or ``"missing"``. A reply that hedges the fact spoils an assertion made elsewhere: the claim is
    then ``"hedged"``. ``expected``: see :func:`is_carpet`."""
    statuses = [_status_in(str(fact), text, tol, rules, expected) for text in replies]
    if "hedged" in statuses:
        return "hedged"
    return max(statuses, key=_RANK.__getitem__, default="missing")
