"""Plain numbers: the one an option shows, when a stated number is the same value, numbers that
are part of a name.

**Rounding, not closeness** (:func:`rounds_to`): a stated number is a true value when it is that
value rounded to the precision it is stated with -- "$22" or "22.1" for 22.13, "1,400" for 1,396
(at most 1 % off) -- and never when it is stated as precisely as the truth but differs ("12.28" is
not 12.29, although 0.1 % off).

>>> rounds_to("22", 22.13), rounds_to("22.1", 22.13), rounds_to("22.13", 22.13), rounds_to("22.14", 22.13)
(True, True, True, False)
>>> rounds_to("1,400", 1396.0), rounds_to("1,500", 1396.0), rounds_to("13.50", 13.5), rounds_to("12.30", 12.29)
(True, False, True, False)
"""

from __future__ import annotations

import math
import re

from .words import scaled_numbers


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
               "suite", "apt", "locker", "box", "line", "batch", "round", "season", "episode", "chapter", "volume", "issue")
_LABEL_NUMBER = re.compile(r"\b(" + "|".join(LABEL_NOUNS) + r")\.? ?#?\d+\b", re.IGNORECASE)


def without_title_numbers(text: str) -> str:
    """``text`` without the numbers that are part of a name: a year ending a title ("Visitors per
    Exhibit 2024") and the number after a noun that numbers a place or period ("Week 33", "Tray
    3", "Floor 2"). They are names, not values read.

    >>> without_title_numbers("Hours Logged - Week 33: 34 hours; Sales 2025: 25,389; week 3 total 40")
    'Hours Logged - Week : 34 hours; Sales : 25,389; week  total 40'
    """
    return _LABEL_NUMBER.sub(r"\1 ", _TITLE_YEAR.sub(r"\1 ", text))


# a number standing alone: not inside a word, not a price (a currency sign before it), not a percentage
NUMBER = re.compile(r"(?<![\w.$€£¥])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w%]|[.,]\d)|(?<![\w.$€£¥])\d+(?:\.\d+)?(?![\w%]|[.,]\d)")


def shown_number(text: str, of: str | None = None) -> float | None:
    """The number an option shows: the one nearest the words ``of`` when the text holds them
    ("Published: 2015" for "published"), else its only number; prices, percentages and numbers
    inside words aside. None when it shows none, or several and no ``of`` to tell them apart.

    >>> shown_number("Deep Nets (2015)"), shown_number("Published 2009, cited 3,200 times", "published")
    (2015.0, 2009.0)
    >>> shown_number("Published 2009, cited 3,200 times") is None
    True
    """
    found = [(m.start(), float(m.group().replace(",", ""))) for m in NUMBER.finditer(text)]
    if of:
        stem = of.strip().lower()[:5]
        at = [m.start() for m in re.finditer(re.escape(stem), text.lower())] if stem else []
        if at and found:
            return min(found, key=lambda f: min(abs(f[0] - a) for a in at))[1]
    return found[0][1] if len(found) == 1 else None


_SPACED_GROUPS = re.compile(r"(?<![\w.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\w%]|[.,]\d|[ \u00a0\u202f]\d)")


def compared_number(text: str) -> float | None:
    """An option's compared number: the one after a colon ("Nov: 155"), else the last it shows; a
    scale and thousands apart by spaces are read ("Views: 1.2k" is 1200, "Visitors: 1 550" 1550).

    >>> compared_number("Nov: 155"), compared_number("Views: 1.2k"), compared_number("Visitors: 1 550"), compared_number("Weight: 1.2kg")
    (155.0, 1200.0, 1550.0, None)
    """
    text = _SPACED_GROUPS.sub(lambda m: re.sub(r"\D", "", m.group()), scaled_numbers(text))
    after = re.findall(r":\s*(-?\d+(?:,\d{3})*(?:\.\d+)?)(?![\w%]|[.,]\d)", text)
    found = after or NUMBER.findall(text)
    return float(found[-1].replace(",", "")) if found else None
