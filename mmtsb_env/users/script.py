"""Reading the user's script: the action that opens a round, the closing action, the scripted
clarification a question triggers, the images already delivered, the answer to a shown UI screen.

>>> from mmtsb_env.scenario.suites import load_suite
>>> from mmtsb_env.episode.engine import Episode
>>> ep = Episode(next(s for s in load_suite("demo") if s.id == "demo/note_from_receipt"))
>>> round_action(ep, 0).startswith('{"name": "send_message_with_image"')
True
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..ui.choice import (ALREADY_CHOSEN, CANNOT_CHOOSE, UNKNOWN_CHOICE, confirm_step, decide, is_ui_interaction, is_ui_notice,
                         knows_the_pick, offered_options)
from .reading import read

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode

END = json.dumps({"name": "end_conversation", "arguments": {}})
SCREEN_FAILED = "I tried to use the screen but it did not work"  # + " (<the error>). Could you fix it?"


def delivered_images(episode: "Episode") -> set[int]:
    """Scenario image ids the user has already sent (each image goes out once)."""
    n = len(episode.scenario.images)
    return {i for e in episode.log if e.sender == "user" and e.kind == "message" for i in e.image_ids if i < n}


def round_action(episode: "Episode", index: int) -> str:
    """Round ``index``'s query; with its images (those not sent yet and not held back by the round's
    guidance for later in the round) through ``send_message_with_image``."""
    rnd = episode.scenario.rounds[index]
    sent = delivered_images(episode)
    ids = [i for i in rnd.image_ids if i not in sent and i not in rnd.guidance.hold_images]
    if ids:
        return json.dumps({
            "name": "send_message_with_image",
            "arguments": {"message": rnd.query, "image_ids": ",".join(str(i) for i in ids)},
        }, ensure_ascii=False)
    return rnd.query


def last_assistant_text(episode: "Episode") -> str:
    """The assistant's latest message to the user ("" before it said anything)."""
    last = episode.last_message_to(episode.USER)
    return last.content if last is not None and last.sender == episode.ASSISTANT else ""


def unused_clarification(episode: "Episode") -> tuple[int, str] | None:
    """``(index, answer)`` of the current round's clarification the assistant's question asks for.

    The assistant's last message must ask the user something (:func:`~.reading.read`); a
    clarification matches when one of its keywords appears in it (or it has none) and it was not
    given yet.
    """
    k = episode.round_index
    if not 0 <= k < len(episode.scenario.rounds):
        return None
    question = last_assistant_text(episode)
    if not read(question).question:
        return None
    lowered = question.lower()
    for j, clar in enumerate(episode.scenario.rounds[k].clarifications):
        if (k, j) in episode.clarifications_given:
            continue
        if not clar.keywords or any(w.lower() in lowered for w in clar.keywords):
            return j, clar.answer
    return None


def pending_ui_action(episode: "Episode") -> str | None:
    """The scripted user's reply to an unanswered screen of the current UI round, or None.

    Returns a ``ui_user_interact`` JSON call when the round's decision can be made on the shown
    screen, a short complaint when it cannot, and None when no screen awaits an answer (then the
    user behaves as without UI). The user decides once per UI round: after its choice, a screen
    offering choices again gets :data:`ALREADY_CHOSEN`; only a confirming step is pressed.
    """
    index = episode.round_index
    rounds = episode.scenario.rounds
    if not 0 <= index < len(rounds) or rounds[index].ui is None:
        return None
    log = episode.log
    last = next((i for i in range(len(log) - 1, -1, -1) if is_ui_notice(log[i]) and log[i].round_index == index), None)
    if last is None:
        return None
    if any(e.sender == "user" and e.kind == "message" for e in log[last + 1:]):
        return None  # this screen was already answered
    failed = [e for e in log[last + 1:] if e.kind == "error" and e.recipient == "user"]
    if failed:
        return f"{SCREEN_FAILED} ({failed[-1].content[:200]}). Could you fix it?"
    state = episode.world.services.get("ui")
    image_ids = log[last].image_ids
    record = state.shown_record(image_ids[0]) if state is not None and image_ids else None
    if record is None:
        return None
    elements = list(record.elements)
    if any(is_ui_interaction(e) and e.round_index == index for e in log[:last]):
        # one decision per choice point: a later screen may only confirm it, not ask again
        args = None if offered_options(elements) else confirm_step(elements)
        return ALREADY_CHOSEN if args is None else json.dumps({"name": "ui_user_interact", "arguments": args},
                                                                ensure_ascii=False)
    known = known_words(episode.scenario, index)
    if not knows_the_pick(rounds[index].ui, known):
        return UNKNOWN_CHOICE  # a name only the images show: the user cannot tell which option is meant
    args = decide(rounds[index].ui, elements, known)
    if args is None:
        return CANNOT_CHOOSE
    return json.dumps({"name": "ui_user_interact", "arguments": args}, ensure_ascii=False)


def known_words(scenario: Any, index: int) -> str:
    """What the user knows by round ``index``: its situation (``description``) and, for each round so
    far, its request, its private instructions and its clarification answers. A name in none of
    these is one only the images or the answer key hold."""
    parts = [scenario.description]
    for rnd in scenario.rounds[: index + 1]:
        parts += [rnd.query, rnd.instructions, *(c.answer for c in rnd.clarifications)]
    return "\n".join(p for p in parts if p)
