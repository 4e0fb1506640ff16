"""Text-only opening questions: what a user asks before sending pictures (late image arrival).

Each warm-up reads one value the phone holds and reports it back, so the round has a ``report``
and a solution step, and no image is needed. A scenario never asks the same warm-up twice.
"""

from __future__ import annotations

from typing import Any, Callable

from .core import Build, Part, call

Warmup = Callable[[Build], Part]


def _email(b: Build) -> Part:
    asks = ["Quick check before I send you some pictures: which email address is on my profile?",
            "before the photos - what email do I have on my profile?",
            "Could you remind me which email address my profile uses? Pictures coming after."]
    return Part(b.rng.choice(asks), [call("supervisor_show_profile")], f"Your profile email is {b.owner.email}.",
                facts=[b.owner.email], is_task=False)


def _phone(b: Build) -> Part:
    asks = ["First, what phone number is saved on my profile?",
            "what's the phone number on my profile again? I'll send some pics in a sec",
            "Before we start: which number does my profile list for me?"]
    return Part(b.rng.choice(asks), [call("supervisor_show_profile")], f"Your profile lists {b.owner.phone_number}.",
                facts=[b.owner.phone_number])


def _venmo_balance(b: Build) -> Part:
    me = next(r for r in b.wi.tables["venmo.users"].values() if r["id"] == b.wi.owner_id)
    money = f"{me['venmo_balance']:,.2f}"
    asks = ["How much is in my Venmo balance right now?", "whats my venmo balance? photos after",
            "Can you check my Venmo balance for me before I send the pictures?"]
    b.domains.add("venmo")
    return Part(b.rng.choice(asks), [call("venmo_show_venmo_balance")], f"Your Venmo balance is ${money}.", facts=[money])


def _today(b: Build) -> Part:
    day = b.now.strftime("%A, %B %-d, %Y")
    asks = ["What's today's date on my phone?", "what day is it today according to the phone?",
            "Remind me of today's date, please - I'll send the pictures next."]
    b.domains.add("alarms")
    return Part(b.rng.choice(asks), [call("alarms_get_current_date_and_time")], f"Today is {day}.",
                facts=[b.now.strftime("%B %-d, %Y")])


WARMUPS: dict[str, Warmup] = {"email": _email, "phone": _phone, "venmo_balance": _venmo_balance, "today": _today}


def warmup(b: Build, used: set[str]) -> Part:
    """A warm-up question not asked yet in this scenario (``used`` is updated)."""
    names = [n for n in WARMUPS if n not in used]
    name = b.rng.choice(names)
    used.add(name)
    part = WARMUPS[name](b)
    part.report = list(part.facts)
    return part
