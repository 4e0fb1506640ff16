"""LLMUser: a language model voices the user seat, held to the scripted user's guarantees.

The script still decides *what* happens (which round, which clarification, when to end: the
same decisions as :class:`~mmtsb_env.users.scripted.ScriptedUser`); the model decides *how* it is
said, with our own prompt holding the round script and the user-side tools
(``send_message_with_image``, ``end_conversation``). The model never sees image pixels. Around
each reply:

- a round's images are always delivered with that round (attached when the model forgets or
  names other ids);
- a reply that states a scenario fact (a value from the images or the expected answer) that the
  script line does not contain, or that drifts from a round's request so far that the
  environment would not recognise the round, or is empty, or tries to end early, is replaced by
  the scripted line;
- after the last round the user ends the conversation (no model call);
- a backend failure falls back to the scripted line (the episode stays valid).

``LLMUser.steps`` records, per turn, what the script wanted, what was sent, whether the model's
text was used (``source``: ``"model"`` / ``"script"``), why not (``reason``) and the model's
token ids and logprobs -- kept apart from the assistant's, so user-simulator tokens are never
mistaken for trainable assistant tokens.

>>> import mmtsb_env
>>> from mmtsb_env.llm import RecordedBackend
>>> env = mmtsb_env.make_env(suite="demo", user=LLMUser(RecordedBackend(["Can you save that receipt as a note called Lunch expense, with its merchant and total?"])))
>>> obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
>>> env.user.steps[0]["source"], info["new_image_ids"]
('model', [0])
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..episode.actions import Message, parse_action
from ..llm.base import BackendError
from ..llm.messages import text_only
from .scripted import END, ScriptedUser, round_action

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode

ROUND_MATCH = 0.7  # the environment recognises a round by ROUGE-L >= 0.7 with its query (or by its images)

_SYSTEM = """You play the owner of a smartphone. An assistant operates the phone for you; you talk to it in short, natural messages.
You follow a script: one request per round, in order. Say what the current step of the script says, in your own words but close to its wording, and nothing else.
You cannot see any image (they are only labelled [image N]). Never describe an image and never state names, amounts, dates or other values that your script does not contain.
To send images, call send_message_with_image with your message and the image ids. To say something without images, just reply with the text.
Call end_conversation only when the script is finished.

