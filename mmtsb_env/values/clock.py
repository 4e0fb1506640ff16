"""Clock times: ``10:59 PM``, ``10:59pm``, ``10 pm``, ``7.30 pm``, ``17:30``, ``22:59:00``.

>>> canonical_times("at 10:59 PM, 9am and 22:59:00")
'at 22:59, 09:00 and 22:59'
>>> clock_times("Open 9:00 AM - 10 pm"), closing_time("Open 9:00 AM - 10 pm"), closing_time("Opens 9am")
([540, 1320], 1320, None)
>>> closing_time("10am - midnight"), closing_time("5pm - 2am"), clock_times("17h30, half past seven pm")
(1440, 1560, [1050, 1170])
"""

from __future__ import annotations

import re

from .dates import ISO_DATE
from .words import words_to_digits

# clock times said in words or written the French way, as digits (after the number words are digits)
_SPOKEN = (
    (re.compile(r"(?<![\w:.])([01]?\d|2[0-3])h([0-5]\d)\b", re.I), lambda m: f"{m[1]}:{m[2]}"),  # "17h30"
    (re.compile(r"\b(?:12\s+)?(?:noon|midday)\b", re.I), lambda m: "12:00"),
    (re.compile(r"\b(?:12\s+)?midnight\b", re.I), lambda m: "00:00"),
    (re.compile(r"\bhalf past (\d{1,2})\b(?!:)", re.I), lambda m: f"{m[1]}:30"),
    (re.compile(r"\b(?:a )?quarter past (\d{1,2})\b(?!:)", re.I), lambda m: f"{m[1]}:15"),
    (re.compile(r"\b(?:a )?quarter to (\d{1,2})\b(?!:)", re.I), lambda m: f"{(int(m[1]) - 2) % 12 + 1}:45"),
    (re.compile(r"\b(\d{1,2}) o['’]?clock\b", re.I), lambda m: f"{m[1]}:00"),
    (re.compile(r"\b(\d{1,2}:\d{2}) in the morning\b", re.I), lambda m: f"{m[1]} am"),
    (re.compile(r"\b(\d{1,2}:\d{2}) (?:in the (?:afternoon|evening)|at night)\b", re.I), lambda m: f"{m[1]} pm"),
)


def spoken_times(text: str) -> str:
    """``text`` with clock times in words or with an "h" written as digits: "half past seven in the
    evening" -> "7:30 pm", "quarter to eight" -> "7:45", "17h30" -> "17:30", "noon" -> "12:00",
    "midnight" -> "00:00" ("ten to eight" stays: it may be a range; "17h" stays: it may be hours).

    >>> spoken_times(words_to_digits("half past seven in the evening, a quarter to twelve, 17h30, noon, ten to eight"))
    '7:30 pm, 11:45, 17:30, 12:00, 10 to 8'
    """
    for pattern, sub in _SPOKEN:
        text = pattern.sub(sub, text)
    return text


# (the stop after "a.m." is the abbreviation's; after "AM." it ends the sentence and stays)
# ("7.30 pm" is the British clock time; an amount such as "$7.30" keeps its currency sign and stays an amount)
_CLOCK = re.compile(r"(?<![$€£¥\d.,])\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])(\.)?\s?m\b(?(4)\.?)", re.IGNORECASE)
_ZERO_SECONDS = re.compile(r"\b(\d{1,2}:\d{2}):00\b")


def canonical_times(text: str) -> str:
    """12-hour clock times as 24-hour ``HH:MM``; ``HH:MM:00`` as ``HH:MM``; times in words as
    :func:`spoken_times` writes them (call it after :func:`~.words.words_to_digits`)."""

    def sub(m: re.Match[str]) -> str:
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= hour <= 12 or minute > 59:
            return m.group(0)
        hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
        return f"{hour:02d}:{minute:02d}"

    return _ZERO_SECONDS.sub(r"\1", _CLOCK.sub(sub, spoken_times(text)))


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


# a clock time as an app shows it: "17:00", "5:30 PM", "5pm" (a bare number is no time)
_SHOWN_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\b|\b(\d{1,2}):(\d{2})\b", re.I)


def clock_times(text: str) -> list[int]:
    """The clock times ``text`` shows, in minutes after midnight, in order."""
    out = []
    for m in _SHOWN_TIME.finditer(spoken_times(words_to_digits(ISO_DATE.sub(" ", text)))):
        if m[3]:
            hour = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0)
            out.append(hour * 60 + int(m[2] or 0))
        elif int(m[4]) < 24 and int(m[5]) < 60:
            out.append(int(m[4]) * 60 + int(m[5]))
    return out


def closing_time(text: str) -> int | None:
    """A place's closing time: the last clock time it shows (opening hours read "open - close"), in
    minutes after the opening day's midnight: one not after the opening is the next day's ("10am -
    midnight" closes at 1440, "5pm - 2am" at 1560)."""
    times = clock_times(text)
    if len(times) < 2:
        return None
    return times[-1] + (24 * 60 if times[-1] <= times[0] else 0)
