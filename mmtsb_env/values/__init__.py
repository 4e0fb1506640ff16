"""Readers of the values people write, shared by the scripted user (UI choice rounds) and the judge.

One job per module, no module of the package imported here:

* :mod:`.words` -- numbers written in words ("twenty-one", "a dozen", "3 thousand 200", "1.2k");
* :mod:`.numbers` -- plain numbers: the one an option shows, rounding (``rounds_to``), numbers that
  are part of a name ("Week 33");
* :mod:`.money` -- amounts with a currency ("$1,234.50", "12,50 €", "CHF 12.50");
* :mod:`.dates` -- calendar dates ("2026-05-09", "May 9, 2026", "9 May", "05/09/2026");
* :mod:`.clock` -- clock times ("10:59 PM", "7.30 pm", "17:30", "5pm").

What a reader accepts and what it refuses (a form that could mean another value is not read as the
value) is listed in ``tests/values/``.
"""
