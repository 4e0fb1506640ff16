"""Turn the episode's new log entries into a seat's observation and info."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..episode.engine import Episode
from ..episode.log import entry_text


MESSAGE_IMAGES = ("url", "id")


@dataclass(frozen=True)
class ObsConfig:
    max_images: int = 4
    height: int = 336
    width: int = 336
    message_images: str = "url"
    info_transfer: str = "new"

    def __post_init__(self) -> None:
        if self.message_images not in MESSAGE_IMAGES:
            raise ValueError(f"message_images must be one of {MESSAGE_IMAGES}, got {self.message_images!r}")


class MessageHistory(list):
    """``info["messages"]``: the seat's whole chat; ``start`` is where this step's new messages begin.

    Copied in-process (``copy``/``deepcopy``) it stays whole. Pickled -- an AsyncVectorEnv
    worker's pipe, a server -- with ``send_all=False`` it carries only ``self[start:]`` (and
    ``start``, ``complete=False``), so the bytes per step do not grow with the episode;
    :func:`extend_history` rebuilds the whole list on the receiving side.

    >>> import pickle
    >>> h = MessageHistory([{"role": "user"}, {"role": "assistant"}, {"role": "tool"}], start=2)
    >>> sent = pickle.loads(pickle.dumps(h))
    >>> list(sent), sent.start, sent.complete
    ([{'role': 'tool'}], 2, False)
    >>> extend_history(list(h[:2]), sent) == h
    True
    """

    def __init__(self, messages: Any = (), *, start: int = 0, complete: bool = True, send_all: bool = False) -> None:
        super().__init__(messages)
        self.start, self.complete, self.send_all = start, complete, send_all

    def __reduce__(self) -> tuple[Any, ...]:
        if self.send_all or not self.complete:
            return _history, (list(self), self.start, self.complete)
        return _history, (list(self[self.start:]), self.start, False)

    def __copy__(self) -> "MessageHistory":
        return MessageHistory(self, start=self.start, complete=self.complete, send_all=self.send_all)

    def __deepcopy__(self, memo: dict) -> "MessageHistory":
        import copy

        return MessageHistory(copy.deepcopy(list(self), memo), start=self.start, complete=self.complete, send_all=self.send_all)


def _history(messages: list, start: int, complete: bool) -> MessageHistory:
    return MessageHistory(messages, start=start, complete=complete)


def extend_history(history: list[dict[str, Any]], received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The whole chat from the previous one and a received ``info["messages"]`` (whole or new only).

    ``history`` is the list built so far for that env (empty after a reset); a received
    :class:`MessageHistory` that is not ``complete`` replaces everything from its ``start`` on.
    """
    if getattr(received, "complete", True):
        return list(received)
    if received.start > len(history):
        raise ValueError(f"received messages start at {received.start} but only {len(history)} are known; "
                         "keep every step's info['messages'] of an episode (or set info_transfer='full')")
    return [*history[:received.start], *received]


class LazyImages(Mapping):
    """``info["images"]``: image id -> PIL image, drawn only when looked up.

    Pickled with ``send_pixels=False`` it carries the ids only (a :class:`SentImageIds`)."""

    def __init__(self, store: Any, ids: list[int], send_pixels: bool = True) -> None:
        self._store, self._ids, self._send_pixels = store, list(ids), send_pixels

    def __getitem__(self, image_id: int) -> Any:
        if image_id not in self._ids:
            raise KeyError(image_id)
        return self._store.get(image_id)

    def __iter__(self) -> Iterator[int]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return f"LazyImages(ids={self._ids})"

    def __reduce__(self) -> tuple[Any, ...]:
        # sent to another process (async vector envs): the images drawn, or their ids only
        if not self._send_pixels:
            return SentImageIds, (self._ids,)
        return dict, (dict(self.items()),)

    def __deepcopy__(self, memo: dict) -> "LazyImages":
        return LazyImages(self._store, self._ids, self._send_pixels)  # the store is immutable per image id


class SentImageIds(Mapping):
    """``info["images"]`` received from another process with ``info_transfer="new"``: ids, no pixels."""

    def __init__(self, ids: list[int]) -> None:
        self._ids = list(ids)

    def __getitem__(self, image_id: int) -> Any:
        if image_id in self._ids:
            raise KeyError(f"image {image_id}: images are not sent across processes with info_transfer='new'; "
                           "read obs['images'], or make the env with info_transfer='full'")
        raise KeyError(image_id)

    def __iter__(self) -> Iterator[int]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return f"SentImageIds({self._ids})"


class ToolSchemas(list):
    """``info["tools"]``: the seat's tool schemas, pickled as one blob made once per tool set.

    The offered tools rarely change within an episode, yet an AsyncVectorEnv worker pickles
    ``info`` every step and the main process unpickles every schema again (~70 us per env for
    29 tools). Every step with the same tools shares one :class:`PackedTools`, whose blob is the
    pickled list made on first send; the receiving process unpickles each distinct blob once
    (:func:`_received_tools`) and gets a plain ``list`` equal to the sender's. A list changed in
    place after the env returned it is pickled as it now is.

    >>> import pickle
    >>> packed = PackedTools([{"name": "a"}, {"name": "b"}])
    >>> sent = pickle.loads(pickle.dumps(ToolSchemas(packed)))
    >>> sent == packed.schemas, type(sent).__name__
    (True, 'list')
    """

    def __init__(self, packed: "PackedTools") -> None:
        super().__init__(packed.schemas)
        self._packed = packed

    def __reduce__(self) -> tuple[Any, ...]:
        if self != self._packed.schemas:  # edited after the env returned it
            return list, (list(self),)
        return _received_tools, (self._packed.blob(),)

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list:
        import copy

        return copy.deepcopy(list(self), memo)


