"""How a suite compares with the paper's scenarios: the measures of issue #32, computed from the files.

:func:`suite_measures` reads a list of scenarios and returns one number per measure; every
number is computed from what the scenario holds (rows, rounds, solutions, expected changes), not
from a label the generator wrote, except where noted. :func:`measures_table` prints them beside
the figures of the reference's own scenario files (``REFERENCE``; a sample of 60 nominal and 50
UI files, see ``docs/generation.md``).

``python -m mmtsb_env.generation.measures [SUITE]`` prints the table for a suite (default ``nominal``).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from typing import Any, Iterable, Sequence

from ..scenario.model import Scenario
from ..tools.catalog import get_tool

# the reference sample's figures (name -> (value, how it is shown))
REFERENCE: dict[str, str] = {
    "staged_rows_mean": "8.7",
    "staged_none_share": "2 %",
    "disambiguation_share": "60 %",
    "correction_contradicts_image": "12 of 13",
    "mutation_touches_staged": "15 of 20",
    "query_words_mean": "41",
    "guidance_words_mean": "74",
    "unrelated_rounds": "0",
    "six_image_share": "63 %",
    "web_search_share": "35 %",
    "vision_in_reference_path_share": "0 % (never mandated)",
}

VISION_APP = "vision"
WEB_TOOL = "web_search_serper"
# columns that name a row for a person reading a list (what a look-alike shares with its target)
LABEL_COLUMNS = ("title", "name", "label", "subject", "description", "first_name", "path", "file_path", "content")
_WORD = re.compile(r"[a-z0-9']+")


def words(text: str) -> int:
    return len(text.split())


def label_of(row: dict[str, Any]) -> str:
    """What a person calls a row: its title/name/label..., with a contact's first name first."""
    if row.get("first_name"):
        return f"{row['first_name']} {row.get('last_name') or ''}".strip()
    for col in LABEL_COLUMNS:
        v = row.get(col)
        if isinstance(v, str) and v.strip():
            return v.strip().splitlines()[0]
    return ""


def look_alike(a: str, b: str) -> bool:
    """Whether two labels are easy to confuse: same first name, or titles sharing most of their words."""
    if not a or not b:
        return False
    wa, wb = _WORD.findall(a.lower()), _WORD.findall(b.lower())
    if not wa or not wb:
        return False
    if wa[0] == wb[0] and (len(wa) <= 2 or len(wb) <= 2):  # "Dana Ortiz" / "Dana Kim"
        return True
    sa, sb = set(wa), set(wb)
    return len(sa & sb) / len(sa | sb) >= 0.5


def staged_rows(s: Scenario) -> int:
    return sum(len(rows) for rows in s.initial_entities.values())


def _targets(s: Scenario) -> list[tuple[str, Any, str]]:
    """(table, key or None, label) of every row the expected changes touch or make."""
    out = []
    staged = {(t, r.get(_key(t))): r for t, rows in s.initial_entities.items() for r in rows}
    for c in s.expected_changes:
        if c.operation == "create":
            out.append((c.table, None, label_of(c.row or {})))
        else:
            row = staged.get((c.table, c.key))
            out.append((c.table, c.key, label_of(row) if row else ""))
    return out


def _key(table: str) -> str:
    import mmtsb_env.apps  # noqa: F401  (declares the tables)
    from ..world.schema import TABLES

    spec = TABLES.get(table)
    return spec.key if spec is not None else "id"


def lookalike_pairs(s: Scenario) -> list[tuple[str, Any, Any]]:
    """(table, target key or 'new', look-alike key): staged rows easy to confuse with a row the task touches or makes."""
    pairs = []
    for table, key, label in _targets(s):
        if not label:
            continue
        k = _key(table)
        for r in s.initial_entities.get(table, []):
            if r.get(k) != key and look_alike(label, label_of(r)):
                pairs.append((table, "new" if key is None else key, r.get(k)))
    return pairs


