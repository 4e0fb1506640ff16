"""RandomAgent: a sanity baseline that samples tool calls with plausible-looking arguments."""

from __future__ import annotations

import json
import random
from typing import Any


class RandomAgent:
    """Calls a random offered tool with arguments drawn from its schema; sometimes messages the user."""

    reads_images = False  # it never looks at pixels: runners skip drawing and encoding them

    def __init__(self, seed: int = 0, message_rate: float = 0.2) -> None:
        self.rng = random.Random(seed)
        self.message_rate = message_rate

    def _value(self, schema: dict[str, Any]) -> Any:
        if "enum" in schema:
            return self.rng.choice(schema["enum"])
        kind = schema.get("type")
        if kind == "integer":
            return self.rng.randint(0, 200)
        if kind == "number":
            return round(self.rng.uniform(0, 100), 2)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "array":
            return [self._value(schema.get("items", {"type": "string"})) for _ in range(self.rng.randint(0, 2))]
        if kind == "object":
            return {}
        return self.rng.choice(["test", "hello", "note", "2026-04-20T10:00:00Z", ""])

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        tools = info.get("tools") or []
        if not tools or self.rng.random() < self.message_rate:
            return "I have finished."
        fn = self.rng.choice(tools)["function"]
        props = fn["parameters"].get("properties", {})
        required = set(fn["parameters"].get("required", []))
        args = {k: self._value(v) for k, v in props.items() if k in required or self.rng.random() < 0.3}
        return json.dumps({"name": fn["name"], "arguments": args})
