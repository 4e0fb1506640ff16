"""The generator's design axes: information flows, challenges, image arrival patterns, domains, image categories.

>>> len(FLOWS) * len(CHALLENGES) * len(ARRIVALS)
112
>>> len(DOMAINS)
16
>>> cells()[0]
('aggregate', 'none', 'upfront')
"""

from __future__ import annotations

from itertools import product

# How information moves from the images into the task (the paper's seven flow types).
FLOWS = ("aggregate", "compare", "filter", "compute", "validate", "lookup_chain", "cross_reference")
# What makes the conversation harder than a single request.
CHALLENGES = ("none", "goal_change", "error_correction", "state_mutation")
# When the images reach the assistant.
ARRIVALS = ("upfront", "progressive", "late", "mixed")
# Every application domain of the simulated device (app names as in ``Tool.app``).
DOMAINS = (
    "alarms", "amazon", "calendar", "contacts", "file_system", "gmail", "messages", "phone", "reminder",
    "setting", "simple_note", "splitwise", "spotify", "supervisor", "todoist", "venmo",
)
# Image categories (``ImageSpec.category``) and the render kinds that draw them.
CATEGORIES = {
    "receipt": ("receipt",),
    "invoice": ("invoice",),
    "business_card": ("business_card",),
    "event_poster": ("event_poster",),
    "chart": ("bar_chart", "line_chart", "pie_chart"),
    "price_tag": ("price_tag",),
    "sign": ("sign",),
    "table_document": ("table_document",),
    "handwritten_note": ("handwritten_note",),
    "settings": ("settings_screen",),  # screenshots of a phone's Settings app (the settings flow: generation/settings_recipe.py)
}
MIN_IMAGES, MAX_IMAGES = 3, 6
# how often a scenario draws 3, 4, 5 or 6 images (the paper's scenarios: six is the most common, 63 %)
IMAGE_COUNT_WEIGHTS = {3: 1, 4: 1, 5: 1, 6: 8}
MIN_ROUNDS, MAX_ROUNDS = 2, 5


def cells() -> list[tuple[str, str, str]]:
    """Every (flow, challenge, arrival) combination, in a fixed order."""
    return list(product(FLOWS, CHALLENGES, ARRIVALS))


def check_axis(name: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    """``value`` if it is ``None`` or allowed, else ValueError listing the allowed values."""
    if value is not None and value not in allowed:
        raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}")
    return value
