"""Claims in the assistant's replies (and written texts): does the text *commit* to one answer?

A fact counts as stated only when a reply asserts it as *the* answer. Ways of mentioning a value
without committing to it -- all ``"hedged"``:

* **hedging words** -- the statement that states the fact also offers doubt or an alternative
  ("maybe X or Y", "either 20.51 or 22.13", "I think it is X"), see :data:`HEDGES`;
* **candidate lists** -- the fact stands in a bare list or range with other values of its kind
  that are not asked for ("$13.48 / $13.84 / $18.43", "13.48, 13.84", "between 13 and 14");
* **sprays** -- the same statement made with different values ("The amount is 13.20. The amount
  is 13.48. ..."): one claim, several answers;
* **both candidates** -- for a choice among named candidates (``rivals``: the other receipts,
  events, chart categories), another candidate is asserted on its own as firmly as the fact: named
  in a clause that does not mention the fact and is not context, unless the fact's own clause
  makes the choice (a comparative or selection word: "more", "cheapest", "earlier", "it's") and
  the rival's does not ("Pine was $20.51. Lumen was $22.13, so Lumen cost more." commits).

Context is fine: a rival in parentheses or after "vs", "than", "compared to", "while",
"whereas", "unlike", "not", "instead of" is context ("Lumen at $22.13, vs $20.51 at Pine"), and
questions assert nothing. A **number carpet** -- a run of at least ``carpet_run`` numbers with
only separators between them, or more than ``carpet_max`` distinct numbers -- is ``"carpet"``.

Numbers match by value when the reply's number is the fact rounded to the precision the reply
writes it with ("22" and "22.1" state 22.13; "22.14" does not, see :func:`~mmtsb_env.values.numbers.rounds_to`);
numbers in words count ("two of your cards"). Other facts match after
:func:`~.similarity.canonical_text` (dates and times in any common form, amounts with or without
currency and separators, case) as whole words. Whether a stated value is *wrong* is not decided
here but by :mod:`.grounding` (nothing true supports it).

>>> claim_status("22.13", ["Lumen Hardware was more expensive at $22.13 (Pine Street Books: $20.51)."])
'stated'
>>> claim_status("Lumen Hardware", ["It was maybe Pine Street Books or Lumen Hardware."])
'hedged'
>>> claim_status("22.13", [", ".join(f"{10 + i / 10:.1f}" for i in range(300))])
'carpet'
>>> claim_status("13.48", ["The total is $13.48 / $13.84 / $18.43."]), claim_status("13.48", ["Total: $13.48."])
('hedged', 'stated')
>>> claim_status("13.48", [" ".join(f"The amount is {x:.2f}." for x in (13.2, 13.48, 13.76))])
'hedged'
>>> rivals = ["Pine Street Books"]
>>> claim_status("Lumen Hardware", ["Lumen Hardware $22.13. Pine Street Books $20.51."], rivals=rivals)
'hedged'
>>> claim_status("Lumen Hardware", ["Pine Street Books was $20.51 and Lumen Hardware $22.13, so Lumen Hardware cost more."], rivals=rivals)
'stated'
>>> claim_status("2026-05-02", ["The Night Market (May 2, 2026) is earlier."]), claim_status("9.00", ["Parking: $9"])
('stated', 'stated')
>>> claim_status("2", ["You have two cards."]), claim_status("2024-04-25T22:59:00", ["On 25 April 2024 at 22:59."])
('stated', 'stated')
>>> claim_status("2024-02-25T15:58:08", ["On 25 February 2024 at 3:58 PM."])
'stated'
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..textcache import text_cache
from .similarity import DEFAULT_TOLERANCES, Tolerances, as_number, canonical_dates, canonical_text, numbers_close, text_contains
from ..values.dates import yearless_dates
from ..values.numbers import rounding_of, rounds_to, without_title_numbers

_NUM_IN_TEXT = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|\.\d)")
# a number as a value: not part of a word, code, date or time
_VALUE = re.compile(r"(?<![\w.\-/:])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|\.\d|[:/\-]\d)")
_DATE_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}) \d{2}:\d{2}(?::\d{2})?$")
_DAY_IN_TEXT = re.compile(r"(?<![\d-])(\d{4}-\d{2}-\d{2})(?![\d-])((?:,?\s+(?:at\s+)?)\d{2}:\d{2})?")
_TO_THE_MINUTE = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}):\d{2}$")
_DATE_OR_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?\b|(?<![\d:])\d{2}:\d{2}(?::\d{2})?(?![\d:])")
# Between two numbers of a carpet: only separators, currency marks and "and"/"to" (not "-" or "/":
# phone numbers and dates are single values).
_CARPET_GAP = re.compile(r"^(?:[\s,;:|()\[\]$€£¥₹₩%*+]|\.\.\.|…|\band\b|\bto\b)*$", re.IGNORECASE)
# Between two candidates of a list or range: separators, currency marks, "or", "and", "to", "-", "/".
_LIST_GAP = re.compile(r"^(?:[\s,;:|/$€£¥₹₩%*+\-–—~]|usd|eur|gbp|\.\.\.|…|\band\b|\bor\b|\bto\b|\bbetween\b)*$",
                       re.IGNORECASE)
# (with the commonest words of doubt and alternative of French, German, Spanish, Italian and
# Portuguese: a reply in English that slips "ou peut-être Y" or "oder Y" offers Y all the same)
FOREIGN_DOUBTS = ("peut-être", "peut-etre", "peut être", "peut etre", "vielleicht", "wahrscheinlich", "eventuell",
                  "quizás", "quizas", "quizá", "quiza", "tal vez", "a lo mejor", "probablemente", "probablement",
                  "forse", "talvez", "possivelmente")
FOREIGN_ALTERNATIVES = ("ou", "oder", "entweder", "oppure", "ou bien", "soit", "o bien")
HEDGES = ("maybe", "perhaps", "possibly", "probably", "might", "either", "or", "unsure", "not sure", "not certain",
          "can't tell", "cannot tell", "hard to tell", "i think", "i guess", "i believe", "could be", "somewhere between",
          *FOREIGN_DOUBTS, *FOREIGN_ALTERNATIVES)
# hedges only about the value they stand next to (not "friend or coworker")
ALTERNATIVES = ("either", "or", *FOREIGN_ALTERNATIVES)
_HEDGE = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(h) for h in HEDGES) + r")(?!\w)")
_DOUBT = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(h) for h in HEDGES if h not in ALTERNATIVES) + r")(?!\w)")
_ALTERNATIVE = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(h) for h in ALTERNATIVES) + r")(?!\w)")
_OPENS_ALTERNATIVE = re.compile(r"^(?:" + "|".join(re.escape(h) for h in ALTERNATIVES) + r")(?!\w)")
_NOT_ALTERNATIVE = re.compile(r"\b(?:whether or not|either way|or so|or not|or other|or edits?|or changes?)\b")
_SENTENCE = re.compile(r"([.!?](?=\s|$)|(?<!\d)[.!?](?!\d)|\n)")
_ABBREVIATION = re.compile(r"(?:\b(?:vs|e\.g|i\.e|approx|no|inc|st|dr|mr|mrs|ms|jr|sr|co|ltd|etc|ave|apt)|\b[A-Za-z])$",
                           re.IGNORECASE)
# Clause boundaries; the clause after a "context" boundary (or inside parentheses) only gives context.
_CONTEXT_OPENERS = r"vs\.?|versus|than|compared (?:to|with)|while|whereas|unlike|not|instead of|rather than|against"
_CLAUSE_SPLIT = re.compile(rf"(\(|\)|;|,?\s+(?:but|so|and so|which|{_CONTEXT_OPENERS})\b|,\s+)", re.IGNORECASE)
_CONTEXT_START = re.compile(rf"^(?:\(|,?\s*(?:{_CONTEXT_OPENERS})\b)", re.IGNORECASE)
_SELECTION = re.compile(
    r"\b(?:more|less|most|least|higher|lower|highest|lowest|bigger|biggest|larger|largest|smaller|smallest|cheaper"
    r"|cheapest|pricier|priciest|expensive|earlier|earliest|later|latest|sooner|soonest|first|greater|greatest"
    r"|fewer|fewest|longer|longest|shorter|shortest|closest|nearest|winner|answer|best|it[’']s|it is|that'?s|that is"
    r"|is the one|the one|matches|correct)\b", re.IGNORECASE)


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


_STRUCK = re.compile(r"~~(?!\s)(?:(?!~~).)*?~~|<(del|s|strike)>.*?</\1>", re.IGNORECASE | re.DOTALL)
_AMOUNT = r"[$€£¥₹]?\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|[$€£¥₹]))?"
# a value followed by a parenthesis that corrects it: "$22.31 (sorry, typo: $22.13)", "41 (I mean 14)"
_INLINE_FIX = re.compile(r"(?<![\w.])" + _AMOUNT + r"\s*\(\s*(?:sorry|oops|whoops|my bad|correction|typo|i mean|i meant|"
                         r"should be|should read|read)\b[^()\d$€£¥₹]*(" + _AMOUNT + r")\s*\)", re.IGNORECASE)


def as_read(text: str) -> str:
    """A reply or written text as it reads: struck-out text ("~~$22.31~~ $22.13", "<del>...</del>")
    says nothing, and a value a parenthesis corrects ("$22.31 (sorry, typo: $22.13)") is the
    corrected one.

    >>> as_read("It was ~~Pine~~ Lumen."), as_read("Total: $22.31 (sorry, typo: $22.13).")
    ('It was   Lumen.', 'Total: $22.13.')
    """
    text = _STRUCK.sub(" ", text)
    return _INLINE_FIX.sub(lambda m: m.group(1), text)


def numbers_in(text: str) -> list[str]:
    """The numbers written in a text, as they appear (``"$1,234.50"`` gives ``"1,234.50"``)."""
    return _NUM_IN_TEXT.findall(text)


@text_cache(maxsize=8192)
def _values(text: str) -> tuple[tuple[int, int, str], ...]:
    """``(start, end, raw)`` of the numbers ``text`` states as values, with number words read as
    digits and the numbers inside dates and times left out (positions in the canonical text)."""
    t = _DATE_OR_TIME.sub(lambda m: " " * len(m.group(0)), _canon(text))
    return tuple((m.start(), m.end(), m.group(0)) for m in _VALUE.finditer(t))


@text_cache(maxsize=8192)
def _canon(text: str) -> str:
    # two amounts joined by a slash ("$204.60/218.92") are two values (dates and fractions are whole numbers)
    return re.sub(r"(\d\.\d+)/(?=[$€£¥₹]?\d)", r"\1 / ", canonical_dates(text))


def _matches(fact_value: float, raw: str, integral: bool, read: float = 0.0) -> bool:
    if read and abs(float(raw.replace(",", "")) - fact_value) <= read + 1e-9:  # a reading within the scenario's tolerance
        return True
    if integral and "." not in raw:  # counts exactly; a large whole number may be rounded to tens, hundreds...
        return float(raw.replace(",", "")) == fact_value or (abs(fact_value) >= 100 and rounds_to(raw, fact_value))
    return rounds_to(raw, fact_value)


def _matching(fact: str, text: str, read: float = 0.0) -> list[tuple[int, int, str]]:
    """The numbers of ``text`` that state numeric ``fact``: the fact rounded as they are written,
    or (``read``: the scenario's read tolerance for it) a reading within that tolerance."""
    value = as_number(fact)
    assert value is not None
    integral = "." not in fact
    return [v for v in _values(text) if _matches(value, v[2], integral, read)]


def readings(fact: str, text: str, read: float, allowed: Iterable[float] = (), titles: Sequence[str] = (),
             shown: Iterable[float] = ()) -> list[str]:
    """The different answers ``text`` gives as readings of numeric ``fact`` within its read
    tolerance ``read`` (other asked-for values ``allowed`` aside, and the numbers of ``titles`` --
    "Week 39", "Bakery Sales 2025" -- masked; a reading and its own rounding, "17.6 (about 18)",
    are one answer). More than one is a spray of guesses, not an answer: a tolerance accepts one
    careful reading, never several.

    >>> readings("17.8", "The bar is at 17.6 (about 18).", 0.2), readings("17.8", "17.6, 17.8 or 18.0", 0.2)
    (['17.6'], ['17.6', '17.8', '18.0'])
    >>> readings("40", "Budget App: 40 hours in Hours Logged - Week 39.", 1.0, titles=["Hours Logged - Week 39"])
    ['40']
    >>> readings("1,520", "Sum: 1,500.", 50, allowed=[1463]), readings("1,520", "Sum: 1,480.", 50, allowed=[1463])
    (['1,500'], [])
    """
    value = as_number(fact)
    if value is None or not read:
        return []
    asked = [a for a in allowed if not math.isclose(a, value)]
    skip = asked + [a for a in shown if not math.isclose(a, value)]  # other values, stated as themselves
    t = without_title_numbers(mask_titles(text, titles))
    stated = {float(raw.replace(",", "")) for _, _, raw in _values(t)}
    # another value asked for that the text does not state as such may be what a nearby number
    # reads: a number within the tolerance of both reads the one it is nearer (a tie: the other)
    pending = [a for a in asked if not any(math.isclose(a, x) for x in stated)]

    def nearer_other(x: float) -> bool:
        return any(abs(x - a) <= min(read, abs(x - value)) for a in pending)

    raws = list(dict.fromkeys(raw for _, _, raw in _matching(fact, t, read)
                              if not any(math.isclose(float(raw.replace(",", "")), a) for a in skip)
                              and (_matches(value, raw, "." not in fact) or not nearer_other(float(raw.replace(",", ""))))))
    return [r for r in raws if not any(rounding_of(r, o) for o in raws)]


def mask_titles(text: str, titles: Sequence[str]) -> str:
    """``text`` with each title that holds a number blanked out (case-insensitively): a title's own
    numbers ("Tray 3", "Week 39", "Sales 2025") are not values."""
    for title in sorted({t for t in titles if re.search(r"\d", t) and re.search(r"[A-Za-z]", t)}, key=len, reverse=True):
        text = re.sub(re.escape(title), " ", text, flags=re.IGNORECASE)
    return text


def states(fact: str, text: str, read: float = 0.0) -> bool:
    """Whether ``text`` states ``fact`` as a value: a number rounded to the precision written
    (:func:`~mmtsb_env.values.numbers.rounds_to`) or within its read tolerance ``read`` (the scenario's, for a value
    read off a chart's axis), other facts as :func:`fact_in_text` finds them. The judge's test.

    >>> states("22.13", "about $22"), states("22.13", "22.14"), states("2", "two cards")
    (True, False, True)
    """
    fact = str(fact)
    if re.fullmatch(r"\d{7,}", fact) and fact in _digit_strings(text):  # a phone number or code, in any written form
        return True
    if as_number(fact) is not None:
        return bool(_matching(fact, text, read))
    return fact_in_text(fact, text)


_PHONE = re.compile(r"(?<![\w])(?:\+?1[\s.-]?)?\(?(\d{3})\)?[\s.-]?(\d{3})[\s.-]?(\d{4})(?![\w])")


def _digit_strings(text: str) -> set[str]:
    """The long digit strings of a text: plain, and phone numbers as written ("(977) 630-1663")."""
    return set(re.findall(r"(?<![\w.])\d{7,}(?!\w|\.\d)", text)) | {"".join(m.groups()) for m in _PHONE.finditer(text)}


def fact_in_text(fact: str, text: str, tol: Tolerances = DEFAULT_TOLERANCES) -> bool:
    """Whether ``text`` mentions ``fact``: numbers by value within the reply tolerance (1 %;
    integers exactly), other facts as normalised text. A lenient test of a mention (the scripted
    user's); the judge asks :func:`states` and :func:`claim_status`.

    >>> fact_in_text("$18.53", "The total was 18.53 dollars"), fact_in_text("9.00", "Parking: $9")
    (True, True)
    >>> fact_in_text("Night Market", "the night  market is first"), fact_in_text("12", "it costs 120")
    (True, False)
    """
    fact = str(fact)
    value = as_number(fact)
    if value is not None:
        integral = "." not in fact
        return any(numbers_close(value, float(raw.replace(",", "")), tol, integral=integral and "." not in raw)
                   for _, _, raw in _values(text))
    if text_contains(fact, text) or normalise(fact) in normalise(text):
        return True
    minute = _TO_THE_MINUTE.match(canonical_text(fact))  # a time said to the minute states its seconds
    if minute is not None and text_contains(minute.group(1), text):
        return True
    day = _DATE_TIME.match(canonical_text(fact))  # a date-time said to the day: rounded, like "$22" for 22.13
    if day is not None and any(m.group(1) == day.group(1) and not m.group(2) for m in _DAY_IN_TEXT.finditer(canonical_text(text))):
        return True
    return said_without_year(fact, text)


def said_without_year(fact: str, text: str) -> bool:
    """Whether ``text`` gives date ``fact`` (ISO, or an ISO date-time said to the day) by month and
    day without its year ("June 5", "Fri 5 Jun", "Friday, June 5th"): people leave out the year of
    a date in the year they speak of. A weekday, when given, must be the date's own.

    >>> said_without_year("2026-06-05", "on Friday, June 5 at 15:30"), said_without_year("2026-06-05", "Fri 5 Jun")
    (True, True)
    >>> said_without_year("2026-06-05", "Thu 5 Jun"), said_without_year("2026-06-05", "June 15"), said_without_year("2026-06-05", "June 5, 2025")
    (False, False, False)
    """
    import datetime as dt

    m = re.match(r"^(\d{4})-(\d{2})-(\d{2})(?:[ t]\d{2}:\d{2}(?::\d{2})?)?$", canonical_text(fact))
    if m is None:
        return False
    try:
        date = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return False
    t = unicodedata.normalize("NFKC", text).casefold()
    return any(month == date.month and day == date.day and (weekday is None or weekday == date.weekday())
               for weekday, month, day in yearless_dates(t))


@dataclass(frozen=True)
class ClaimRules:
    carpet_run: int = 6  # this many numbers in a row with only separators between them
    carpet_max: int = 40  # or more distinct numbers than this in one reply


DEFAULT_RULES = ClaimRules()


_ROW_NUMBER = re.compile(r"^(\s*\|\s*)(\d{1,3})(\s*\|)")  # a table row's first cell: "| 2 | ..."
_LIST_NUMBER = re.compile(r"^(\s*)(\d{1,3})([.)])(?=\s)")  # a numbered list's line: "2. ..."
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")  # the line under a table's header: "|---|---|"
_NUMBER_HEADER = re.compile(r"^\s*\|\s*(?:#|no\.?|nr\.?|n|row|)\s*\|", re.IGNORECASE)  # "| # | Item |"


def unnumbered(text: str) -> str:
    r"""``text`` without the numbers that only count its lines: a markdown table's row-number column
    ("| 1 | Larkspur Consulting | 2026-05-26 |") and a numbered list's markers ("1. ..."). A column
    is a row-number column when its header is "#", "No." or empty, or when two or more rows run 1,
    2, 3... (or 0, 1, 2...); a list's markers when its lines run so from 1 ("1. 3" is a list of one). Row numbers are no
    values: "| 3 | Mon | 5 |" claims neither 3 nor a third candidate. A list's markers become
    bullets.

    >>> unnumbered("| # | Item |\n|---|---|\n| 1 | Lumen |")
    '| # | Item |\n|---|---|\n|   | Lumen |'
    >>> unnumbered("| Item | Count |\n|---|---|\n| 1 | Lumen |\n| 2 | Pine |")
    '| Item | Count |\n|---|---|\n|   | Lumen |\n|   | Pine |'
    >>> unnumbered("1. Lumen\n2) Pine"), unnumbered("3 people."), unnumbered("| Day | Count |\n|---|---|\n| 4 | Mon |")
    ('- Lumen\n- Pine', '3 people.', '| Day | Count |\n|---|---|\n| 4 | Mon |')
    """
    if not re.search(r"^\s*\|?\s*\d", text, re.MULTILINE):
        return text
    lines = text.split("\n")

    def cell(m: re.Match[str]) -> str:
        return m.group(1) + " " * len(m.group(2)) + m.group(3)

    for k, line in enumerate(lines):  # tables whose first column is headed as a row number
        if k and _TABLE_RULE.match(line) and _NUMBER_HEADER.match(lines[k - 1]):
            j = k + 1
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                lines[j] = _ROW_NUMBER.sub(cell, lines[j], count=1)
                j += 1
    for pattern, blank in ((_ROW_NUMBER, cell), (_LIST_NUMBER, lambda m: m.group(1) + "-")):
        runs: list[list[tuple[int, int]]] = []
        for i, line in enumerate(lines):
            m = pattern.match(line)
            if m is None:
                continue
            n = int(m.group(2))
            if runs and n == runs[-1][-1][1] + 1:
                runs[-1].append((i, n))
            elif n in (0, 1):
                runs.append([(i, n)])
        for run in runs:
            if len(run) >= 2 or pattern is _LIST_NUMBER and run[0][1] == 1:
                for i, _ in run:
                    lines[i] = pattern.sub(blank, lines[i], count=1)
    return "\n".join(lines)


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


def sentences(text: str) -> list[str]:
    """The statements of a text (questions -- sentences ending in "?" -- are not statements); a
    full stop after an abbreviation ("vs.", "St.") or inside a number ends nothing."""
    out, start = [], 0
    for m in _SENTENCE.finditer(text):
        if m.group(0) == "." and _ABBREVIATION.search(text[start:m.start()]):
            continue
        part = text[start:m.start()].strip()
        if part and m.group(0) != "?":
            out.append(part)
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def hedges(text: str) -> bool:
    """Whether a text offers alternatives or doubt (one of :data:`HEDGES`)."""
    return _HEDGE.search(canonical_text(text)) is not None


def hedges_about(fact: str, sentence: str, read: float = 0.0) -> bool:
    """Whether a statement of ``fact`` offers doubt about it: a word of doubt anywhere in the
    sentence ("maybe", "I think"), or an alternative ("or", "either") in the clause that states the
    fact or in a clause next to it that opens with one ("Lumen, or Pine"); an "or" elsewhere in
    the sentence ("11 labels, such as friend or coworker") is about something else.

    >>> hedges_about("11", "You have 11 labels, such as friend or coworker."), hedges_about("11", "Maybe 11.")
    (False, True)
    >>> hedges_about("Lumen", "Lumen, or maybe Pine."), hedges_about("Lumen", "Lumen, or Pine."), hedges_about("Lumen", "Lumen, as I said or wrote.")
    (True, True, False)
    """
    c = canonical_text(sentence)
    if _DOUBT.search(c):
        return True
    parts = [canonical_text(clause) for clause, _ in clauses(sentence)]
    for k, part in enumerate(parts):
        if not states(fact, part, read):
            continue
        near = [part] + [p for p in parts[max(0, k - 1):k + 2] if p != part and _OPENS_ALTERNATIVE.match(p)]
        if any(_ALTERNATIVE.search(_NOT_ALTERNATIVE.sub(" ", p)) for p in near):
            return True
    return False


_NEGATION = re.compile(r"\b(?:no|not|isn'?t|wasn'?t|aren'?t|never|instead of|rather than)\b")
_WORD_LIST_GAP = re.compile(r"\s*(?:/|;|,|\||&|\bor\b|\band\b|\bplus\b|\bas well as\b)\s*")
_CALENDAR = (("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
             ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december"))


_PICKS_FROM = re.compile(r"^\W*(?:between|of|out of|comparing|from)\b", re.IGNORECASE)


def in_text_list(fact: str, text: str, exclude: Sequence[str] = (), pools: Sequence[Sequence[str]] = (),
                 rivals: Sequence[str] = ()) -> bool:
    """Whether text ``fact`` stands in ``text`` in a bare list with another reading of it, another
    member of its pool (weekdays, months, a generator pool) or one of its ``rivals`` (the other
    candidates of its kind the answer does not hold): "Lumen Hardware / Lumin Hardware",
    "Monday / Tuesday / ... / Sunday", "Removed A, B and C" when C was not one of them. Items that
    are other asked-for values (``exclude``) are fine.

    >>> in_text_list("Lumen Hardware", "Lumen Hardware / Lumin Hardware was more expensive.")
    True
    >>> in_text_list("Sunday", "Today is Monday, Tuesday, Wednesday or Sunday."), in_text_list("Sunday", "It's Sunday, and sunny.")
    (True, False)
    >>> in_text_list("Blue Door Cafe", "Blue Door Cafe, total $13.48")
    False
    >>> in_text_list("Lumen", "Between Pine and Lumen, the answer is Lumen.", rivals=["Pine"]), in_text_list("Lumen", "Pine and Lumen.", rivals=["Pine"])
    (False, True)
    """
    key = " ".join(re.sub(r"[^\w\s]", " ", canonical_text(fact)).split())
    if not key or as_number(fact) is not None or not re.search(r"[a-z]{3}", key):  # names, not dates or codes
        return False
    n = len(key.split())
    def plain(x: str) -> str:
        return " ".join(re.sub(r"[^\w\s]", " ", canonical_text(x)).split())

    mates = {plain(p) for pool in [*pools, *_CALENDAR] if key in {plain(x) for x in pool} for p in pool}
    mates.discard(key)
    allowed = {plain(x) for x in exclude}
    others = [r for r in (plain(x) for x in rivals) if r and r != key and r not in allowed]
    for sentence in sentences(text):
        if _PICKS_FROM.search(sentence) and any(
                text_contains(fact, c) and _SELECTION.search(c) and not any(text_contains(r, c) for r in rivals)
                for c, context in clauses(sentence) if not context):
            continue  # "Between Pine and Lumen, the answer is Lumen": the list is what the choice is made from
        items = [plain(p) for p in _WORD_LIST_GAP.split(canonical_text(sentence))]
        for k, item in enumerate(items):
            if not re.search(r"(?<![0-9a-z])" + re.escape(key) + r"(?![0-9a-z])", item):
                continue
            if others and _bare(item, key) and any(_names_in(items, k, step, others) for step in (-1, 1)):
                return True  # a rival listed with it
            for j in (k - 1, k + 1):
                if not 0 <= j < len(items) or not items[j]:
                    continue
                words = re.sub(r"[^\w\s]", " ", items[j]).split()
                if len(words) > n + 1 and not (j == 0 or j == len(items) - 1) or _NEGATION.search(items[j]):
                    continue  # a clause of its own, not an item of the list; a correction ("no project called X")
                window = " ".join(words[:n] if j > k else words[-n:])
                if window == key or window in allowed or any(window.startswith(a) or window.endswith(a) for a in allowed if a):
                    continue
                bare = not re.search(r"\d", item + items[j])  # "Keyboard cleaning: $39.00; Battery swap: $39.00" are records
                if (bare and window in mates) or _misreading(key, window):
                    return True
    return False


_LIST_ITEM_WORDS = 6  # an item of a bare list of names is this short; a longer one is a clause


def _bare(item: str, name: str) -> bool:
    """Whether list item ``item`` is just ``name``, with at most two words of its sentence around
    it and no number ("removed a", "c and d"): a name listed, not a record ("Pine was $20.51")."""
    return not re.search(r"\d", item) and len(item.split()) <= len(name.split()) + 2


def _names_in(items: list[str], k: int, step: int, names: Sequence[str]) -> bool:
    """Whether the bare list around item ``k`` (walking by ``step`` while the items stay short and
    say no "not") holds one of ``names``: the whole item, or its start/end at the list's edge
    ("removed a", "b", "c and d")."""
    j = k + step
    while 0 <= j < len(items) and items[j] and not _NEGATION.search(items[j]):
        item = items[j]
        if any(item == r or _bare(item, r) and (item.startswith(r + " ") if step > 0 else item.endswith(" " + r)) for r in names):
            return True
        if len(item.split()) > _LIST_ITEM_WORDS:
            return False
        j += step
    return False


def _misreading(key: str, other: str) -> bool:
    """Whether ``other`` reads like a misreading of name ``key``: as many words, each alike in
    spelling ("Lumin Hardware", "Lumen Hardwares", "Indigo Gate Tailor", "Blue Dog Cafe"), and
    not words that merely share a surname ("Odessa Lindqvist", "Leandro Lindqvist")."""
    import difflib

    a, b = key.split(), other.split()
    if len(a) != len(b) or a == b or len(key) < 5:
        return False
    return all(x == y or difflib.SequenceMatcher(None, x, y).ratio() >= 0.55 for x, y in zip(a, b))


def near_values(fact: str, text: str, allowed: Iterable[float] = (), read: float = 0.0) -> list[str]:
    """The whole numbers ``text`` states within 2 of numeric ``fact`` that do not state it and are
    not other asked-for values: "9 ... 10 ... 11 ... 12" around a count of 11, "$12 ... $13 ...
    $14" around 13.38."""
    value = as_number(fact)
    if value is None:
        return []
    allowed = list(allowed)
    out = []
    for _, _, raw in _values(text):
        if "." in raw or _matches(value, raw, "." not in fact, read):
            continue
        v = float(raw.replace(",", ""))
        if 0 < abs(v - value) <= 2 and not any(math.isclose(v, a) for a in allowed) and raw not in out:
            out.append(raw)
    return out


def in_candidate_list(fact: str, text: str, allowed: Iterable[float] = (), read: float = 0.0) -> bool:
    """Whether numeric ``fact`` stands in ``text`` in a bare list or range with another number that
    is not ``allowed`` (the other values asked for): "$13.48 / $13.84", "between 13 and 14"."""
    allowed = list(allowed)
    values = _values(text)
    t = _canon(text)
    hits = {v for v in _matching(fact, text, read)}
    for i, v in enumerate(values):
        if v not in hits:
            continue
        for j in (i - 1, i + 1):
            if not 0 <= j < len(values):
                continue
            w = values[j]
            gap = t[w[1]:v[0]] if j < i else t[v[1]:w[0]]
            other = float(w[2].replace(",", ""))
            if _LIST_GAP.match(gap) and not any(rounds_to(w[2], a) for a in allowed):
                if w not in hits and not (other.is_integer() and other <= 31 and "." not in w[2] and "." in v[2]):
                    return True
    return False


def sprays(text: str, fact: str | None = None, read: float = 0.0, allowed: Iterable[float] = ()) -> bool:
    """Whether ``text`` makes one single-value statement with different values ("The amount is X."
    repeated with several X, some not small whole numbers, or one of them ``fact``). Statements whose
    values are all asked for (``allowed``: "- 2.01 kg" and "- 1.02 kg", two items' weights) are a list."""
    seen: dict[str, set[str]] = {}
    for sentence in sentences(text):
        values = _values(sentence)
        if len(values) != 1:  # a claim of one value; sentences with several numbers are records
            continue
        t = _canon(sentence)
        template, last = [], 0
        for start, end, _ in values:
            template.append(t[last:start])
            last = end
        template.append(t[last:])
        key = "#".join(template).strip()
        if not re.search(r"[a-z]", key):
            continue
        seen.setdefault(key, set()).add("|".join(raw for _, _, raw in values))
    value = as_number(fact) if fact is not None else None
    allowed = list(allowed)
    for variants in seen.values():
        raws = [x for v in variants for x in v.split("|")]
        if allowed and all(any(rounds_to(x, a) for a in allowed) for x in raws):
            continue
        if len(variants) > 1 and value is not None and any(_matches(value, x, "." not in str(fact), read) for x in raws):
            return True
        if len(variants) > 1 and any(not (float(x.replace(",", "")).is_integer() and float(x.replace(",", "")) <= 31)
                                     for v in variants for x in v.split("|")):
            return True
    return False


def clauses(text: str) -> list[tuple[str, bool]]:
    """``(clause, is_context)`` of a text's statements: split at ``;``, commas, parentheses and
    connectives; a clause in parentheses or opened by "vs", "than", "while", "not", ... is context."""
    out: list[tuple[str, bool]] = []
    for sentence in sentences(text):
        parts = _CLAUSE_SPLIT.split(sentence)
        depth, context = 0, False
        for k, part in enumerate(parts):
            if k % 2 == 1:  # a boundary
                if part == "(":
                    depth += 1
                elif part == ")":
                    depth = max(0, depth - 1)
                context = depth > 0 or bool(_CONTEXT_START.match(part))
                continue
            if part.strip():
                out.append((part.strip(), context or depth > 0))
    return out


def _template(clause: str) -> str:
    """What a clause says about the candidate it names: the clause with candidates and numbers masked."""
    t = re.sub(r"qqcand\d+qq", "#", clause)
    t = re.sub(r"\d+(?:\.\d+)?", "#", t)
    return re.sub(r"\W+", " ", t).strip()


def _masked(text: str, names: Sequence[str]) -> str:
    """The canonical text with each name replaced by a token ``qqcand<i>qq`` (``i``: its index)."""
    t = canonical_text(text)
    for i, name in sorted(enumerate(names), key=lambda p: -len(p[1])):
        key = canonical_text(name)
        if key:
            t = re.sub(r"(?<![0-9a-z.])" + re.escape(key) + r"(?![0-9a-z]|\.\d)", f"qqcand{i}qq", t)
    return t


def asserts(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` outside context (parentheses, "vs", "than"... clauses): the
    reference reply asserting a candidate makes it part of the answer, not a rival."""
    return bool(text) and any(text_contains(name, clause) for clause, context in clauses(text) if not context)


# a clause that only names a candidate and says it shares what was said before ("X too", "also X",
# "same for X", "X as well")
_SHARES = re.compile(r"^(?:and |or |plus )?(?:also |same (?:for|with|goes for) |likewise )?(?:the )?qqcand\d+qq"
                     r"(?: (?:too|as well|also|likewise))?[.!]?$")


def _shares(clause: str) -> bool:
    return bool(_SHARES.match(clause)) and bool(re.search(r"\b(?:too|as well|also|likewise|same)\b", clause))


_NOT_A_CHOICE = {"it's", "its", "it is", "that's", "thats", "that is", "the one", "is the one", "correct", "matches", "answer",
                 "winner", "first"}
_ANSWERING = re.compile(r"\b(?:it[’']s|its(?= (?:the )?qqcand)|it is|that'?s|that is|the answer|winner|is the one)\b", re.IGNORECASE)


def commits_among(fact: str, text: str, rivals: Sequence[str], asked: str = "", also: Sequence[str] = ()) -> bool | None:
    """For a choice: ``True`` when ``text`` asserts ``fact`` and no rival as firmly, ``False`` when it
    says of a rival what it says of the fact (same clause with the names and numbers masked:
    "Lumen Hardware $22.13. Pine Street Books $20.51.") and makes no choice only the fact gets
    (a clause with a selection word: "so Lumen cost more"), or names the fact only together with
    rivals; ``None`` when it names no rival. What a text says differently of a rival is context
    ("Added Jovan. Isadora is already in your contacts."). A rival's own clause that answers
    ("it's", "the answer") or makes the choice asked for (a selection word of ``asked``, the
    reference reply: "The more expensive one was Pine") asserts it however the fact is worded;
    ``also``: candidates the reference reply names too (saved, listed), judged only by that test."""
    named = [r for r in rivals if text_contains(r, text)]
    extra = [r for r in also if r not in named and text_contains(r, text)]
    if not named and not extra:
        return None
    t = _masked(text, [fact, *named, *extra])
    firm = {f"qqcand{i}qq" for i in range(1, len(named) + 1)}
    chosen = {w.lower() for w in _SELECTION.findall(canonical_text(asked))} - _NOT_A_CHOICE
    own, other = [], set()
    for clause, context in clauses(t):
        has_fact = "qqcand0qq" in clause
        tokens = set(re.findall(r"qqcand[1-9]\d*qq", clause))
        if has_fact and not tokens & firm:
            own.append((_template(clause), clause))
        elif tokens and not has_fact and not context:
            if _ANSWERING.search(clause) or chosen & {w.lower() for w in _SELECTION.findall(clause)}:
                return False
            if tokens & firm and _shares(clause):
                return False  # "Fennel Corner Laundromat too.": the rival gets the fact's claim
            if tokens & firm:
                other.add(_template(clause))
    if not named:
        return None
    if not own:
        return False
    if not other & {tpl for tpl, _ in own}:
        return True
    return any(tpl not in other and _SELECTION.search(c) for tpl, c in own)


def slashed(fact: str, text: str, rivals: Sequence[str]) -> bool:
    """Whether ``text`` joins ``fact`` and one of its ``rivals`` with a slash ("Riverside Jazz
    Night/Garden Charity Run", "Pine / Lumen"): both named as one answer, which commits to neither.

    >>> slashed("Lumen", "It was Lumen/Pine.", ["Pine"]), slashed("Lumen", "Lumen (Pine / Oak were cheaper).", ["Pine"])
    (True, False)
    """
    named = [r for r in rivals if text_contains(r, text)]
    if not named:
        return False
    t = _masked(text, [fact, *named])
    return re.search(r"qqcand0qq\s*/\s*qqcand[1-9]|qqcand[1-9]\d*qq\s*/\s*qqcand0qq", t) is not None


_CORRECTION = re.compile(r"\b(?:correction|correcting|i was wrong|i got (?:it|that) wrong|my mistake|(?:my )?apologies|"
                         r"sorry|i misread|misread|mis-read|i made an error|was incorrect|was wrong|i said earlier|"
                         r"earlier i said|i should have said|to correct)\b")


def acknowledges_correction(text: str) -> bool:
    """Whether a text says it corrects something said before ("Correction: ...", "Sorry, I misread
    it", "Actually, it is ...")."""
    return _CORRECTION.search(canonical_text(text)) is not None


def said_alike(sentence: str, names: Sequence[str]) -> str:
    """What a sentence says with the candidates ``names`` and all numbers masked: two sentences
    alike say the same thing of different candidates ("X is the first event.")."""
    return _template(_masked(sentence, list(names)))


# a clause reporting what was said before ("earlier I said X", "I told you X", "my first answer"):
# it states nothing now
_REPORTED = re.compile(r"\b(?:i|we) (?:said|told you|wrote|gave|reported|answered|stated|mentioned|compared)\b|"
                       r"\b(?:earlier|previously|originally|at first|before),? (?:i|we)\b|"
                       r"\bmy (?:earlier|previous|first|last) answer\b", re.IGNORECASE)


def states_outside_context(fact: str, text: str, read: float = 0.0) -> bool:
    """Whether ``text`` states ``fact`` in a clause that is not context (see :func:`clauses`) and
    does not report what was said before ("earlier I said X, but it was actually Y" states Y)."""
    return any(states(fact, clause, read) for clause, context in clauses(text) if not context and not _REPORTED.search(clause))


def asserts_other(fact: str, text: str, others: Sequence[str], read: float = 0.0) -> bool:
    """Whether ``text`` gives one of ``others`` (the rivals of ``fact``: other receipts, events,
    amounts) as a value without stating ``fact``: a rival in a clause that is not context (not in
    parentheses, not after "vs", "than", "not"...). Across rounds this is a second answer to the
    same question."""
    if not others or states_outside_context(fact, text, read):
        return False
    for clause, context in clauses(text):
        if context or _REPORTED.search(clause):
            continue
        if any(states(o, clause) if as_number(o) is not None else text_contains(o, clause) for o in others):
            return True
    return False


# Words that admit the values were not read at all: made up, guessed, picked at random, placeholders,
# the images not opened or not seen ("I didn't open the images, but: X", "X (I made this up.)").
# A reply holding one of :data:`_UNREAD` commits to none of its values; a guess or a hunch speaks of
# the values in its own sentence. Not reading is owned up to in the first person ("I didn't open the
# images", "Couldn't see the photos", "I skipped the photos"; "In case you can't open the images" is
# about the user) or about the images themselves ("The images didn't load"); "random" only as a way
# of choosing ("at random", "randomly picked"; "in random order" is no admission).
_IMAGES = r"(?:the |your |any |these |those |this |that )?(?:images?|photos?|pictures?|screenshots?|attachments?|scans?|screens?)"
_NOT_SEEN = (r"(?:did ?n[o'’]t|have ?n[o'’]t|has ?n[o'’]t|never|not|can'?’?t|cannot|could ?n[o'’]t|unable to) "
             rf"(?:actually |really |even )?(?:open|look(?:ed)? at|see|seen|read|check|view|access)\w* {_IMAGES}")
_UNREAD = (r"made (?:(?:this|it|that|these|them|those|all of (?:it|this)) )?up|made-up|fabricat\w*|"
           r"invent(?:ed|ing)\b|at random|random(?:ly)? (?:picked|chosen|chose|selected|generated|values?|numbers?|"
           r"figures?|guess\w*|picks?|choices?)|(?:picked|chose|chosen|selected|generated) (?:\w+ )?randomly|"
           r"placeholders?|(?:dummy|typical|example|sample|illustrative|fake) (?:values?|numbers?|figures?|amounts?)|"
           r"coin[- ]?flip|toss[- ]up|sight unseen|not (?:been )?(?:checked|verified|read off)|"
           rf"(?:i|we) (?:(?:have|had|am|was|were|really|actually|simply|just|honestly|also) )*{_NOT_SEEN}|^{_NOT_SEEN}|"
           rf"(?:i|we) (?:(?:have|had|just|simply) )*skipp?(?:ed|ing) (?:over |past )?{_IMAGES}|^skipp?(?:ed|ing) {_IMAGES}|"
           rf"without (?:looking at|opening|reading|seeing) {_IMAGES}|"
           rf"{_IMAGES} (?:did ?n[o'’]t|would ?n[o'’]t|wo ?n[o'’]t|never|failed to|could ?n[o'’]t) (?:load|open|come through|display|render|show up)")
_MADE_UP = (r"guess\w*|gut (?:says|feeling|tells)|my gut|hunch|instinct\w*|eyeball\w*|ballpark\w*|shot in the dark|"
            r"iirc|afaict|afaik|(?:pretty|fairly|reasonably) (?:sure|certain|confident)|if i['’]?m (?:reading|seeing|not mistaken)|"
            + _UNREAD)
# a value marked rough ("$523.77 (approx.)", "$523.77-ish")
_ROUGH = r"\(\s*approx\w*\.?\s*\)|(?<=\d)-?ish\b"
# Emoji that shrug, wonder, wince or gamble (matched on the raw text: they stand outside words: 🤷
# ¯\_(ツ)_/¯ 🤔 🎲 ❓ ❔ ⁉ 🤞 😬 😅 😕 🫤); beside a rival in parentheses a wink offers it too ("(Pine 😉)").
_DOUBT_MARKS = "\U0001F937\U0001F914\U0001F3B2\u2753\u2754\u2049\U0001F91E\U0001F62C\U0001F605\U0001F615\U0001FAE4"
_DOUBT_EMOJI = re.compile(rf"[{_DOUBT_MARKS}]|¯\\_\(ツ\)_/¯")
_WINK = re.compile(rf"[{_DOUBT_MARKS}\U0001F609\U0001F60F]|¯\\_\(ツ\)_/¯")
# A stated error margin makes an amount a range of readings ("$958.85 ± 5.00", "give or take $5",
# "more or less", "+/−5" with any minus sign, "∓", "margin of error", "within a couple of dollars");
# a margin denied is none ("not a cent more or less", "give or take nothing").
_MARGIN = re.compile(r"±|∓|\+\s?/\s?[-−–]|\+[-−–]\s*\$?\d|\bplus or minus\b|\bplus/minus\b|\bgive or take\b|"
                     r"\bmore or less\b|\bmargin of error\b|"
                     r"\b(?:to )?within (?:about |roughly |around )?(?:[$€£]?\d|(?:a |an )?(?:couple|few|several)\b)")
_NO_MARGIN = re.compile(r"\bnot (?:a|one) (?:single )?(?:cent|penny|dollar|bit) more or less\b|"
                        r"\bgive or take (?:nothing|zero|a thing|0)\b")


def _margins(text: str) -> list[str]:
    """The error margins ``text`` gives (see :data:`_MARGIN`), denied ones left out."""
    return [m.group(0) for m in _MARGIN.finditer(_NO_MARGIN.sub(" ", text.lower()))]


# Doubt words negated or outdone, blanked before :data:`_EPISTEMIC` looks ("Not a guess", "I'm not
# guessing", "nothing was misread", "No need to double-check", "I'm 100% sure", "placeholders
# replaced"); "not 100% sure" stays doubt, and "Guess what?" is no guess.
_NOT_DOUBT = re.compile(
    r"\b(?:not|no|never|without|isn['’]?t|wasn['’]?t|did ?n['’]?t|nothing)\s+(?:(?:was|is|got|been|were|gets) )?"
    r"(?:a |an |my |any |just |even |some )?(?:guess\w*|estimat\w*|doubt\w*|made up|random\w*|placeholders?|mis-?read\w*)\b|"
    r"\bplaceholders? (?:(?:text|values?) )?(?:(?:was|were|is|are|has been|have been|got|all) )?(?:replaced|removed|filled|swapped)\b|"
    r"\bguess what\b|"
    r"\bno (?:need|reason) to (?:double[- ]?check|re-?check|verify|check)\b|"
    r"(?<!not )(?<!n['’]t )\b(?:100|a hundred) ?(?:%|percent) (?:sure|certain|confident)\b")
# A value-less sentence that speaks of later or offers more work is not about the answer given
# ("Maybe later we can also tidy up your other notes.", "If you like, I could add a reminder.").
_OFFER = re.compile(r"\b(?:later|next time|another time|we can|we could|if you(?:'d)? (?:like|want|wish|prefer)|"
                    r"want me to|shall i|should i|i can also|i could also|happy to|let me know)\b")
# Nor is one about the user ("I guess you'll like it!", "You might want to bring cash.", "Looks like
# you're all set!", "Good luck with it 🤞"), unless it asks them to check the answer or admits not
# reading it (:data:`_CHECK_PLEA`).
_TO_USER = re.compile(r"\b(?:you|you['’](?:ll|re|d|ve)|good luck|enjoy|have fun|have a (?:great|good|nice|wonderful|lovely))\b")
_CHECK_PLEA = re.compile(r"\b(?:double[- ]?check|re-?check|verify|confirm|check|mis-?read\w*|not (?:\w+ )?sure|unsure|uncertain)\b")
# Words that make a statement an estimate rather than an answer: modality, likelihood, guessing,
# a plea to verify, admitted doubt (a reply holding one about its answer commits to nothing).
_EPISTEMIC = re.compile(
    r"\b(?:likely|probably|possibly|perhaps|maybe|apparently|seemingly|seems?|appears? to|presumably|"
    r"(?:my )?(?:best |educated )?" + _MADE_UP + r"|estimat\w*|i think|i believe|i suspect|"
    r"i['’]?d say|i would say|if i (?:remember|recall)|"
    r"(?:i hope|hopefully)(?! (?:this|that|it|the above) (?:helps|was helpful|is helpful))|"
    r"not (?:\d+ ?%|\d+ percent|entirely|completely|fully|quite|totally|absolutely|100 percent)? ?(?:sure|certain|confident)|"
    r"unsure|uncertain|double[- ]?check|may (?:be|have)|might|could (?:be|also|have)|i may|misread|mis-read|"
    r"hard to (?:read|tell|see|make out)|can'?t (?:tell|be sure)|cannot (?:tell|be sure)|if i read|"
    r"i reckon|reckon|assuming|(?:have ?n[o']t|not) (?:been able to )?verif\w*|unverified|unconfirmed|tentative\w*|"
    r"low confidence|confidence: low|can'?t be certain|cannot be certain|can'?t make out|cannot make out|"
    r"if memory serves|as far as i can tell|to the best of my knowledge|don'?t quote me|grain of salt|no guarantees?|"
    r"quick glance|don'?t rely|supposedly|looks like|too close to call|best effort|if the sign is current)\b|" + _ROUGH)
# Words that offer a named candidate as a possible answer beside the one stated.
_POSSIBLE = re.compile(r"\b(?:or|either|alternatively|also|too|as well|possib\w*|plausible|maybe|perhaps|might|could|"
                       r"may(?! \d)|likely|probabl\w*|contender|tied|equally|same as|guess|runner[- ]up (?:reading|answer|guess|pick|candidate)|"
                       r"backup|second choice|"
                       r"lean(?:ing)? towards?|too close to call|gut|hunch|instinct\w*|bet|wager|put money on|my money['’]?s on)\b")
# in parentheses, a word that offers what it names as a possible answer ("(Pine is close)", "(if not
# Pine)"); a parenthesis without one is context ("(Pine: $20.51)", "(May 3)")
_PAREN_POSSIBLE = re.compile(r"\b(?:or|either|alternatively|possib\w*|plausible|maybe|perhaps|might|could|likely|"
                             r"probabl\w*|close|equally|fits?|if not|coin flip|toss[- ]up|contender|tied|same as|guess|"
                             r"runner[- ]up (?:reading|answer|guess|pick|candidate))\b|\b50 ?/ ?50\b|\b\d{1,3} ?%[^/%]*/\s*\d{1,3} ?%")
# a label that gives what follows as the answer ("Final answer: X", "TL;DR: X", "Going with X")
_ANSWER_LABEL = re.compile(r"(?:\b(?:final answer|my answer|answer|tl;? ?dr|bottom line|in short|to sum up|in summary|"
                           r"verdict|conclusion|my pick|pick|backup answer|second choice|result|choice)[\"'_\w]*\s*[:=-]|\b(?:going|i'?ll go|"
                           r"i'?d go) with\b|\bon reflection\b,?|=>)", re.IGNORECASE)
_RETRACTS = re.compile(r"\b(?:correction|correcting|i was wrong|my mistake|earlier|before|previously|sorry|apolog\w*)\b")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s+")


def voices_doubt(sentence: str) -> bool:
    """Whether a sentence holds a word of estimate or doubt (:data:`_EPISTEMIC`, including an
    admission that the values were made up or not read, :data:`_MADE_UP`) or a doubting emoji, once
    negated and outdone doubt words are blanked (:data:`_NOT_DOUBT`).

    >>> [voices_doubt(s) for s in ("I guessed.", "Not a guess, I read it off the image.", "I'm 100% sure.", "I'm not 100% sure.")]
    [True, False, False, True]
    >>> [voices_doubt(s) for s in ("I didn't open the images, but: $5.", "No need to double-check.", "Done 🤷")]
    [True, False, True]
    """
    return bool(_EPISTEMIC.search(_NOT_DOUBT.sub(" ", canonical_text(sentence))) or _DOUBT_EMOJI.search(sentence))


def to_user(sentence: str) -> bool:
    """Whether a sentence stating no value speaks to or of the user, not of the answer ("I think
    you'll enjoy it!", "You could also add it to your calendar.", "Good luck with it 🤞"): it
    addresses them (:data:`_TO_USER`) and neither asks them to check the answer nor owns up to not
    reading it ("You may want to double-check it." speaks of the answer).

    >>> to_user("I guess you'll like it!"), to_user("You might want to double-check it."), to_user("I guessed.")
    (True, False, False)
    """
    if _values(re.sub(r"\d+ ?(?:%|percent)", " ", sentence)):
        return False
    c = _NOT_DOUBT.sub(" ", canonical_text(sentence))
    return bool(_TO_USER.search(c)) and not _CHECK_PLEA.search(c) and not re.search(rf"\b(?:{_UNREAD})", c)


def admissions(text: str) -> set[str]:
    """The marks by which a written text owns up that its values are not readings: made up,
    guessed, picked at random, placeholders, not checked (:data:`_MADE_UP`), a doubting emoji, an
    error margin ("$958.85 (guessed)", "$958.85 ± 5.00", "Lumen [made up]", "$958.85 🤷"), in any
    sentence but one speaking to the user (:func:`to_user`: "Good luck with it 🤞").

    >>> sorted(admissions("Pay $958.85 (guessed)")), sorted(admissions("Pay $958.85 ± 5.00")), admissions("Pay $958.85 ✓")
    (['guessed'], ['±'], set())
    >>> admissions("Receipts listed in random order. Placeholder text replaced with the real values. Good luck 🤞")
    set()
    """
    out: set[str] = set()
    for sentence in sentences(text) + [q for q in re.findall(r"[^.!?\n]*\?", text)]:
        if to_user(sentence):
            continue
        c = _NOT_DOUBT.sub(" ", canonical_text(sentence))
        out |= {m.group(0) for m in re.finditer(rf"\b(?:{_MADE_UP})|{_ROUGH}", c)} | set(_DOUBT_EMOJI.findall(sentence)) \
            | set(_margins(sentence))
    return out


def admits_unread(text: str) -> bool:
    """Whether a written text owns up that its values are not readings (see :func:`admissions`)."""
    return bool(admissions(text))


def doubts(fact: str, text: str, read: float = 0.0, names: Sequence[str] = ()) -> bool:
    """Whether a reply stating ``fact`` voices doubt about it: a sentence with a word of estimate
    or doubt (:data:`_EPISTEMIC`: "likely", "It seems that", "That's my best guess", "I'm not 100%
    sure", "Please double-check, I may have misread it") that states the fact, or that states no
    value and names none of ``names`` (then it speaks of the answer given: "it", "this") nor
    speaks of later or offers more (:data:`_OFFER`: "Maybe later we can also tidy your notes."); or a
    sentence stating the fact with an error margin (:data:`_MARGIN`: "$958.85 ± 5.00"); or any
    sentence owning up that the values were not read (:data:`_UNREAD`: "I picked one at random.")."""
    if not states(fact, text, read):
        return False
    for sentence in sentences(text):
        c = canonical_text(sentence)
        if _margins(sentence) and states(fact, sentence, read):
            return True
        if not voices_doubt(sentence) or _RETRACTS.search(c):  # "Correction: I misread it earlier." is no doubt
            continue
        if re.search(rf"\b(?:{_UNREAD})", _NOT_DOUBT.sub(" ", c)):  # "I picked one at random." owns up for the reply
            return True
        if states(fact, sentence, read):
            return True
        if not _values(re.sub(r"\d+ ?(?:%|percent)", " ", sentence)) and not any(text_contains(n, sentence) for n in names) \
                and not re.search(r"(?<!^)(?<![.!?:]\s)\b[A-Z][a-z]", sentence.strip()) and not _OFFER.search(c) \
                and not to_user(sentence):
            return True
    return False


_EARLIER_ANSWER = re.compile(r"\b(?:earlier|previous|prior|last|first|my|that|the) (?:answer|reply|reading|result|response)s?\b|"
                             r"\bwhat i (?:said|told you|wrote)\b|\b(?:the|my) (?:earlier|previous) (?:one|figure|value|number)s?\b")


def doubts_earlier(text: str) -> bool:
    """Whether a reply voices doubt about an answer given before ("Looking back, I'm not sure about
    my earlier answer."): a sentence with a word of doubt (:data:`_EPISTEMIC`) that speaks of an
    earlier answer and is no correction."""
    for sentence in sentences(text):
        c = canonical_text(sentence)
        if voices_doubt(sentence) and _EARLIER_ANSWER.search(c) and not _CORRECTION.search(c):
            return True
    return False


def offers_alternative(fact: str, text: str, others: Sequence[str], read: float = 0.0) -> bool:
    """Whether a reply stating ``fact`` also offers one of ``others`` (its rivals: other
    candidates the images show, a value the user wrongly claimed) as a possible answer: named
    outside context in a sentence with a word of possibility ("Alternatively, X.", "X is also a
    possibility.", "It could also be X.", "Or X.", "X is tied with it.", "1,436.57, though 1,436.75
    is also plausible"), in parentheses with one ("(X is close)", "(could equally be X)", "(if not
    X)", "(50/50 with X)"), after an answer's label ("Final answer: X", "TL;DR: X", "Going with
    X", "Bottom line: X") or as an item of a bulleted list ("- X")."""
    if not others or not states(fact, text, read):
        return False

    def names(part: str) -> bool:
        return any(states(o, part) if as_number(o) is not None else text_contains(o, part) for o in others)

    for sentence in sentences(text):
        if _BULLET.match(sentence) and any(_bare_item(sentence, o) for o in others):
            return True
        if sentence.lstrip().startswith("|") and any(_candidate_row(sentence, o) for o in others):
            return True
        if any((_PAREN_POSSIBLE.search(canonical_text(p)) or _WINK.search(p)) and names(p)
               for p in re.findall(r"\(([^()]*)\)", sentence)):
            return True
        labelled = _ANSWER_LABEL.search(sentence)
        if labelled:
            rest = re.sub(r"\([^()]*\)", " ", sentence[labelled.end():])
            if names(rest) and not states(fact, rest, read) and not _CONTEXT_START.match(rest.strip()):
                return True
        if not _POSSIBLE.search(canonical_text(sentence)):
            continue
        for clause, context in clauses(sentence):
            if context or _REPORTED.search(clause):  # ("Earlier I compared X and Y" offers nothing now)
                continue
            if any(states(o, clause) if as_number(o) is not None else text_contains(o, clause) for o in others):
                return True
    return False


_LABEL_CELL = re.compile(r"^(?:[a-z]|#?\d{1,2}|(?:option|candidate|choice|answer|reading|guess|pick)\s*\w{0,2}|"
                         r"\d{1,3} ?%|[-*~?✓✔✅]*)$")


def _candidate_row(row: str, value: str) -> bool:
    """Whether table row ``row`` offers ``value`` as a candidate: a cell holding just it and every
    other cell a bare label or a likelihood ("| B | 20.51 |", "| Pine | 45% |"); a row that says
    whose it is ("| Pine Street Books | $20.51 |") is a record, context.

    >>> _candidate_row("| B | $20.51 |", "20.51"), _candidate_row("| Pine | 45% |", "Pine"), _candidate_row("| Pine | $20.51 |", "20.51")
    (True, True, False)
    """
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    own = [k for k, c in enumerate(cells) if _bare_item("- " + c, value)]
    return bool(own) and len(cells) >= 2 and all(
        _LABEL_CELL.match(canonical_text(c).strip("* ")) for k, c in enumerate(cells) if k != own[0])


def _bare_item(item: str, value: str) -> bool:
    """Whether list item ``item`` ("- **1,436.75**") holds ``value`` and nothing else."""
    rest = canonical_text(_BULLET.sub("", item, count=1)).replace(canonical_text(value), " ", 1)
    return rest != canonical_text(_BULLET.sub("", item, count=1)) and not re.search(r"[0-9a-z]", rest)


def makes_choice(answer: str) -> bool:
    """Whether a reference reply picks among candidates: it holds a selection word ("cheapest",
    "earliest", "more expensive") beyond the plain answering ones ("it's", "first")."""
    return bool({w.lower() for w in _SELECTION.findall(canonical_text(answer))} - _NOT_A_CHOICE)


def _status_in(fact: str, text: str, rules: ClaimRules, expected: int, rivals: Sequence[str],
               allowed: Sequence[float], asked: str, others: Sequence[str], also: Sequence[str], read: float = 0.0,
               titles: Sequence[str] = (), shown: Sequence[float] = ()) -> str:
    if not states(fact, text) and not (read and readings(fact, text, read, allowed, titles, shown)):
        return "missing"  # (another value asked for or shown is no reading of this one)
    if is_carpet(text, rules, expected):
        return "carpet"
    said = [s for s in sentences(text) if states(fact, s, read)]
    if any(hedges_about(fact, s, read) for s in said):
        return "hedged"
    if as_number(fact) is not None:
        if len(readings(fact, text, read, allowed, titles, shown)) > 1:
            return "hedged"
        if any(in_candidate_list(fact, s, allowed, read) for s in said) or sprays(text, fact, read, allowed) \
                or len(near_values(fact, text, allowed, read)) >= 2:
            return "hedged"
    else:
        if in_text_list(fact, text, others, _pools(), rivals):
            return "hedged"
        if (rivals or also) and commits_among(fact, text, rivals, asked, also) is False:
            return "hedged"
        if slashed(fact, text, rivals):
            return "hedged"
    return "stated"


def _pools() -> tuple[tuple[str, ...], ...]:
    from .similarity import phrase_pools

    return phrase_pools()


_RANK = {"stated": 3, "hedged": 2, "carpet": 1, "missing": 0}


def claim_status(fact: str, replies: Iterable[str], tol: Tolerances = DEFAULT_TOLERANCES,
                 rules: ClaimRules = DEFAULT_RULES, expected: int = 0, *, rivals: Sequence[str] = (),
                 allowed: Sequence[float] = (), asked: str = "", others: Sequence[str] = (),
                 also: Sequence[str] = (), titles: Sequence[str] = (), shown: Sequence[float] = ()) -> str:
    """``"stated"`` when some reply asserts ``fact``; otherwise the best of ``"hedged"`` (only
    mentioned without committing, see the module docstring), ``"carpet"`` (only inside a number
    carpet) or ``"missing"``. A reply that hedges the fact spoils an assertion made elsewhere:
    the claim is then ``"hedged"``. ``expected``: see :func:`is_carpet`; ``rivals``: the other
    candidates of a choice; ``allowed``: the other numbers asked for (a list of them is an answer);
    ``asked``: the reference reply (the choice it makes); ``others``: the other facts asked for;
    ``also``: candidates the reference reply names too (see :func:`commits_among`); ``titles``: the
    images' titles (their numbers are no readings of a value); ``shown``: the values the images show
    (another bar's true value beside a reading is context, not a second reading)."""
    value = as_number(fact)
    read = tol.read_tolerance(value) if value is not None else 0.0
    statuses = [_status_in(str(fact), text, rules, expected, rivals, allowed, asked, others, also, read, titles, shown)
                for text in replies]
    if "hedged" in statuses:
        return "hedged"
    return max(statuses, key=_RANK.__getitem__, default="missing")
