"""The supervisor's rules: what the user does after each assistant message, as small pieces.

:func:`decide` reads the episode (the world, the log, the script) and returns a :class:`Move`:

========== ===================================================================================
``open``    nothing said yet: round 1's query, its images through ``send_message_with_image``
``ui``      a UI round's screen awaits an answer: the scripted decision on it
``clarify`` the assistant asks the question the script answers: that answer (once)
``advance`` the round is done -- its changes are in the world (:mod:`.checkpoints`) and its
            ``report`` facts were stated -- : the next round's query (new images only)
``end``     the last round is done: ``end_conversation``
``confirm`` the round is not done and the assistant asks permission: a yes (a second ask in
            the same round is a failed try)
``redirect`` not done and it asks what an image shows: look at the images (never a value)
``nudge``   not done otherwise: a short push naming what is missing, without values
``give_up`` the 5th failed try (redirect or nudge) of a round: ``end_conversation``; the
            episode's verdict fails
========== ===================================================================================

A read-only round (no changes) is done when the reply states the round's ``report`` facts, or,
when it has none, with the assistant's first reply that is not a permission or image question.
Every reply text comes from the script or from the fixed templates below: the user never states
an image value, never mentions a later round and never does the assistant's work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ui.choice import pending_ui_action
from .checkpoints import Item, Progress, missing_facts, round_progress
from .script import CONFIRM, END, delivered_images, last_assistant_text, round_action, unused_clarification

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode

MAX_FAILED_TRIES = 5  # the paper's rule: the user gives up on the 5th failed try of a round
FAILED_KINDS = ("nudge", "redirect")
MOVE_KINDS = ("open", "ui", "clarify", "advance", "end", "confirm", "redirect", "nudge", "give_up")

_PERMISSION = re.compile(
    r"\b(shall i|should i|do you want me to|would you like me to|want me to|may i|can i go ahead|"
    r"is it (?:ok|okay|alright)|(?:ok|okay) to|please confirm|can you confirm|proceed|go ahead)\b", re.I)
_IMAGE_WORDS = re.compile(
    r"\b(image|images|photo|photos|picture|pictures|pic|screenshot|attachment|receipt|receipts|invoice|poster|"
    r"flyer|document|scan|chart|graph|plot|table|menu|sign|label|card|ticket|screen|page|slide|figure)s?\b", re.I)
_ASKING = re.compile(
    r"\b(what|which|how much|how many|who|when|where|can you (?:tell|read|share|give|type|provide|confirm)|"
    r"could you (?:tell|read|share|give|type|provide|confirm)|please (?:tell|share|provide|type)|do you know)\b", re.I)
_VALUE_WORDS = re.compile(r"\b(value|amount|total|name|date|price|number|figure|title|address|time)s?\b", re.I)


@dataclass(frozen=True)
class Move:
    """The user's next action and why: ``kind`` is one of :data:`MOVE_KINDS`."""

    kind: str
    action: str
    round_index: int  # the round it answers (for open/advance: the round it opens)
    text: str = ""  # the message text (== action for plain messages)
    why: str = ""  # what is missing, in words without values


# ------------------------------------------------------------------------- classifying the message
def is_permission_question(text: str) -> bool:
    """The assistant asks whether it may go on ("Shall I save it?")."""
    return "?" in text and _PERMISSION.search(text) is not None


def is_image_question(text: str) -> bool:
    """The assistant asks the user for what an image shows ("What is the total on the receipt?")."""
    if "?" not in text or _ASKING.search(text) is None:
        return False
    return _IMAGE_WORDS.search(text) is not None or _VALUE_WORDS.search(text) is not None


# ------------------------------------------------------------------------- what the round asks
def missing_report(episode: "Episode", index: int) -> list[str]:
    """The round's ``report`` facts no assistant message of the round has stated yet."""
    facts = episode.scenario.rounds[index].report
    if not facts:
        return []
    texts = [e.content for e in episode.log
             if e.sender == episode.ASSISTANT and e.kind in ("message", "notice") and e.round_index == index]
    return missing_facts(facts, texts)