def recorded_lookalikes(s: Scenario) -> list[dict[str, Any]]:
    """The generator's ``metadata.lookalikes`` entries that hold: the row is staged and its label is
    easy to confuse with the row it imitates (a staged or base-world row, or for ``"new"`` a row
    the task creates)."""
    from .world_index import world_index

    out = []
    for e in s.metadata.get("lookalikes", []):
        table = e.get("table", "")
        k = _key(table)
        row = next((r for r in s.initial_entities.get(table, []) if r.get(k) == e.get("key")), None)
        if row is None:
            continue
        of = str(e.get("of"))
        if of == "new" or of.startswith("new:"):  # a row the task makes (in this table, or in the one named)
            made_in = of[4:] or table
            labels = [label_of(c.row or {}) for c in s.expected_changes if c.table == made_in and c.operation == "create"]
        else:
            target = next((r for r in s.initial_entities.get(table, []) if r.get(k) == e.get("of")), None)
            target = target or world_index(s.world_seed).tables.get(table, {}).get(e.get("of"))
            labels = [label_of(target)] if target else []
        if any(look_alike(lab, label_of(row)) for lab in labels):
            out.append(e)
    return out


def needs_disambiguation(s: Scenario) -> bool:
    """A clarification the user answers, or a staged look-alike of a row the task touches or makes."""
    return any(r.clarifications for r in s.rounds) or bool(lookalike_pairs(s)) or bool(recorded_lookalikes(s))


def mutation_touches_staged(s: Scenario) -> bool:
    """An expected update or delete of a row staged for the scenario (not one the assistant made)."""
    staged = {(t, r.get(_key(t))) for t, rows in s.initial_entities.items() for r in rows}
    return any(c.operation in ("update", "delete") and (c.table, c.key) in staged for c in s.expected_changes)


def correction_contradicts_image(s: Scenario) -> bool:
    """The user states a value an image contradicts: a ``metadata.error_claims`` entry (source
    ``image``) that holds -- its round is a correction whose query carries the wrong value and not
    the right one, and the right value is one the images show or give (and the reply reports)."""
    shown = set(map(str, s.metadata.get("image_values", []))) | set(map(str, s.metadata.get("derived_values", []))) | set(s.facts)
    for claim in s.metadata.get("error_claims", []):
        if claim.get("source") != "image" or not 0 <= claim.get("round", -1) < len(s.rounds):
            continue
        r = s.rounds[claim["round"]]
        right, wrong = str(claim.get("right")), str(claim.get("wrong"))
        if r.kind == "correction" and wrong in r.query and right not in r.query and right in shown and right in r.report:
            return True
    return False


def unrelated_rounds(s: Scenario) -> int:
    """Rounds about something other than the images.

    From ``metadata.round_roles`` when the generator wrote it (roles ``warmup`` / ``aside``); else
    read off the rounds: a task round without images whose solution shares no app with an image
    round and carries no image value, result or fact of the scenario.
    """
    roles = s.metadata.get("round_roles")
    if roles:
        return sum(1 for role in roles if role in ("warmup", "aside"))
    image_apps = {get_tool(st["name"]).app for r in s.rounds if r.image_ids for st in r.solution if "name" in st}
    image_apps.discard(VISION_APP)
    values = [v for v in (list(s.metadata.get("image_values", [])) + list(s.metadata.get("derived_values", [])) + list(s.facts))
              if len(str(v)) > 3]
    n = 0
    for r in s.rounds:
        if r.image_ids or r.kind != "task":
            continue
        apps = {get_tool(st["name"]).app for st in r.solution if "name" in st}
        text = json.dumps(r.solution) + r.query + r.answer
        if apps and not apps & image_apps and not any(str(v) in text for v in values):
            n += 1
    return n


def _tools(s: Scenario) -> set[str]:
    return {st["name"] for r in s.rounds for st in r.solution if "name" in st}


def vision_on_legible(s: Scenario) -> int:
    """Visual tool calls of the reference path on an image legible as sent (below the level that
    needs the tools; turning a sideways photo upright is allowed at any level). The paper offers the
    tools and never mandates them where an image can be read as it arrives."""
    from .engine import VISION_MIN_DIFFICULTY

    level = {i: (im.render or {}).get("difficulty", 0) for i, im in enumerate(s.images)}
    return sum(1 for r in s.rounds for st in r.solution
               if "name" in st and st["name"] != "rotate_image" and get_tool(st["name"]).app == VISION_APP
               and isinstance(st.get("arguments", {}).get("image_id"), int)
               and level.get(st["arguments"]["image_id"], 0) < VISION_MIN_DIFFICULTY)


