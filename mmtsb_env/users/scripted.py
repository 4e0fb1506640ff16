"""The scripted user: plays a scenario's rounds as a supervisor, blind to images, the phone's
database and the answer key.

Each turn it takes the move :func:`~mmtsb_env.users.rules.decide` gives from the conversation
and its script (open a round, answer a screen, a clarification, a flagged wrong claim or a
permission question, redirect to the images, nudge, advance once the assistant reports the
round, give up on the 5th failed try) and tells the episode which kind of move it was, so
``info["user_dynamics"]`` and the metrics can count nudges, redirects and give-ups. See
``docs/users.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import Move, decide
from .script import END, round_action

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode

__all__ = ["END", "ScriptedUser", "round_action"]


def note_move(episode: "Episode", move: Move, action: str) -> None:
    """Tell the episode what kind of move ``action`` is (counted once the action is applied)."""
    note = getattr(episode, "note_user_move", None)
    if note is not None:
        note(move.kind, action)


class ScriptedUser:
    """Deterministic user policy; ``act(episode)`` returns the user seat's next action string."""

    name = "scripted"

    def act(self, episode: "Episode") -> str:
        move = decide(episode)
        note_move(episode, move, move.action)
        return move.action
