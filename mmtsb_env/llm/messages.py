"""OpenAI-format chat messages as local models need them: images decoded, tool arguments as objects.

>>> from PIL import Image
>>> from mmtsb_env.vision.store import to_data_url
>>> url = to_data_url(Image.new("RGB", (8, 4), "red"))
>>> msgs = [{"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": url}}]}]
>>> out, images = split_images(msgs)
>>> out[0]["content"][1], images[0].size
({'type': 'image'}, (8, 4))
>>> count_images(msgs)
1
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image


def load_image(url: str) -> Image.Image:
    """A PIL image (RGB) from a ``data:image/...;base64,`` URL, a ``file://`` URL or a local path."""
    from ..vision.store import from_data_url

    if url.startswith("data:"):
        image = from_data_url(url)
    else:
        path = Path(url[len("file://"):] if url.startswith("file://") else url)
        if url.startswith(("http://", "https://")) or not path.exists():
            raise ValueError(f"cannot load image {url[:60]!r}: only data URLs and local files are supported (no network)")
        with Image.open(path) as img:
            image = img.copy()
    return image.convert("RGB")


def _image_url(part: dict[str, Any]) -> str | None:
    if part.get("type") == "image_url":
        value = part.get("image_url")
        return value.get("url") if isinstance(value, dict) else value
    if part.get("type") == "image" and isinstance(part.get("url") or part.get("image"), str):
        return part.get("url") or part.get("image")
    return None


def is_image_part(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in ("image_url", "image", "input_image")


def count_images(messages: list[dict[str, Any]]) -> int:
    """Number of image parts in ``messages``."""
    return sum(1 for m in messages if isinstance(m.get("content"), list) for p in m["content"] if is_image_part(p))


def split_images(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Image.Image]]:
    """Replace image parts by ``{"type": "image"}`` placeholders; return the PIL images in order."""
    images: list[Image.Image] = []
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if is_image_part(part):
                    obj = part.get("image") if part.get("type") == "image" else None
                    if isinstance(obj, Image.Image):
                        images.append(obj.convert("RGB"))
                    else:
                        url = _image_url(part)
                        if url is None:
                            raise ValueError(f"image part without a URL: {part!r}")
                        images.append(load_image(url))
                    parts.append({"type": "image"})
                else:
                    parts.append(part)
            message = {**message, "content": parts}
        out.append(message)
    return out, images


CONTENT_STYLES = ("parts", "string")
TOOL_FORMATS = ("openai", "text")


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(p.get("text") or "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")


def _parts(content: Any) -> list[dict[str, Any]]:
    """Content as a non-empty list of parts (some templates index ``content[0]``)."""
    if isinstance(content, str):
        parts = [{"type": "text", "text": content}]
    else:
        parts = []
        for part in content or []:
            if is_image_part(part):
                url = _image_url(part)
                if part.get("type") == "image":
                    parts.append({k: v for k, v in part.items() if v is not None})
                else:
                    parts.append({"type": "image", "url": url} if url else {"type": "image"})
            elif isinstance(part, dict) and part.get("type") == "text":
                parts.append({"type": "text", "text": str(part.get("text") or "")})
    return parts or [{"type": "text", "text": ""}]


