"""Reading the user's script: the action that opens a round, the closing action, the scripted
clarification a question triggers, the images already delivered.

>>> from mmtsb_env.scenario.suites import load_suite
>>> from mmtsb_env.episode.engine import Episode
>>> ep = Episode(next(s for s in load_suite("demo") if s.id == "demo/note_from_receipt"))
>>> round_action(ep, 0).startswith('{"name": "send_message_with_image"')
True
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .reading import read

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode

END = json.dumps({"name": "end_conversation", "arguments": {}})


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
