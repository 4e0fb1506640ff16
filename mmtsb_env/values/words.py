"""Numbers written in words, read as digits (English).

``zero`` to ``ninety-nine``, ``a hundred``/``N hundred (and) M``, ``a dozen``/``two dozen``,
``a couple of`` are read as digits by :func:`words_to_digits` ("two of your cards" -> "2 of your
cards"); then "3 thousand 200" -> 3200, "901 dollars and 94 cents" -> "901.94 dollars", "3.2k" ->
3200. ``one`` after a determiner ("the one at Pine", "which one") is a pronoun and stays a word.

>>> words_to_digits("two of your cards, a dozen eggs, twenty-one days; the one at Pine; five-star")
'2 of your cards, 12 eggs, 21 days; the one at Pine; five-star'
"""

from __future__ import annotations

import re
from decimal import Decimal

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
    return scaled_numbers(text)


# after the words below 1,000 are digits: "3 thousand 200" -> 3200, "901 dollars and 94 cents" ->
# "901.94 dollars"; a scale after a decimal or "k": "3.2k" -> 3200, "31.15 thousand" -> 31150, "2.5 million"
_THOUSANDS = re.compile(r"(?<![\d.,])\b(a|\d{1,3}) thousand(?:,?\s+(?:and\s+)?(\d{1,3})(?![\d,.]))?\b", re.IGNORECASE)
_CENTS = re.compile(r"\b(\d+) (dollars?|euros?|pounds?)(?:,)? and (\d{1,2}) cents?\b", re.IGNORECASE)
_SCALED = re.compile(r"(?<![\w.,])(\d{1,3}(?:\.\d{1,3})?)(?:\s?([kK])(?!\w)|\s(thousand|million|billion)\b)",
                     re.IGNORECASE)
_SCALES = {"k": 1000, "thousand": 1000, "million": 10 ** 6, "billion": 10 ** 9}


def scaled_numbers(text: str) -> str:
    """``text`` with a number and its scale written as one number: "1.2k" -> "1200", "$31.15
    thousand" -> "$31150", "2.5 million" -> "2500000" ("1.2kg" stays).

    >>> scaled_numbers("1.2k views, $31.15 thousand, 2.5 million, 1.2kg, 5 k")
    '1200 views, $31150, 2500000, 1.2kg, 5000'
    """
    def sub(m: re.Match[str]) -> str:
        value = Decimal(m.group(1)) * _SCALES[(m.group(2) or m.group(3)).lower()]
        return format(value.normalize(), "f")

    return _SCALED.sub(sub, text)
