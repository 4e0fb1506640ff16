"""Text-only rounds before late images: a look at the app the task is about to use.

Late arrival needs rounds before the pictures. When the task has no container to prepare and no
recipient to look up (see ``RecipeBase.generic_setup``), the user first asks about the app the
task will work in ("Before I send the pictures, ...": a value the phone holds there, read by a
tool and reported back). The row comes from the domain tables (``generation/domains``) through
the engine, limited to the scenario's apps and to reads, least-used tools first. There are no
rounds about other apps: every round of a scenario belongs to its one story.
"""

from __future__ import annotations

from .core import Build, Part
from .errors import GenerationError
from .engine import choose

# a lead never ends a sentence (":" would make it the request's opening sentence, the same in many scenarios)
SETUP_LEADS = ("Before I send you the pictures, ", "First, before the pictures, ", "While I dig out the pictures, ",
               "Before we get to the pictures, ")


def setup_read(b: Build, apps: set[str]) -> Part:
    """A text-only round reading something in ``apps`` (the apps the scenario's task uses)."""
    part = choose(b, ("read",), lead=b.rng.choice(SETUP_LEADS), only_apps=set(apps))
    if part is None:
        raise GenerationError(f"no question about {sorted(apps)} to ask before the pictures")
    part.role = "setup"
    return part
