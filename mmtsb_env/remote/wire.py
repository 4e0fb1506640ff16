"""What a remote episode sends per step, as JSON: the observation and the parts of ``info`` that are new.

* ``observation``: ``text``, ``image_count`` and ``images``: PNG data URLs (at the env's model
  resolution) of the images in the observation's slots, oldest first.
* ``info``: everything the env's ``info`` has, JSON-ready, except that ``messages`` holds only
  the messages this step added (``messages_start`` says where they go), ``images`` is left out
  (the pixels are in ``observation["images"]``, the ids in ``new_image_ids``), and ``tools`` is
  sent only when the offered tools changed (:class:`ToolsCache`).

:class:`~mmtsb_env.remote.client.RemoteEnv` rebuilds the whole message list and the tools on its side.
"""

from __future__ import annotations

from typing import Any

from ..envs.observe import MessageHistory


class ToolsCache:
    """Per-episode memory of the tool list last sent, so unchanged tools are not resent."""

    def __init__(self) -> None:
        self._last: list[Any] | None = None

    def changed(self, tools: list[Any]) -> bool:
        last = self._last
        same = last is not None and len(last) == len(tools) and all(a is b for a, b in zip(last, tools))
        self._last = list(tools)
        return not same


def observation_json(env: Any, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    count = int(obs["image_count"])
    shown = list(info.get("new_image_ids") or [])[-count:] if count else []
    return {"text": obs["text"], "image_count": count, "images": [env.episode.image_url(i) for i in shown]}


def info_json(info: dict[str, Any], tools: ToolsCache) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in info.items():
        if key == "images":
            continue
        if key == "messages":
            start = value.start if isinstance(value, MessageHistory) else 0
            out["messages"], out["messages_start"] = list(value[start:]), start
        elif key == "tools":
            if tools.changed(value):
                out["tools"] = value
        else:
            out[key] = value
    return out


def step_json(env: Any, episode_id: str, obs: dict[str, Any], reward: float, terminated: bool, truncated: bool,
              info: dict[str, Any], tools: ToolsCache) -> dict[str, Any]:
    return {"episode_id": episode_id, "observation": observation_json(env, obs, info), "reward": float(reward),
            "terminated": bool(terminated), "truncated": bool(truncated), "done": bool(terminated or truncated),
            "info": info_json(info, tools)}
