"""The scripted user: plays a scenario's structured rounds exactly, blind to image contents.

Policy, given the episode so far:

- nothing said yet -> round 0's query (with its images through ``send_message_with_image``);
- the assistant asked a question (its message contains ``?``) and the current round has an
  unused clarification whose keywords appear in the question (or that has no keywords) ->
  that answer;
- in a UI round (one with ``ui``), when the assistant has shown a screen the user has not answered
  yet -> ``ui_user_interact`` realising the round's decision on that screen (see
  :mod:`mmtsb_env.ui.choice`); a screen without the needed option gets a short complaint;
- otherwise the next round, or ``end_conversation`` after the last round.

Without a shown screen a UI round goes on as a plain round, so its decision (which only the
screen can elicit) is never made.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode


def round_action(episode: "Episode", index: int) -> str:
    rnd = episode.scenario.rounds[index]
    if rnd.image_ids:
        return json.dumps({
            "name": "send_message_with_image",
            "arguments": {"message": rnd.query, "image_ids": ",".join(str(i) for i in rnd.image_ids)},
        }, ensure_ascii=False)
    return rnd.query


END = json.dumps({"name": "end_conversation", "arguments": {}})


class ScriptedUser:
    """Deterministic user policy; ``act(episode)`` returns the user seat's next action string."""

    name = "scripted"

    def act(self, episode: "Episode") -> str:
        rounds = episode.scenario.rounds
        current = episode.round_index
        if current < 0:
            return round_action(episode, 0)
        if rounds[current].ui is not None:
            from ..ui.choice import pending_ui_action

            ui_action = pending_ui_action(episode)
            if ui_action is not None:
                return ui_action
        last = episode.last_message_to(episode.USER)
        question = last.content if last is not None and "?" in last.content else ""
        if question:
            lowered = question.lower()
            for j, clar in enumerate(rounds[current].clarifications):
                if (current, j) in episode.clarifications_given:
                    continue
                if not clar.keywords or any(k.lower() in lowered for k in clar.keywords):
                    return clar.answer
        if current + 1 < len(rounds):
            return round_action(episode, current + 1)
        return END
