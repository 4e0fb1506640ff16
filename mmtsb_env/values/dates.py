"""Calendar dates: ISO ``2026-05-09``, ``May 9, 2026``, ``9 May 2026``, ``Sat, May 9th``,
``05/09/2026`` (US), ``25/05/2026``, ``25.05.2026``.

>>> iso_dates("paid on sat, may 9th, 2026 and 9 of may 2026; due 25/12/2026")
'paid on 2026-05-09 and 2026-05-09; due 2026-12-25'
>>> first_date("Jazz Night | Jun 21, 2026 5:00 PM"), first_date("25.05.2026"), first_date("05/06/2026", day_first=True)
((2026, 6, 21), (2026, 5, 25), (2026, 6, 5))
"""

from __future__ import annotations

import re

MONTHS = {"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
          "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
          "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12}

# ---- a day of the month said in words next to its month: "the twenty-fifth of May", "May the first"
_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())} | {"thirtieth": 30}
_ORDINALS |= {f"{tens}{sep}{w}": base + _ORDINALS[w] for tens, base in (("twenty", 20), ("thirty", 30))
              for w in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth") for sep in "- "}
_ORDINAL_WORD = "(" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + ")"
_ANY_MONTH = r"(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b\.?"
_DAY_IN_WORDS = (
    (re.compile(rf"\b(?:the\s+)?{_ORDINAL_WORD}\s+(?:of\s+)?{_ANY_MONTH}", re.I), lambda m: f"{_ORDINALS[m[1].lower()]} {m[2]}"),
    (re.compile(rf"\b{_ANY_MONTH}\s+(?:the\s+)?{_ORDINAL_WORD}\b", re.I), lambda m: f"{m[1]} {_ORDINALS[m[2].lower()]}"),
    (re.compile(rf"\b{_ANY_MONTH}\s+the\s+(\d{{1,2}}(?:st|nd|rd|th))\b", re.I), lambda m: f"{m[1]} {m[2]}"),
)


def spoken_dates(text: str) -> str:
    """``text`` with a day said in words beside its month as digits: "the twenty-fifth of May" ->
    "25 May", "May the first" -> "May 1" (an ordinal without a month stays: "the first option").

    >>> spoken_dates("the twenty-fifth of May, May the first, June the 3rd and the first option")
    '25 May, May 1, June 3rd and the first option'
    """
    for pattern, sub in _DAY_IN_WORDS:
        text = pattern.sub(sub, text)
    return text


# ---- dates in a reply, rewritten as ISO (on case-folded text)
_MONTH_NAME = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAY = r"(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thu|fri|sat|sun)\.?,?\s+)?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_DATE_FORMS = (  # (pattern, order of the year/month/day groups)
    (re.compile(rf"\b{_WEEKDAY}{_MONTH_NAME}\s+{_DAY},?\s+(\d{{4}})\b"), ("m", "d", "y")),
    (re.compile(rf"\b{_WEEKDAY}{_DAY}\s+(?:of\s+)?{_MONTH_NAME},?\s+(\d{{4}})\b"), ("d", "m", "y")),
    (re.compile(r"\b(\d{4})/(\d{1,2})/(\d{1,2})\b"), ("y", "m", "d")),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"), ("m", "d", "y")),
    (re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b"), ("d", "m", "y")),
)


def _iso(groups: tuple[str, ...], order: tuple[str, str, str]) -> str | None:
    parts = dict(zip(order, groups))
    month = MONTHS.get(parts["m"].rstrip(".")) if not parts["m"].isdigit() else int(parts["m"])
    day, year = int(parts["d"]), int(parts["y"])
    if order == ("m", "d", "y") and parts["m"].isdigit() and month > 12 >= day:  # 25/12/2026: day first
        month, day = day, month
    if not month or not 1 <= month <= 12 or not 1 <= day <= 31:
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def iso_dates(text: str) -> str:
    """Case-folded ``text`` with its dates in any common form written as ISO ``2026-05-09``."""
    text = spoken_dates(text)
    for pattern, order in _DATE_FORMS:
        text = pattern.sub(lambda m, o=order: _iso(m.groups(), o) or m.group(0), text)
    return text


# ---- the date an option shows
ISO_DATE = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
# a month by its name or abbreviation, not a word it begins ("Mayfair", "Marching")
_SHOWN_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
                r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_NAMED_DATE = re.compile(rf"\b{_SHOWN_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)(?:,?\s+(\d{{4}}))?\b"
                         rf"|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_SHOWN_MONTH}(?:,?\s+(\d{{4}}))?\b", re.I)
# day and month before the year: "05/25/2026" (US), "25/05/2026", "25.05.2026" (a part over 12 is the day;
# when both could be months, a slash is read month-first as in the US unless another date on the same
# screen is day-first, and a dot day-first as in Europe)
NUMERIC_DATE = re.compile(r"\b(\d{1,2})([/.])(\d{1,2})\2(\d{4})\b")


def writes_days_first(texts: list[str]) -> bool:
    """Whether some numeric date of ``texts`` puts the day first (its first part is over 12)."""
    return any(int(m[1]) > 12 for text in texts for m in NUMERIC_DATE.finditer(text))


def first_date(text: str, day_first: bool = False) -> tuple[int, int, int] | None:
    """The first date ``text`` shows, as (year or 0, month, day); ``day_first``: an ambiguous
    "05/06/2026" is the 5th of June."""
    text = spoken_dates(text)
    iso, named, numeric = ISO_DATE.search(text), _NAMED_DATE.search(text), NUMERIC_DATE.search(text)
    first = min((m for m in (iso, named, numeric) if m is not None), key=lambda m: m.start(), default=None)
    if first is None:
        return None
    if first is iso:
        return int(iso[1]), int(iso[2]), int(iso[3])
    if first is numeric:
        a, b = int(numeric[1]), int(numeric[3])
        day_first = a > 12 or (b <= 12 and (day_first or numeric[2] == "."))
        month, day = (b, a) if day_first else (a, b)
        return (int(numeric[4]), month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None
    month, day, year = (named[1], named[2], named[3]) if named[1] else (named[5], named[4], named[6])
    return int(year or 0), MONTHS[month[:3].lower()], int(day)


def with_the_screens_year(dates: list[tuple[int, int, int] | None]) -> list[tuple[int, int, int] | None]:
    """Dates shown together, a date without its year (year 0) given the year of the others when
    they share one; when they show several years, a date without one is unknown (None).

    >>> with_the_screens_year([(0, 6, 25), (2026, 6, 21), None]), with_the_screens_year([(0, 6, 25), (2026, 1, 2), (2027, 1, 2)])
    ([(2026, 6, 25), (2026, 6, 21), None], [None, (2026, 1, 2), (2027, 1, 2)])
    """
    years = {d[0] for d in dates if d is not None and d[0]}
    if not years:
        return dates
    year = years.pop() if len(years) == 1 else None
    return [d if d is None or d[0] else (None if year is None else (year, d[1], d[2])) for d in dates]


# ---- a date said without its year ("June 5", "Fri 5 Jun", "Friday, June 5th"; on case-folded text)
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_SAID_WEEKDAY = r"(?:(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+(?:the\s+)?)?"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_NO_YEAR = r"(?!,?\s*\d{4}\b|\d|:)"
_YEARLESS = (re.compile(r"(?<![\w])" + _SAID_WEEKDAY + _SHOWN_MONTH + r"\s+" + _ORDINAL + r"\b" + _NO_YEAR),  # (Friday,) June 5(th)
             re.compile(r"(?<![\w])" + _SAID_WEEKDAY + _ORDINAL + r"(?:\s+of)?\s+" + _SHOWN_MONTH + r"\b" + _NO_YEAR))  # (Fri) 5(th of) Jun


def yearless_dates(text: str) -> list[tuple[int | None, int, int]]:
    """The dates case-folded ``text`` gives by month and day without a year, as (weekday 0-6 or
    None, month, day): "fri 5 jun" -> (4, 6, 5)."""
    out = []
    text = spoken_dates(text)
    for k, pattern in enumerate(_YEARLESS):
        for hit in pattern.finditer(text):
            weekday, a, b = hit.groups()
            month, day = (a, b) if k == 0 else (b, a)
            out.append((None if weekday is None else _WEEKDAYS.index(weekday), MONTHS[month[:3]], int(day)))
    return out
