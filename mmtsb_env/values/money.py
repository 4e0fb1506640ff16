"""Amounts with a currency: ``$1,234.50``, ``1234.50 USD``, ``CHF 12.50``, ``12.50 $``, and with a
decimal comma beside a currency ``12,50 €`` / ``1.099,00 €``.

>>> amounts("Plan B 1,299.00 USD, or $5; 12,50 € or 1.099,00 €")
[1299.0, 5.0, 12.5, 1099.0]
>>> without_currency("paid $1,234.50 (1234.50 usd)")
'paid 1234.50 (1234.50)'
"""

from __future__ import annotations

import re

# A bare number is tried only where a run of digits and commas begins, so a long run is scanned once, not once per digit.
# An amount: "1,234.50", or with a decimal comma "12,50" / "1.099,00" (read only beside a currency).
_AMOUNT = r"(\d{1,3}(?:\.\d{3})+,\d{1,2}(?!\d)|\d+,\d{1,2}(?![\d,])|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_CURRENCY = r"(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|JPY)\b)"
_MONEY = re.compile(rf"{_CURRENCY}\s?{_AMOUNT}"
                    rf"|(?<![\d,.]){_AMOUNT}\s?(?:[$€£¥]|(?:USD|EUR|GBP|CHF|CAD|AUD|JPY|dollars|euros)\b)")


def amount(raw: str) -> float:
    """``"1,234.50"`` -> 1234.5; a decimal comma ``"12,50"`` / ``"1.099,00"`` -> 12.5 / 1099.0."""
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+,\d{1,2}|\d+,\d{1,2}", raw):
        return float(raw.replace(".", "").replace(",", "."))
    return float(raw.replace(",", ""))


def amounts(text: str) -> list[float]:
    """The currency-marked amounts ``text`` shows, in order."""
    return [amount(m.group(1) or m.group(2)) for m in _MONEY.finditer(text)]


# ---- a reply's amounts without their currency marks (on case-folded text)
_CURRENCY_SIGN = re.compile(r"[$€£¥₹₩]\s*(?=[-+]?\d)")
_CURRENCY_WORD = re.compile(r"(?<=\d)\s*(?:usd|eur|gbp|cad|aud|jpy|inr|chf|dollars?|euros?|pounds?)\b"
                            r"|\b(?:usd|eur|gbp|cad|aud|jpy|inr|chf)\s*(?=\d)")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def without_currency(text: str) -> str:
    """Case-folded ``text`` with currency signs, currency words and thousands separators dropped."""
    return _THOUSANDS.sub("", _CURRENCY_WORD.sub("", _CURRENCY_SIGN.sub("", text)))
