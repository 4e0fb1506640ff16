"""Challenge realisations shared by the generic recipes (besides the ones woven into sinks).

* :func:`contradict` -- error correction where the user states a detail that the images
  contradict (a total, a price, a date): the agent must use what the image shows and say so.
* :class:`Slip` / :func:`apply_slip` -- error correction where the user states a detail that the
  phone's own data contradicts (a project or playlist name that does not exist, a contact's number,
  a card's last digits, whether someone or something is already stored): the agent must look it up,
  use the stored value (or ask) and say what differed. The recipes in :mod:`.db_recipes` offer them.
* :func:`edit_made` -- state mutation where the user changes their mind about something the
  assistant created earlier in the conversation: one of the entries goes, or a line of the
  note or file does, and the assistant has to find and change that row.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from ..world import pools
from . import sinks as S
from .core import ORDINALS, Build, Part, Payload
from .errors import GenerationError
from .world_index import norm

_MONEY = re.compile(r"^\d{1,3}(,\d{3})*(\.\d\d)?$")
_ISO = re.compile(r"^\d{4}-\d\d-\d\d$")
_TIME = re.compile(r"^\d{1,2}:\d\d$")
_PHONE = re.compile(r"^(?=(?:\D*\d){7,15}\D*$)[\d\-\s().+]+$")


def _shown(b: Build) -> str:
    return norm(" ".join(json.dumps(im.render_spec(), ensure_ascii=False) for im in b.imgs))


def wrong_value(b: Build, right: str, taken: list[str]) -> str | None:
    """A plausible misreading of ``right`` that no image shows and no other fact equals, or None."""
    shown = _shown(b)
    for _ in range(30):
        if _ISO.match(right):
            d = date.fromisoformat(right) + timedelta(days=b.rng.choice([-3, -2, -1, 1, 2, 3, 7]))
            cand = d.isoformat()
        elif _TIME.match(right):  # a time read half an hour or an hour off
            h, m = (int(x) for x in right.split(":"))
            t = (h * 60 + m + b.rng.choice([-90, -60, -30, 30, 60, 90])) % (24 * 60)
            cand = f"{t // 60:02d}:{t % 60:02d}" if len(right.split(":")[0]) == 2 else f"{t // 60}:{t % 60:02d}"
        elif _PHONE.match(right):  # a phone number with two neighbouring digits swapped
            d = list(right)
            pos = [k for k, ch in enumerate(d) if ch.isdigit()][3:]
            j = b.rng.randrange(len(pos) - 1)
            d[pos[j]], d[pos[j + 1]] = d[pos[j + 1]], d[pos[j]]
            cand = "".join(d)
        elif _MONEY.match(right):
            decimals = 2 if "." in right else 0
            v = float(right.replace(",", ""))
            digits = list(f"{v:.{decimals}f}".replace(".", ""))
            if len(digits) >= 3 and b.rng.random() < 0.5:  # two neighbouring digits swapped, as people misread
                i = b.rng.randrange(len(digits) - 1)
                digits[i], digits[i + 1] = digits[i + 1], digits[i]
                raw = "".join(digits)
                w = int(raw) / (10 ** decimals)
            else:
                w = v + b.rng.choice([-1, 1]) * b.rng.choice([1, 2, 5, 10, 20]) * (1 if v > 40 else 0.5)
            if w <= 0:
                continue
            cand = f"{w:,.{decimals}f}"
        else:
            return None
        if cand != right and cand not in taken and norm(cand) not in shown:
            return cand
    return None


def claimable(im: Any) -> str | None:
    """The value of an image a user could misread and state wrongly: its amount, else its time, else a
    person's phone number (as printed), else its date."""
    if im.amount:
        return f"{im.amount:,.2f}"
    for t in (im.time, (im.extra or {}).get("opens")):
        if t and _TIME.match(str(t)):
            return str(t)
    phone = (im.person or {}).get("phone")
    if phone and _PHONE.match(str(phone)):
        return str(phone)
    if im.date and _ISO.match(str(im.date)):
        return str(im.date)
    return None


def contradiction_target(p: Payload) -> str | None:
    """The fact a user would misremember: the last money amount (with its cents: a chart's count
    such as "1,425" is no price) or date the result reports."""
    for f in reversed(p.facts):
        if _MONEY.match(f) and "." in f or _ISO.match(f):
            return f
    return None