def _parsed_calls(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for call in calls:
        fn = dict(call.get("function") or call)
        args = fn.get("arguments")
        if isinstance(args, str):
            try:
                args = json.loads(args or "{}")
            except json.JSONDecodeError:
                pass  # kept verbatim: the template shows what the model wrote
        item = {"type": call.get("type") or "function", "function": {"name": fn.get("name"), "arguments": args}}
        if call.get("id"):
            item["id"] = call["id"]
        out.append(item)
    return out


def _as_text_turn(message: dict[str, Any]) -> dict[str, Any]:
    """A tool call as ``<tool_call>`` text in an assistant turn, a tool result as a ``<tool_response>`` user turn."""
    parts = _parts(message.get("content"))
    if message["role"] == "tool":
        if not any(p.get("type") == "image" for p in parts):
            return {"role": "user", "content": [{"type": "text", "text": f"<tool_response>\n{_text_of(parts)}\n</tool_response>"}]}
        body = [p for p in parts if p.get("type") != "text" or p["text"]]
        return {"role": "user", "content": [{"type": "text", "text": "<tool_response>\n"}, *body,
                                            {"type": "text", "text": "\n</tool_response>"}]}
    calls = _parsed_calls(message.get("tool_calls") or [])
    if not calls:
        return {"role": message["role"], "content": parts}
    tags = "\n".join("<tool_call>\n" + json.dumps({"name": c["function"]["name"], "arguments": c["function"]["arguments"]},
                                                   ensure_ascii=False) + "\n</tool_call>" for c in calls)
    prose = _text_of(parts)
    return {"role": message["role"], "content": [{"type": "text", "text": f"{prose}\n{tags}" if prose else tags}]}


def _merge_runs(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Join consecutive turns of one role (templates such as Gemma 3's require strict alternation)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if out and out[-1]["role"] == m["role"] and m["role"] != "system":
            out[-1] = {"role": m["role"], "content": [*out[-1]["content"], {"type": "text", "text": "\n"}, *m["content"]]}
        else:
            out.append(m)
    return out


def template_ready(messages: list[dict[str, Any]], *, tool_format: str = "openai", content: str = "parts") -> list[dict[str, Any]]:
    r"""Copies of OpenAI-format ``messages`` that stock Jinja chat templates render without choking.

    The environment's ``info["messages"]`` follow the OpenAI wire format (``content: null`` on a
    tool-call turn, arguments as JSON strings, ``image_url`` parts). Chat templates expect other
    things, so this is the one switch to apply before ``apply_chat_template``:

    * content is never ``null`` or empty: a list of parts with at least one (``content="parts"``,
      what vision templates index into) or a plain string (``content="string"``, for text-only
      templates; a message with images then raises);
    * image parts become ``{"type": "image", ...}`` (the URL kept under ``url``);
    * keys whose value is ``None`` are dropped (templates test ``'tool_calls' in message``);
    * ``tool_format="openai"``: ``tool_calls`` kept, arguments parsed to objects;
      ``tool_format="text"``: calls become ``<tool_call>{json}</tool_call>`` text, tool results
      ``<tool_response>`` user turns, and consecutive turns of one role are merged -- for templates
      without tool support, including those that demand strictly alternating roles (Gemma 3).

    >>> m = [{"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
    ...       "function": {"name": "open_app", "arguments": '{"app": "notes"}'}}]}]
    >>> template_ready(m)[0]["content"], template_ready(m)[0]["tool_calls"][0]["function"]["arguments"]
    ([{'type': 'text', 'text': ''}], {'app': 'notes'})
    >>> template_ready(m, tool_format="text", content="string")[0]["content"]
    '<tool_call>\n{"name": "open_app", "arguments": {"app": "notes"}}\n</tool_call>'
    """
    if tool_format not in TOOL_FORMATS:
        raise ValueError(f"tool_format must be one of {TOOL_FORMATS}, got {tool_format!r}")
    if content not in CONTENT_STYLES:
        raise ValueError(f"content must be one of {CONTENT_STYLES}, got {content!r}")
    out = []
    for message in messages:
        if tool_format == "text":
            out.append(_as_text_turn(message))
            continue
        item = {k: v for k, v in message.items() if v is not None and k not in ("content", "tool_calls")}
        item["content"] = _parts(message.get("content"))
        if message.get("tool_calls"):
            item["tool_calls"] = _parsed_calls(message["tool_calls"])
        out.append(item)
    if tool_format == "text":
        out = _merge_runs(out)
    if content == "string":
        for item in out:
            if any(p.get("type") == "image" for p in item["content"]):
                raise ValueError("content='string' cannot carry image parts; use content='parts' with a vision template")
            item["content"] = _text_of(item["content"])
    return out


def schemas_text(tools: list[dict[str, Any]]) -> str:
    """The tool schemas as system-prompt text, for templates that ignore ``tools=`` (our wording)."""
    lines = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return ("\n\nTools you can call, one JSON schema per line:\n<tools>\n" + lines + "\n</tools>\n"
            'Call one by answering <tool_call>{"name": "<tool name>", "arguments": {...}}</tool_call>.')


def text_only(messages: list[dict[str, Any]], placeholder: str = "(image not shown)") -> list[dict[str, Any]]:
    """Copies with every image part replaced by ``placeholder`` text and text-only contents joined."""
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            texts = [placeholder if is_image_part(p) else str(p.get("text", "")) for p in content]
            message = {**message, "content": " ".join(t for t in texts if t)}
        out.append(dict(message))
    return out
