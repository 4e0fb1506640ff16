"""Tools only the user seat can call: talk to the assistant with images, end the conversation."""

from __future__ import annotations

from ..tools import USER, InvalidArgument, NotFound, tool
from ..tools.results import Delivery, EndConversation


def _parse_ids(image_ids: str | list[int]) -> tuple[int, ...]:
    if isinstance(image_ids, list):
        raw = image_ids
    else:
        raw = [p.strip() for p in str(image_ids).replace(";", ",").split(",") if p.strip()]
    ids = []
    for item in raw:
        try:
            ids.append(int(item))
        except (TypeError, ValueError):
            raise InvalidArgument(f"image_ids must be integers separated by commas, got {item!r}") from None
    return tuple(ids)


@tool(app="user", visible_to=(USER,), toolboxes=("full", "medium", "compact", "mini"))
def send_message_with_image(world, message: str, image_ids: str | list[int]) -> Delivery:
    """Send the assistant a message together with one or more images.

    Args:
        message: what to say to the assistant.
        image_ids: ids of the images to attach, comma-separated (e.g. "0,1") or a list.
    """
    ids = _parse_ids(image_ids)
    if not ids:
        raise InvalidArgument("image_ids is empty; use a plain message to send text only")
    store = world.services.get("images")
    count = len(store) if store is not None else 0
    bad = [i for i in ids if not 0 <= i < count]
    if bad:
        raise NotFound(f"image id(s) {bad} do not exist; valid ids are 0..{count - 1}")
    return Delivery(text=message, image_ids=ids, to="assistant")


@tool(app="user", visible_to=(USER,), toolboxes=("full", "medium", "compact", "mini"))
def end_conversation(world) -> EndConversation:
    """End the conversation: the task is finished (or abandoned)."""
    return EndConversation()