def contradict(b: Build, part: Part, p: Payload | None, noun: str, scope: list[int] = ()) -> bool:
    """Turn ``part`` (a task round) into one where the user states a wrong value; False if none fits.

    The value is the result's amount or date when the round reports one, else the amount printed
    on one of the round's images.
    """
    right = contradiction_target(p) if p is not None else None
    which = None
    if right is not None and (right in b.tolerances or right in p.tolerances):
        right = None  # read off an axis, where a near miss may be a fair reading: a printed amount instead
        keep = list(part.report)  # the values read off the axis are still asked for
    else:
        keep = []
    if right is None:
        shown_values = {i: claimable(b.imgs[i]) for i in scope if b.imgs[i].category != "chart"}  # a chart's value is no price
        priced = [i for i in shown_values if shown_values[i]]
        if not priced:
            return False
        i = b.rng.choice(priced)
        right = shown_values[i]
        k = sorted(scope).index(i)
        one = b.imgs[i].noun
        which = f"this {one}" if len(scope) == 1 else f"the {ORDINALS[k]} {one}"
    wrong = wrong_value(b, right, (list(p.facts) if p else []) + b.image_values + b.derived)
    if wrong is None:
        return False
    money = bool(_MONEY.match(right))
    shown_wrong = f"${wrong}" if money else wrong
    shown_right = f"${right}" if money else right
    if which is None:
        claim = b.rng.choice([
            f"I'm pretty sure it comes out at {shown_wrong}, but tell me if the {noun} says otherwise.",
            f"If I remember right the number is {shown_wrong} - check it against the {noun} and tell me.",
            f"(I noted {shown_wrong} for this earlier; tell me if that's wrong.)",
            f"Should be {shown_wrong} I think, let me know if not.",
        ])
        verb = "show" if noun.endswith("s") else "shows"
        fixed = f"The {noun} {verb} {shown_right}, not {shown_wrong}, so I used {shown_right}."
    else:
        claim = b.rng.choice([
            f"By the way, {which} says {shown_wrong}, I think - tell me if I misread it.",
            f"{which[:1].upper() + which[1:]} was {shown_wrong} if I remember right; let me know if it isn't.",
            f"fyi i wrote down {shown_wrong} for {which}, correct me if that's wrong",
        ])
        fixed = f"{which[:1].upper() + which[1:]} actually shows {shown_right}, not {shown_wrong}; I went by the image."
    part.request = f"{part.request} {claim}"
    part.answer = f"{fixed} {part.answer}"
    part.kind = "correction"
    part.confirm = f"Oh, you're right - I misread it. Go with what the {noun or 'image'} shows."
    part.clarifications.append({"answer": part.confirm, "keywords": ["shows", "says", "image", "not", "misread", "actually"]})
    part.guidance.append(f"You state {shown_wrong} on purpose: you misread it. If the assistant points out that the image "
                         f"shows something else, agree that the image is right; never insist on {shown_wrong}.")
    part.claim = {"wrong": wrong, "right": right, "source": "image"}
    part.claim_text = shown_wrong
    # what the request already asks to be told (a looked-up fact) stays asked
    part.report = list(dict.fromkeys([right, *keep, *part.report]))
    if right not in part.facts:
        part.facts.append(right)
    return True


@dataclass
class Slip:
    """A detail of the user's request that the phone's data contradicts.

    ``variant`` names the kind (``name``, ``number``, ``card``, ``present``, ``absent``); ``right`` is
    the stored value the solution uses and the reply must state; ``wrong`` what the user says. The
    request either has ``said`` replaced by ``instead`` or gets ``claim`` appended; ``steps`` are the
    look-ups that expose the difference (put first in the round's solution).
    """

    variant: str
    right: str
    wrong: str
    answer: str
    said: str = ""
    instead: str = ""
    claim: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    clarify: dict[str, Any] | None = None


