"""Datetime helpers for the frozen clock: parse what agents type, print what apps store.

>>> parse_datetime("2026-04-20T10:00:00Z").isoformat()
'2026-04-20T10:00:00+00:00'
>>> parse_datetime("2026-04-20 10:00").tzinfo is not None
True
>>> format_datetime(parse_datetime("2026-04-20|10:00:00"))
'2026-04-20T10:00:00'
"""

from __future__ import annotations

from datetime import date, datetime, timezone


def parse_datetime(value: str | datetime | date, *, default_tz=timezone.utc) -> datetime:
    """Parse an ISO-8601-ish datetime (also ``YYYY-MM-DD|HH:MM:SS`` and a bare date).

    Naive values are taken to be in ``default_tz``. Raises ``ValueError`` with the text it
    could not read.
    """
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    else:
        text = str(value).strip().replace("|", "T")
        if text.endswith("Z") or text.endswith("z"):
            text = text[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(
                f"cannot read {value!r} as a date/time; use ISO 8601 such as 2026-04-20T10:00:00+00:00"
            ) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=default_tz)
    return dt


def format_datetime(dt: datetime) -> str:
    """Store datetimes the way AppWorld tables do: naive UTC ISO, second precision."""
    if dt.tzinfo is not None:
        dt = dt.astimezone(timezone.utc).replace(tzinfo=None)
    return dt.replace(microsecond=0).isoformat()


def format_datetime_tz(dt: datetime) -> str:
    """ISO with offset, second precision (used by calendar/reminder tables)."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.replace(microsecond=0).isoformat()