def failed_tries(episode: "Episode", index: int) -> int:
    """Nudges and redirects the user already gave in round ``index``."""
    return sum(1 for r, kind in getattr(episode, "user_moves", ()) if r == index and kind in FAILED_KINDS)


def confirmations(episode: "Episode", index: int) -> int:
    return sum(1 for r, kind in getattr(episode, "user_moves", ()) if r == index and kind == "confirm")


# ------------------------------------------------------------------------- reply templates
def _noun(table: str) -> str:
    name = table.rsplit(".", 1)[-1].replace("_", " ")
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("sses") or name.endswith("ches") or name.endswith("shes"):
        return name[:-2]
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name


def _missing_phrase(item: Item) -> str:
    noun = _noun(item.table)
    if item.op == "update" or item.previous is not None:
        return f"the change to the {noun}"
    if item.op == "create":
        return f"the new {noun}"
    return f"the {noun} removed"


def nudge_text(progress: Progress, report_missing: bool) -> str:
    """A short push naming what is not there yet -- by kind of thing, never by value."""
    if progress.missing:
        phrases = list(dict.fromkeys(_missing_phrase(i) for i in progress.missing))
        what = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
        return f"I don't see {what} yet. Could you take care of it?"
    if progress.lingering:
        item = progress.lingering[0]
        noun = _noun(item.table)
        if item.op == "create":
            return f"The {noun} I no longer want is still there. Please sort that out."
        if item.op == "update":
            return f"The earlier change to the {noun} should be undone. Please sort that out."
        return f"The {noun} should be back. Please sort that out."
    if report_missing:
        return "You haven't told me what I asked for yet."
    return "That doesn't look finished yet. Could you complete it?"


def redirect_text(episode: "Episode") -> str:
    """Point the assistant at the images the user sent (the user cannot read them out)."""
    sent = sorted(delivered_images(episode))
    if not sent:
        return "I can't tell you more than I said. Please find it on the phone."
    labels = ", ".join(f"[image {i}]" for i in sent)
    return f"I can't read it out for you. Everything you need is in what I sent you ({labels})."


ALREADY_CONFIRMED = "I already said yes. Please go ahead and do it."


# ------------------------------------------------------------------------- the decision
def _advance(episode: "Episode", index: int) -> Move:
    rounds = episode.scenario.rounds
    if index + 1 < len(rounds):
        action = round_action(episode, index + 1)
        return Move("advance", action, index + 1, rounds[index + 1].query)
    return Move("end", END, index)


def decide(episode: "Episode") -> Move:
    """The user's next move (see the module docstring); reads the world, never the assistant's claims."""
    rounds = episode.scenario.rounds
    k = episode.round_index
    if k < 0:
        return Move("open", round_action(episode, 0), 0, rounds[0].query)
    if rounds[k].ui is not None:
        ui = pending_ui_action(episode)
        if ui is not None:
            return Move("ui", ui, k, ui)
    clar = unused_clarification(episode)
    if clar is not None:
        return Move("clarify", clar[1], k, clar[1])
    text = last_assistant_text(episode)
    checkpoint, progress = round_progress(episode, k)
    report = missing_report(episode, k)
    permission, image_question = is_permission_question(text), is_image_question(text)
    trivially_done = not checkpoint.has_effects and not rounds[k].report
    if progress.done and not report and not (trivially_done and (permission or image_question)):
        return _advance(episode, k)
    why = nudge_text(progress, bool(report))
    if permission and confirmations(episode, k) == 0:
        return Move("confirm", CONFIRM, k, CONFIRM, why)
    if failed_tries(episode, k) + 1 >= MAX_FAILED_TRIES:
        return Move("give_up", END, k, "", why)
    if image_question:
        reply = redirect_text(episode)
        return Move("redirect", reply, k, reply, why)
    reply = ALREADY_CONFIRMED if permission else why
    return Move("nudge", reply, k, reply, why)