def apply_slip(part: Part, slip: Slip) -> None:
    """Turn the task round ``part`` into a correction the world settles (see :class:`Slip`)."""
    if slip.said:
        if slip.said not in part.request:
            raise ValueError(f"the request does not contain {slip.said!r}: {part.request!r}")
        part.request = part.request.replace(slip.said, slip.instead, 1)
    if slip.claim:
        part.request = f"{part.request} {slip.claim}"
    part.steps = list(slip.steps) + part.steps
    part.answer = f"{slip.answer} {part.answer}"
    part.kind = "correction"
    part.report = [slip.right]
    if slip.right not in part.facts:
        part.facts.append(slip.right)
    if slip.clarify:
        part.clarifications.append(slip.clarify)


def near_name(b: Build, right: str, taken: set[str]) -> str | None:
    """A name a user could say for ``right`` (one word swapped for a near miss) that ``taken`` (normalised) lacks."""
    words = right.split(" ")
    options = []
    for k, w in enumerate(words):
        core = w.strip("()")
        if core in pools.NEAR_MISS:
            options.append(" ".join(words[:k] + [w.replace(core, pools.NEAR_MISS[core])] + words[k + 1:]))
    options = [o for o in options if norm(o) not in taken and norm(o) != norm(right)]
    return b.rng.choice(options) if options else None


def near_digits(b: Build, right: str, taken: set[str]) -> str:
    """``right`` (a string of digits) with one or two digits changed, as misremembered, not in ``taken``."""
    for _ in range(50):
        digits = list(right)
        for _ in range(b.rng.choice([1, 2])):
            k = b.rng.randrange(len(digits))
            digits[k] = b.rng.choice([d for d in "0123456789" if d != digits[k]])
        cand = "".join(digits)
        if cand != right and cand not in taken:
            return cand
    raise GenerationError(f"no misremembered variant of {right!r}")


def can_edit(sink: S.Sink) -> bool:
    """Whether the sink's result can be partly taken back (entries, or the lines of a note or file)."""
    if sink.row.edit == "entries":
        return len(sink.made) >= 2
    if sink.row.edit == "lines":
        return len([ln for ln in sink.content.split("\n") if ln.strip()]) >= 2
    return sink.row.edit == "amount"


def edit_made(b: Build, sink: S.Sink, current: Payload) -> Part:
    """A round where the user takes back one entry (or line, or half the amount) the assistant made earlier."""
    if sink.row.edit == "amount":
        new = round(current.amount / 2, 2)
        money = f"{new:,.2f}"
        b.note_values(Payload("", derived=[money]))
        req = b.rng.choice([
            f"Change of heart: I'll cover half of it myself, so cut the {sink.noun} you made to half the amount.",
            f"actually make the {sink.noun} only half of that, i'm paying the rest",
            f"I've thought about it and the {sink.noun} should only be for half the amount. Could you change it and tell me the new figure?",
        ])
        return Part(req, sink.revise(Payload("", amount=new)), f"Changed the {sink.noun} to ${money}.", facts=[money],
                    kind="state_mutation", is_task=True, report=[money] if "tell me" in req else [])
    if sink.row.edit == "entries":
        k = b.rng.randrange(min(len(sink.made), len(ORDINALS)))
        label, e = sink.made[k]
        steps = sink.remove(label, e)
        sink.made.remove((label, e))
        which = "last" if k == len(sink.made) else ORDINALS[k]
        noun = sink.noun
        req = b.rng.choice([
            f"Actually I changed my mind about the {which} {noun} you added - please delete that one and keep the rest.",
            f"hmm, scratch the {which} {noun} you made, i don't need it anymore",
            f"One more thing: the {which} {noun} you created isn't needed after all. Can you remove it?",
        ])
        return Part(req, steps, f"Deleted the {which} {noun} ('{e['title']}'); the others stay.", kind="state_mutation",
                    is_task=True)
    lines = sink.content.split("\n")
    kept = lines[:-1] if b.rng.random() < 0.5 else lines[1:]
    which = "last" if kept == lines[:-1] else "first"
    steps = sink.revise(Payload("", lines=kept))
    req = b.rng.choice([
        f"I changed my mind, I don't need the {which} line of that {sink.noun} after all. Take it out and leave the rest.",
        f"Could you drop the {which} line from the {sink.noun}? Everything else can stay.",
        f"on second thought remove the {which} line of the {sink.noun} pls",
    ])
    return Part(req, steps, f"Removed the {which} line from the {sink.noun}.", kind="state_mutation", is_task=True)
