"""Amounts with a currency: ``$1,234.50``, ``1234.50 USD``, ``CHF 12.50``, ``12.50 $``, and with a
decimal comma beside a currency ``12,50 €`` / ``1.099,00 €``.

>>> amounts("Plan B 1,299.00 USD, or $5; 12,50 € or 1.099,00 €")
[1299.0, 5.0, 12.5, 1099.0]
>>> amounts("$1 599, 1 599 €, $31.15 thousand; $1 59 is none"), joined_thousands("$1 599 and 2 100 pens")
([1599.0, 1599.0, 31150.0], '$1599 and 2 100 pens')
>>> without_currency("paid $1,234.50 (1234.50 usd)")
'paid 1234.50 (1234.50)'
"""

from __future__ import annotations

import re

from .words import scaled_numbers

# A bare number is tried only where a run of digits and commas begins, so a long run is scanned once, not once per digit.
# An amount: "1,234.50", "1 599" (thousands apart by a space), or with a decimal comma "12,50" / "1.099,00"
# (read only beside a currency). Digits after a space that are no group of three ("$1 59") make no amount.
_SPACES = "[ \u00a0\u202f]"
_AMOUNT = (rf"(\d{{1,3}}(?:{_SPACES}\d{{3}})+(?:\.\d+)?(?!\d|[.,]\d|{_SPACES}\d)"
           rf"|\d{{1,3}}(?:\.\d{{3}})+,\d{{1,2}}(?!\d)|\d+,\d{{1,2}}(?![\d,])|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?!{_SPACES}\d)"
           rf"|\d+(?:\.\d+)?(?!\d|[.,]\d|{_SPACES}\d))")
_CURRENCY = r"(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|JPY)\b)"
_MONEY = re.compile(rf"{_CURRENCY}\s?{_AMOUNT}"
                    rf"|(?<![\d,.]){_AMOUNT}\s?(?:[$€£¥]|(?:USD|EUR|GBP|CHF|CAD|AUD|JPY|dollars|euros)\b)")


def amount(raw: str) -> float:
    """``"1,234.50"`` -> 1234.5; a decimal comma ``"12,50"`` / ``"1.099,00"`` -> 12.5 / 1099.0."""
    raw = re.sub(_SPACES, "", raw)
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+,\d{1,2}|\d+,\d{1,2}", raw):
        return float(raw.replace(".", "").replace(",", "."))
    return float(raw.replace(",", ""))


def amounts(text: str) -> list[float]:
    """The currency-marked amounts ``text`` shows, in order ("$31.15 thousand" is 31150)."""
    return [amount(m.group(1) or m.group(2)) for m in _MONEY.finditer(scaled_numbers(text))]


# ---- a reply's amounts without their currency marks (on case-folded text)
_CURRENCY_SIGN = re.compile(r"[$€£¥₹₩]\s*(?=[-+]?\d)")
_CURRENCY_WORD = re.compile(r"(?<=\d)\s*(?:usd|eur|gbp|cad|aud|jpy|inr|chf|dollars?|euros?|pounds?)\b"
                            r"|\b(?:usd|eur|gbp|cad|aud|jpy|inr|chf)\s*(?=\d)")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# "$1 599", "1 599 €": a space between groups of three digits beside a currency (elsewhere "2 100" may be two numbers)
_SPACED = re.compile(rf"(?<=[$€£¥₹₩])(\s?)(\d{{1,3}}(?:{_SPACES}\d{{3}})+)(?!\d|[.,]\d|{_SPACES}\d)"
                     rf"|(?<![\d.,])(\d{{1,3}}(?:{_SPACES}\d{{3}})+)(?=\s?(?:[$€£¥₹₩]|(?:usd|eur|gbp|chf|dollars?|euros?|pounds?)\b))",
                     re.IGNORECASE)


def joined_thousands(text: str) -> str:
    """``text`` with the thousands of an amount beside a currency written without spaces ("$1 599" ->
    "$1599", "1 599 €" -> "1599 €"); other numbers apart by a space stay apart."""
    return _SPACED.sub(lambda m: (m.group(1) or "") + re.sub(_SPACES, "", m.group(2) or m.group(3)), text)


def without_currency(text: str) -> str:
    """Case-folded ``text`` with currency signs, currency words and thousands separators dropped."""
    return _THOUSANDS.sub("", _CURRENCY_WORD.sub("", _CURRENCY_SIGN.sub("", text)))