def suite_measures(scenarios: Sequence[Scenario]) -> dict[str, Any]:
    """The issue's measures over ``scenarios`` (shares are fractions 0-1)."""
    n = len(scenarios) or 1
    rounds = [r for s in scenarios for r in s.rounds]
    ec = [s for s in scenarios if s.metadata.get("challenge_type") == "error_correction"]
    sm = [s for s in scenarios if s.metadata.get("challenge_type") == "state_mutation"]
    staged = [staged_rows(s) for s in scenarios]
    return {
        "scenarios": len(scenarios),
        "staged_rows_mean": sum(staged) / n,
        "staged_none_share": sum(1 for x in staged if x == 0) / n,
        "staged_share": sum(1 for x in staged if x > 0) / n,
        "disambiguation_share": sum(needs_disambiguation(s) for s in scenarios) / n,
        "lookalike_share": sum(bool(lookalike_pairs(s) or recorded_lookalikes(s)) for s in scenarios) / n,
        "correction_contradicts_image": (sum(correction_contradicts_image(s) for s in ec), len(ec)),
        "mutation_touches_staged": (sum(mutation_touches_staged(s) for s in sm), len(sm)),
        "query_words_mean": sum(words(r.query) for r in rounds) / max(1, len(rounds)),
        "query_words_in_30_60": sum(30 <= words(r.query) <= 60 for r in rounds) / max(1, len(rounds)),
        "guidance_words_mean": sum(words(r.instructions) for r in rounds) / max(1, len(rounds)),
        "unrelated_rounds": sum(unrelated_rounds(s) for s in scenarios),
        "scenarios_with_unrelated_rounds": sum(unrelated_rounds(s) > 0 for s in scenarios),
        "image_counts": dict(sorted(Counter(len(s.images) for s in scenarios).items())),
        "six_image_share": sum(len(s.images) == 6 for s in scenarios) / n,
        "web_search_share": sum(WEB_TOOL in _tools(s) for s in scenarios) / n,
        "vision_in_reference_path_share": sum(any(get_tool(t).app == VISION_APP for t in _tools(s)) for s in scenarios) / n,
        "vision_on_legible_share": sum(vision_on_legible(s) > 0 for s in scenarios) / n,
        "described_share": sum(bool(s.description.strip()) and bool(s.metadata.get("persona")) for s in scenarios) / n,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def measures_rows(m: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(measure, reference sample, this suite) rows of the comparison table."""
    ec_hit, ec_n = m["correction_contradicts_image"]
    sm_hit, sm_n = m["mutation_touches_staged"]
    return [
        ("staged initial rows per scenario (mean / share with none)", f"{REFERENCE['staged_rows_mean']} / {REFERENCE['staged_none_share']}",
         f"{m['staged_rows_mean']:.1f} / {_pct(m['staged_none_share'])}"),
        ("scenarios needing disambiguation (look-alike rows, a clarification)", REFERENCE["disambiguation_share"],
         _pct(m["disambiguation_share"])),
        ("error correction: the user's value contradicts an image", REFERENCE["correction_contradicts_image"], f"{ec_hit} of {ec_n}"),
        ("state mutation updates/deletes staged rows", REFERENCE["mutation_touches_staged"], f"{sm_hit} of {sm_n}"),
        ("words per round: query / private guidance", f"{REFERENCE['query_words_mean']} / {REFERENCE['guidance_words_mean']}",
         f"{m['query_words_mean']:.0f} / {m['guidance_words_mean']:.0f}"),
        ("rounds unrelated to the images", REFERENCE["unrelated_rounds"],
         f"{m['unrelated_rounds']} in {m['scenarios_with_unrelated_rounds']} scenarios"),
        ("six-image scenarios", REFERENCE["six_image_share"], _pct(m["six_image_share"])),
        ("scenarios using web search", REFERENCE["web_search_share"], _pct(m["web_search_share"])),
        ("vision tools in the reference path (on an image legible as sent)", REFERENCE["vision_in_reference_path_share"],
         f"{_pct(m['vision_in_reference_path_share'])} ({_pct(m['vision_on_legible_share'])})"),
    ]


def measures_table(scenarios: Sequence[Scenario], name: str = "this suite") -> str:
    """A markdown table of :func:`measures_rows`."""
    rows = measures_rows(suite_measures(scenarios))
    lines = [f"| | reference sample | {name} |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def main(argv: Iterable[str] | None = None) -> int:
    import mmtsb_env

    args = list(sys.argv[1:] if argv is None else argv)
    name = args[0] if args else "nominal"
    print(measures_table(mmtsb_env.load_suite(name), name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