Scenario: {description}
Your script:
{script}"""


def _script_text(episode: "Episode") -> str:
    lines = []
    for i, rnd in enumerate(episode.scenario.rounds):
        images = f" (attach image ids {', '.join(map(str, rnd.image_ids))})" if rnd.image_ids else ""
        lines.append(f"Round {i + 1}: {rnd.query}{images}")
        for clar in rnd.clarifications:
            when = f"about {', '.join(clar.keywords)}" if clar.keywords else "anything"
            lines.append(f"  If the assistant asks {when}: {clar.answer}")
    return "\n".join(lines)


def _leaves(value: Any):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, bool) or value is None:
        return
    else:
        yield value


def secret_values(episode: "Episode") -> list[str]:
    """Values the user must not say unless its script says them: scenario facts and image contents."""
    scenario = episode.scenario
    found: list[Any] = list(scenario.facts)
    for image in scenario.images:
        found.extend(_leaves(image.facts))
        if image.render:
            found.extend(_leaves(image.render.get("content", {})))
    out = []
    for value in found:
        if isinstance(value, float):
            text = f"{value:.2f}"
        else:
            text = str(value).strip()
        digits = sum(c.isdigit() for c in text)
        if len(text) >= 4 or (digits >= 3 and len(text) >= 3):
            out.append(text.lower())
    return sorted(set(out))


class LLMUser:
    """``act(episode) -> action string`` with a chat backend, under the scripted user's guarantees.

    Args:
        backend: any :class:`~mmtsb_env.llm.base.ChatBackend`.
        sampling: per-call options (``temperature``, ``max_tokens``...).
        max_length_ratio: a reply longer than this many times its script line is replaced.
    """

    name = "llm"

    def __init__(self, backend: Any, *, sampling: dict[str, Any] | None = None, max_length_ratio: float = 4.0) -> None:
        self.backend = backend
        self.sampling = {"max_tokens": 128, **(sampling or {})}
        self.max_length_ratio = max_length_ratio
        self.script = ScriptedUser()
        self.steps: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ prompt
    def reseed(self, seed: int) -> None:
        """Seed this episode's sampling; the env calls it on reset with a seed drawn from the reset seed."""
        self.sampling["seed"] = int(seed)

    def messages(self, episode: "Episode", instruction: str) -> list[dict[str, Any]]:
        """The model's prompt: our system prompt + the user seat's history (images as labels only)."""
        history = text_only(episode.transcripts[episode.USER].messages_with_image_ids()[1:], placeholder="")
        system = _SYSTEM.format(description=episode.scenario.description or episode.scenario.id,
                                script=_script_text(episode))
        return [{"role": "system", "content": system}, *history, {"role": "user", "content": instruction}]

    def _target(self, episode: "Episode") -> tuple[str, str, tuple[int, ...], str]:
        """(kind, text, image ids, scripted action): kind is ``round``, ``answer`` or ``end``."""
        action = self.script.act(episode)
        if action == END:
            return "end", "", (), action
        nxt = episode.round_index + 1
        if nxt < len(episode.scenario.rounds) and action == round_action(episode, nxt):
            rnd = episode.scenario.rounds[nxt]
            return "round", rnd.query, tuple(rnd.image_ids), action
        return "answer", action, (), action

    # ------------------------------------------------------------------ acting
    def act(self, episode: "Episode") -> str:
        kind, line, image_ids, scripted = self._target(episode)
        record: dict[str, Any] = {"round_index": episode.round_index, "kind": kind, "script": scripted}
        if kind == "end":
            record.update(action=scripted, source="script", reason="script finished")
            self.steps.append(record)
            return scripted
        if kind == "round":
            number = episode.round_index + 2
            what = f"round {number} of {len(episode.scenario.rounds)}: {line}"
            if image_ids:
                what += f" Attach image ids {', '.join(map(str, image_ids))} with send_message_with_image."
        else:
            what = f"answer the assistant's question with: {line}"
        instruction = f"(Your next message -- {what})"
        try:
            completion = self.backend.complete(self.messages(episode, instruction),
                                               episode.offered_tools(episode.USER), **self.sampling)
        except BackendError as exc:
            record.update(action=scripted, source="script", reason=f"backend error: {exc}")
            self.steps.append(record)
            return scripted
        record.update(model_text=completion.raw_text or completion.text, prompt_token_ids=completion.prompt_token_ids,
                      token_ids=completion.token_ids, logprobs=completion.logprobs, usage=dict(completion.usage))
        text, reason = self._read(completion, episode, kind, line)
        if reason is not None:
            record.update(action=scripted, source="script", reason=reason)
            self.steps.append(record)
            return scripted
        assert text is not None
        if image_ids:
            action = json.dumps({"name": "send_message_with_image",
                                 "arguments": {"message": text, "image_ids": ",".join(map(str, image_ids))}},
                                ensure_ascii=False)
        else:
            action = text
        record.update(action=action, source="model", reason=None)
        self.steps.append(record)
        return action

    def _read(self, completion: Any, episode: "Episode", kind: str, line: str) -> tuple[str | None, str | None]:
        """The model's message text, or ``(None, reason)`` when the scripted line must be used."""
        text = completion.text
        for call in completion.tool_calls:
            if call.get("name") == "end_conversation":
                return None, "tried to end before the script was finished"
            if call.get("name") == "send_message_with_image":
                args = call.get("arguments")
                text = args.get("message", "") if isinstance(args, dict) else ""
                break
        else:
            if completion.tool_calls:
                return None, f"called an unknown tool {completion.tool_calls[0].get('name')!r}"
        text = (text or "").strip()
        if not text:
            return None, "empty reply"
        if not isinstance(parse_action(text, "tool"), Message):
            return None, "reply is not a plain message"
        if len(text) > self.max_length_ratio * max(40, len(line)):
            return None, "reply much longer than the script line"
        lowered, allowed = text.lower(), line.lower()
        for value in secret_values(episode):
            if value in lowered and value not in allowed:
                return None, "reply states a scenario fact the script does not give"
        if kind == "round":
            from ..evaluation.similarity import rouge_l

            rnd = episode.scenario.rounds[episode.round_index + 1]
            if not rnd.image_ids and rouge_l(line, text) < ROUND_MATCH:
                return None, "reply too far from the round's request to be recognised"
        return text, None

    def last_step_info(self) -> dict[str, Any]:
        """The record of the user's last turn (see the module docstring)."""
        return dict(self.steps[-1]) if self.steps else {}
