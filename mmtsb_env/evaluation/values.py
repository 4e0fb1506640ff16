"""The forms people write values in, and when a stated number is the same value.

* **Numbers in words** (English): ``zero`` to ``ninety-nine``, ``a hundred``/``N hundred (and) M``,
  ``a dozen``/``two dozen``, ``a couple of`` are read as digits by :func:`words_to_digits`
  ("two of your cards" -> "2 of your cards"). ``one`` after a determiner ("the one at Pine",
  "which one") is a pronoun and stays a word.
* **Times**: ``10:59 PM``, ``10:59pm``, ``10 pm`` -> ``22:59``/``22:00``; ``22:59:00`` -> ``22:59``
  (:func:`canonical_times`).
* **Rounding, not closeness** (:func:`rounds_to`): a stated number is a true value when it is that
  value rounded to the precision it is stated with -- "$22" or "22.1" for 22.13, "1,400" for
  1,396 (at most 1 % off) -- and never when it is stated as precisely as the truth but differs
  ("12.28" is not 12.29, although 0.1 % off).

>>> words_to_digits("two of your cards, a dozen eggs, twenty-one days; the one at Pine; five-star")
'2 of your cards, 12 eggs, 21 days; the one at Pine; five-star'
>>> canonical_times("at 10:59 PM, 9am and 22:59:00")
'at 22:59, 09:00 and 22:59'
>>> rounds_to("22", 22.13), rounds_to("22.1", 22.13), rounds_to("22.13", 22.13), rounds_to("22.14", 22.13)
(True, True, True, False)
>>> rounds_to("1,400", 1396.0), rounds_to("1,500", 1396.0), rounds_to("13.50", 13.5), rounds_to("12.30", 12.29)
(True, False, True, False)
"""

from __future__ import annotations

import math
import re

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
SMALL = {w: i for i, w in enumerate(_UNITS)} | _TENS
_DETERMINERS = r"the|this|that|which|each|any|every|no|some|another|no-|any-|some|every|per"
_UNIT = "|".join(sorted(SMALL, key=len, reverse=True))
_UNDER_100 = rf"(?:(?:{'|'.join(_TENS)})[- ](?:one|two|three|four|five|six|seven|eight|nine)|{_UNIT})"
_NUMBER_WORDS = re.compile(
    rf"\b(?:(?P<dozen>(?:a|one|two|three|four|five|six)?\s*dozen)"
    rf"|(?P<couple>a couple(?= of\b))"
    rf"|(?P<hundreds>(?:a|{_UNDER_100})\s+hundred)(?:\s+(?:and\s+)?(?P<rest>{_UNDER_100}))?"
    rf"|(?P<plain>{_UNDER_100}))\b(?!-\w)",
    re.IGNORECASE)
_PRONOUN_ONE = re.compile(rf"\b(?:{_DETERMINERS})\s+$", re.IGNORECASE)


def _under_100(words: str) -> int:
    parts = re.split(r"[- ]", words.lower())
    return sum(SMALL[p] for p in parts)


def words_to_digits(text: str) -> str:
    """``text`` with English number words written as digits (see the module docstring)."""

    def sub(m: re.Match[str]) -> str:
        if m.group("dozen") is not None:
            n = m.group("dozen").split()
            return str(12 * (1 if len(n) == 1 or n[0].lower() in ("a", "one") else SMALL[n[0].lower()]))
        if m.group("couple") is not None:
            return "2"
        if m.group("hundreds") is not None:
            head = m.group("hundreds").split()[0]
            value = 100 * (1 if head.lower() == "a" else _under_100(m.group("hundreds").rsplit(" ", 1)[0]))
            return str(value + (_under_100(m.group("rest")) if m.group("rest") else 0))
        word = m.group("plain")
        if word.lower() == "one" and _PRONOUN_ONE.search(text[:m.start()]):
            return word
        return str(_under_100(word))

    text = _NUMBER_WORDS.sub(sub, text)
    text = _THOUSANDS.sub(lambda m: str(1000 * (1 if m.group(1).lower() == "a" else int(m.group(1))) + int(m.group(2) or 0)), text)
    text = _CENTS.sub(lambda m: f"{m.group(1)}.{int(m.group(3)):02d} {m.group(2)}", text)
    return _KILO.sub(lambda m: f"{round(float(m.group(1)) * 1000):d}", text)


# after the words below 1,000 are digits: "3 thousand 200" -> 3200, "901 dollars and 94 cents" ->
# "901.94 dollars", "3.2k" -> 3200
_THOUSANDS = re.compile(r"\b(a|\d{1,3}) thousand(?:,?\s+(?:and\s+)?(\d{1,3})(?![\d,.]))?\b", re.IGNORECASE)
_CENTS = re.compile(r"\b(\d+) (dollars?|euros?|pounds?)(?:,)? and (\d{1,2}) cents?\b", re.IGNORECASE)
_KILO = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d)?)\s?[kK](?![\w])")