class PackedTools:
    """One tool set's schemas and, made when first pickled, their pickled bytes."""

    def __init__(self, schemas: list[dict[str, Any]]) -> None:
        self.schemas, self._blob = list(schemas), None

    def blob(self) -> bytes:
        if self._blob is None:
            import pickle

            self._blob = pickle.dumps(self.schemas, protocol=pickle.HIGHEST_PROTOCOL)
        return self._blob


_RECEIVED_TOOLS: dict[bytes, list[dict[str, Any]]] = {}
_RECEIVED_TOOLS_KEPT = 64


def _received_tools(blob: bytes) -> list[dict[str, Any]]:
    """The tool list a blob holds, unpickled once per distinct blob in this process (the last
    ``_RECEIVED_TOOLS_KEPT`` kept). Steps share the schema dicts, as in the sending env."""
    schemas = _RECEIVED_TOOLS.pop(blob, None)
    if schemas is None:
        import pickle

        schemas = pickle.loads(blob)
        if len(_RECEIVED_TOOLS) >= _RECEIVED_TOOLS_KEPT:
            del _RECEIVED_TOOLS[next(iter(_RECEIVED_TOOLS))]
    _RECEIVED_TOOLS[blob] = schemas  # most recently used last
    return list(schemas)


def zero_images(shape: tuple[int, ...]) -> np.ndarray:
    """A read-only all-zero ``uint8`` tensor of ``shape`` that costs one byte: every element is
    the same byte of its own fresh buffer (stride 0), so no two observations share memory
    (Gymnasium's data-reuse check) and nothing of 1.35 MB is allocated, zeroed or freed per step.

    >>> a, b = zero_images((2, 3, 3, 3)), zero_images((2, 3, 3, 3))
    >>> a.shape, int(a.sum()), a.flags.writeable, bool(np.shares_memory(a, b))
    ((2, 3, 3, 3), 0, False, False)
    """
    images = np.ndarray(shape, np.uint8, buffer=bytearray(1), strides=(0,) * len(shape))
    images.flags.writeable = False
    return images


class Observer:
    """Per-seat observation cursors over an episode.

    Image slots are filled from each image's fitted pixels (shared process-wide for scenario
    images, see :meth:`~mmtsb_env.vision.store.ImageStore.fitted`). Every observation's image
    tensor is its own and read-only (copy it to modify it); one without images is a one-byte
    zero tensor (:func:`zero_images`). Data URLs are made at the same resolution.
    """

    def __init__(self, episode: Episode, config: ObsConfig) -> None:
        self.episode = episode
        self.config = config
        self._start = {seat: 0 for seat in (Episode.ASSISTANT, Episode.USER)}
        self._seen = {seat: 0 for seat in (Episode.ASSISTANT, Episode.USER)}
        self._tools: dict[str, PackedTools] = {}
        episode.set_image_resolution(config.height, config.width)

    def mark_acting(self, seat: str) -> None:
        """Call just before ``seat`` acts: its next observation starts after this point."""
        self._start[seat] = len(self.episode.log)
        self._seen[seat] = len(self.episode.transcripts[seat])

    def entries(self, seat: str):
        return [e for e in self.episode.log[self._start[seat]:] if e.visible(seat) and e.sender != seat]

    def observe(self, seat: str) -> tuple[dict[str, Any], list[int]]:
        entries = self.entries(seat)
        text = "\n".join(entry_text(e, seat) for e in entries)
        ids: list[int] = []
        for e in entries:
            ids.extend(i for i in e.image_ids if i not in ids)
        cfg = self.config
        shown = ids[-cfg.max_images:] if cfg.max_images else []
        shape = (cfg.max_images, cfg.height, cfg.width, 3)
        if shown:
            from ..vision.store import pad_into

            images = np.zeros(shape, np.uint8)
            for slot, image_id in enumerate(shown):
                pad_into(images[slot], self.episode.images.fitted(image_id, cfg.height, cfg.width))
            images.flags.writeable = False
        else:
            images = zero_images(shape)
        if len(ids) > len(shown):
            text += f"\n(Only the last {len(shown)} of {len(ids)} new images are in the image tensor.)"
        return {"text": text, "images": images, "image_count": len(shown)}, ids

    def _messages(self, seat: str) -> MessageHistory:
        transcript = self.episode.transcripts[seat]
        messages = transcript.messages if self.config.message_images == "url" else transcript.messages_with_image_ids()
        return MessageHistory(messages, start=min(self._seen[seat], len(messages)), send_all=self.config.info_transfer == "full")

    def _offered_tools(self, seat: str) -> ToolSchemas:
        schemas = self.episode.offered_tools(seat)
        packed = self._tools.get(seat)
        if packed is None or packed.schemas != schemas:  # the same schema dicts: a pointer compare each
            packed = self._tools[seat] = PackedTools(schemas)
        return ToolSchemas(packed)

    def info(self, seat: str, new_ids: list[int], components: dict[str, float] | None, error: str | None) -> dict[str, Any]:
        ep = self.episode
        info: dict[str, Any] = {
            "scenario_id": ep.scenario.id,
            "messages": self._messages(seat),
            "tools": self._offered_tools(seat),
            "new_image_ids": list(new_ids),
            "images": LazyImages(ep.images, new_ids, send_pixels=self.config.info_transfer == "full"),
            "reward_components": dict(components or {"entity_f1": ep.f1, "delta_f1": 0.0, "judge": 0.0}),
            "round_index": ep.round_index,
            "action_error": error,
            "step": ep.step_count,
            "user_dynamics": ep.user_dynamics(),
        }
        if ep.verdict is not None:
            info["verdict"] = ep.verdict.to_json()
            info["entity_f1"] = ep.f1
        return info
