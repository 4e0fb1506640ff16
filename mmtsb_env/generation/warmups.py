"""Text-only rounds around the image work: warm-ups before late images, asides after the task.

Both come from the domain tables (``generation/domains``) through the engine, least-used tools
first. A **warm-up** (late arrival: what a user asks before sending pictures) reads one value the
phone holds and reports it, or creates something, or does a cross-app errand -- nothing that
updates or deletes rows the later rounds might need. An **aside** (a closing "oh, and..." round
of upfront and mixed scenarios) may also update or delete, in apps the other rounds leave alone.
A scenario never uses the same table row twice.
"""

from __future__ import annotations

from ..tools.registry import get_tool
from .core import Build, GenerationError, Part
from .engine import choose

# a lead never ends a sentence (":" would make it the request's opening sentence, the same in many scenarios)
WARMUP_LEADS = ("", "", "Before I send you some pictures, ", "First, ", "Quick one before the photos - ", "Before we start, ",
                "While I find the pictures, ", "One thing first - ")
ASIDE_LEADS = ("", "Also, ", "One more thing: ", "Oh, and ", "Unrelated, but ", "Before I forget: ")


def warmup(b: Build, used: set[str] | None = None) -> Part:
    """A text-only opening round (reads, creates and cross-app errands only)."""
    part = choose(b, ("read", "write", "flow"), lead=b.rng.choice(WARMUP_LEADS), ops=("create",))
    if part is None:
        raise GenerationError("no warm-up question left")
    return part


def written_apps(parts: list[Part]) -> set[str]:
    """Apps whose rows the rounds change (their solution writes or their state changes)."""
    apps = {get_tool(st["name"]).app for p in parts for st in p.steps if "name" in st and get_tool(st["name"]).writes}
    apps |= {ch["table"].split(".")[0] for p in parts for ch in p.state_changes}
    if "phone" in apps:  # contacts, messages and alarms live in the phone app's tables
        apps |= {"contacts", "messages", "alarms"}
    if apps & {"contacts", "messages", "alarms"}:
        apps.add("phone")
    return apps


def aside(b: Build, parts: list[Part]) -> Part | None:
    """A closing round of its own, touching no app the other rounds change."""
    avoid = written_apps(parts)
    return choose(b, ("read", "write", "flow"), lead=b.rng.choice(ASIDE_LEADS), avoid_apps=avoid)
