"""ChatObservation: observations as the OpenAI-format chat a vision-language model takes."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces

from ._episode import episode_of

ROLES = ("system", "user", "assistant", "tool")
IMAGE_FORMATS = ("url", "pil")


class ChatMessages(spaces.Space):
    """Space of chat histories: lists of ``{"role": ..., ...}`` dicts.

    >>> ChatMessages().contains([{"role": "user", "content": "hi"}])
    True
    >>> ChatMessages().contains("hi")
    False
    """

    def __init__(self, seed: Any = None) -> None:
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return isinstance(x, list) and all(isinstance(m, dict) and m.get("role") in ROLES for m in x)

    def sample(self, mask: Any = None, probability: Any = None) -> list[dict[str, Any]]:
        n = int(self.np_random.integers(1, 40))
        letters = self.np_random.choice(list("abcdefghijklmnopqrstuvwxyz "), size=n)
        return [{"role": "user", "content": "".join(letters)}]

    def __repr__(self) -> str:
        return "ChatMessages()"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ChatMessages)


class ChatObservation(gym.Wrapper):
    """Replace the ``Dict(text, images, image_count)`` observation by chat messages.

    Args:
        env: an mmtsb_env environment (or a wrapper stack over one).
        image_format: ``"url"`` keeps ``image_url`` parts with PNG data URLs (what an
            OpenAI-compatible server such as ``vllm serve`` takes); ``"pil"`` turns them into
            ``{"type": "image", "image": PIL.Image}`` parts (what ``transformers`` processors'
            ``apply_chat_template`` takes).
        history: ``True``: the whole conversation so far (a stateless model needs it every turn);
            ``False``: only what arrived since the agent's last action (chat deltas).
        include_system: keep the system prompt (it is the first message of the first observation).

    The tool schemas stay in ``info["tools"]``. Returned messages are fresh copies: changing them
    never changes the environment's transcript.

    >>> import mmtsb_env
    >>> env = ChatObservation(mmtsb_env.make_env(suite="demo"), image_format="pil")
    >>> obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> [m["role"] for m in obs], [p["type"] for p in obs[-1]["content"]]
    (['system', 'user'], ['text', 'text', 'image'])
    """

    def __init__(self, env: gym.Env, *, image_format: str = "url", history: bool = True, include_system: bool = True) -> None:
        if image_format not in IMAGE_FORMATS:
            raise ValueError(f"image_format must be one of {IMAGE_FORMATS}, got {image_format!r}")
        super().__init__(env)
        self.image_format = image_format
        self.history = history
        self.include_system = include_system
        self.observation_space = ChatMessages()
        self._seen = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._seen = 0  # the new episode's transcript starts from scratch
        return self._messages(info), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._messages(info), reward, terminated, truncated, info

    def _messages(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        messages = info["messages"]
        if self.history:
            chosen = messages
        else:
            chosen = [m for m in messages[self._seen:] if m["role"] != "assistant"]  # not the agent's own turns
        self._seen = len(messages)
        if not self.include_system:
            chosen = [m for m in chosen if m["role"] != "system"]
        ep = episode_of(self.env)
        url_ids = {url: i for i, url in getattr(ep, "_urls", {}).items()} if self.image_format == "pil" else {}
        out = []
        for m in chosen:
            m = dict(m)
            if isinstance(m.get("content"), list):
                m["content"] = [self._image_part(ep, p, url_ids) if p.get("type") in ("image_url", "image") else dict(p)
                                for p in m["content"]]
            if m.get("tool_calls"):
                m["tool_calls"] = [dict(c, function=dict(c["function"])) for c in m["tool_calls"]]
            out.append(m)
        return out

    def _image_part(self, ep: Any, part: dict[str, Any], url_ids: dict[str, int]) -> dict[str, Any]:
        """An image part (a data URL, or an image id when the env sends ``message_images="id"``) in
        this wrapper's format."""
        image_id = part.get("image_id")
        if self.image_format == "url":
            url = ep.image_url(image_id) if image_id is not None else part["image_url"]["url"]
            return {"type": "image_url", "image_url": {"url": url}}
        if image_id is None:
            url = part["image_url"]["url"]
            image_id = url_ids.get(url)
            if image_id is None:  # not one of the episode's cached URLs: decode it
                from mmtsb_env.vision.store import from_data_url

                return {"type": "image", "image": from_data_url(url)}
        return {"type": "image", "image": ep.images.get(image_id)}