# (the stop after "a.m." is the abbreviation's; after "AM." it ends the sentence and stays)
# ("7.30 pm" is the British clock time; an amount such as "$7.30" keeps its currency sign and stays an amount)
_CLOCK = re.compile(r"(?<![$€£¥\d.,])\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])(\.)?\s?m\b(?(4)\.?)", re.IGNORECASE)
_ZERO_SECONDS = re.compile(r"\b(\d{1,2}:\d{2}):00\b")


def canonical_times(text: str) -> str:
    """12-hour clock times as 24-hour ``HH:MM``; ``HH:MM:00`` as ``HH:MM``."""

    def sub(m: re.Match[str]) -> str:
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= hour <= 12 or minute > 59:
            return m.group(0)
        hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
        return f"{hour:02d}:{minute:02d}"

    return _ZERO_SECONDS.sub(r"\1", _CLOCK.sub(sub, text))


# a 24-hour "19.30" / "07.30" (read as a time only where the round asks a time: elsewhere it is a number)
_DOT_CLOCK_24 = re.compile(r"(?<![\w$€£¥.,:/-])([01]\d|2[0-3])\.([0-5]\d)"
                           r"(?![\w%]|[.,]\d|\s?(?:[$€£¥%]|(?:usd|eur|gbp|chf|dollars?|euros?|pounds?)\b))", re.IGNORECASE)
_A_CLOCK_TIME = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}(?::\d{2})?\s*[ap]\.?m\b", re.IGNORECASE)


def asks_time(facts: "list[str] | tuple[str, ...]") -> bool:
    """Whether some of a round's reported facts is a clock time ("7:30 PM", "2026-06-22 17:00")."""
    return any(_A_CLOCK_TIME.search(str(f)) for f in facts)


def dotted_24h_times(text: str) -> str:
    """24-hour times written with a dot as ``HH:MM`` ("19.30" -> "19:30"; "$19.30", "19.30 USD",
    "19.305" and "1.19.30" stay): for a reply in a round that asks a time."""
    return _DOT_CLOCK_24.sub(r"\1:\2", text)


def decimals(raw: str) -> int:
    """How many decimals a number is written with (``"1,234.50"`` -> 2)."""
    return len(raw.split(".", 1)[1]) if "." in raw else 0


def rounds_to(raw: str, truth: float, rel_tol: float = 0.01) -> bool:
    """Whether the number written as ``raw`` is ``truth`` rounded to the precision ``raw`` shows
    (see the module docstring). A whole number ending in zeros may round to tens, hundreds...
    when it stays within ``rel_tol`` of the truth."""
    try:
        value = float(raw.replace(",", ""))
    except ValueError:
        return False
    d = decimals(raw)
    if math.isclose(round(truth, d), value, abs_tol=10 ** -(d + 3)):
        return True
    if d == 0 and value and value % 10 == 0:
        zeros = len(str(int(abs(value)))) - len(str(int(abs(value))).rstrip("0"))
        return any(round(truth, -k) == value for k in range(1, zeros + 1)) and abs(value - truth) <= rel_tol * abs(truth)
    return False


def rounding_of(raw: str, other: str) -> bool:
    """Whether number ``raw`` is number ``other`` rounded, and not the reverse: "18" of "17.6",
    "25,400" of "25,389" (two readings of one answer, not two answers)."""
    a, b = float(raw.replace(",", "")), float(other.replace(",", ""))
    return raw != other and rounds_to(raw, b) and not rounds_to(other, a)


_TITLE_YEAR = re.compile(r"\b([A-Z][\w'’-]*) (?:19|20)\d\d\b")
# nouns that number a place or a period in a name ("Week 33", "Tray 3", "Floor 2", "Grade 7")
LABEL_NOUNS = ("week", "tray", "table", "group", "floor", "team", "room", "grade", "gate", "pier", "studio", "unit",
               "level", "row", "zone", "section", "stage", "hall", "building", "block", "aisle", "bay", "platform",
               "suite", "apt", "locker", "line", "batch", "round", "season", "episode", "chapter", "volume", "issue")
_LABEL_NUMBER = re.compile(r"\b(" + "|".join(LABEL_NOUNS) + r")\.? ?#?\d+\b", re.IGNORECASE)


def without_title_numbers(text: str) -> str:
    """``text`` without the numbers that are part of a name: a year ending a title ("Visitors per
    Exhibit 2024") and the number after a noun that numbers a place or period ("Week 33", "Tray
    3", "Floor 2"). They are names, not values read.

    >>> without_title_numbers("Hours Logged - Week 33: 34 hours; Sales 2025: 25,389; week 3 total 40")
    'Hours Logged - Week : 34 hours; Sales : 25,389; week  total 40'
    """
    return _LABEL_NUMBER.sub(r"\1 ", _TITLE_YEAR.sub(r"\1 ", text))
