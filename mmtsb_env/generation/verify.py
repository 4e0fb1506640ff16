"""Verification of generated scenarios: solvable, images necessary, well-formed, well distributed.

:func:`verify` checks one scenario:

* **solvable** -- the oracle plays the reference solution through the real environment and
  reaches entity F1 = 1.0 with a passing verdict, in tool mode and (when the sandbox works) in
  code mode and under the paper's harness (``harness="paper"``: code mode, tools found by search
  first, the 100-message and 100-step caps) -- a scenario whose solution, searches included, does
  not fit the paper's caps is not solvable there;
* **images** -- every render spec is valid, and every value the scenario says comes from an image
  (``metadata.image_values`` / ``image_keys``) is in the image's content or recorded facts; with
  ``render_images=True`` every image is also drawn and the values are looked up in the ground
  truth the renderer reports (slower: drawing dominates; the built-in suites are checked this way
  in CI);
* **necessity** -- no image-only value (``image_values``, ``derived_values``) appears in any text
  either seat can read (queries, clarification answers, instructions, description), in the
  initial entities or state changes, or (for names and decimal amounts) anywhere in the base
  world; link values (``image_keys``, e.g. a product name the store also lists) may exist in the
  world but never in the conversation text;
* **structure** -- image and round counts in range, metadata matching the rounds, the image
  arrival pattern matching when images are delivered.

:func:`check_distribution` checks a list of scenarios against the design axes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..scenario.model import Scenario
from .axes import ARRIVALS, CHALLENGES, DOMAINS, FLOWS, MAX_IMAGES, MAX_ROUNDS, MIN_IMAGES, MIN_ROUNDS, cells
from .world_index import norm, world_index


@dataclass
class VerificationReport:
    """The outcome of :func:`verify`; ``ok`` is True when every check that ran passed."""

    scenario_id: str
    ok: bool = True
    problems: list[str] = field(default_factory=list)
    tool_f1: float | None = None
    tool_passed: bool | None = None
    code_f1: float | None = None
    code_passed: bool | None = None
    code_mode: str = "not run"  # "ran" | "sandbox unavailable: ..." | "not run"
    paper_f1: float | None = None  # under harness="paper" (run with code mode)
    paper_passed: bool | None = None

    def fail(self, problem: str) -> None:
        self.ok = False
        self.problems.append(problem)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


# ---------------------------------------------------------------------------- text matching
def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<![0-9a-z])" + re.escape(norm(value)) + r"(?![0-9a-z])")


def contains(text: str, value: str, *, normalised: bool = False) -> bool:
    """``value`` occurs in ``text`` as a whole token sequence (after normalisation; pass
    ``normalised=True`` when ``text`` already is, to search many values in it cheaply)."""
    needle = norm(value)
    if not needle or needle not in (text if normalised else (text := norm(text))):
        return False
    return bool(_pattern(value).search(text))


def _world_checkable(value: str) -> bool:
    v = norm(value)
    if len(v) < 4 or re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|[\d,]+", v):
        return False
    return True


def visible_texts(s: Scenario) -> list[tuple[str, str]]:
    """(where, text) for every text a seat can read before the assistant looks at images."""
    out = [("description", s.description)]
    for i, r in enumerate(s.rounds):
        out.append((f"rounds[{i}].query", r.query))
        out.append((f"rounds[{i}].instructions", r.instructions))
        for j, c in enumerate(r.clarifications):
            out.append((f"rounds[{i}].clarifications[{j}]", c.answer))
        g = r.guidance
        for name in ("ask", "on_question", "permission_reply", "images_message"):
            if getattr(g, name):
                out.append((f"rounds[{i}].guidance.{name}", getattr(g, name)))
    return out


def entity_text(s: Scenario) -> str:
    parts = [json.dumps(s.initial_entities, ensure_ascii=False, default=str)]
    for r in s.rounds:
        for c in r.state_changes:
            parts.append(json.dumps({"row": c.row, "fields": c.fields}, ensure_ascii=False, default=str))
    return "\n".join(parts)


def _flatten(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _flatten(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flatten(v)
    elif isinstance(value, float):
        yield f"{value:,.2f}"
        yield f"{value:,.0f}" if value.is_integer() else f"{value:,.1f}"
        yield repr(value)
    elif value is not None:
        yield str(value)


def check_necessity(s: Scenario, report: VerificationReport) -> None:
    md = s.metadata
    only = list(md.get("image_values", [])) + list(md.get("derived_values", []))
    keys = list(md.get("image_keys", []))
    texts = [(where, norm(text)) for where, text in visible_texts(s)]
    for value in only + keys:
        if len(norm(value)) < 2:
            continue  # a single digit or letter cannot be told apart from ordinary text
        for where, text in texts:
            if contains(text, value, normalised=True):
                report.fail(f"necessity: image value {value!r} is given away in {where}")
    ents = norm(entity_text(s))
    for value in only:
        if contains(ents, value, normalised=True):
            report.fail(f"necessity: image value {value!r} is already in the initial entities or state changes")
    wi = world_index(s.world_seed)
    for value in md.get("image_values", []):
        if _world_checkable(value) and wi.mentions(value):
            report.fail(f"necessity: image value {value!r} can be found in the base world")


_TOKEN = re.compile(r"\$?\d[\d,]*(?:\.\d+)?|[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*)*")
# columns the apps compute from what the agent did (balances, shares, average ratings after a review)
APP_COMPUTED = frozenset({("venmo.users", "venmo_balance"), ("venmo.payment_cards", "available_balance"),
                          ("splitwise.expense_shares", "amount"), ("amazon.products", "rating"), ("spotify.songs", "rating"),
                          ("spotify.albums", "rating"), ("spotify.playlists", "rating")})


def is_datetime(v: str) -> bool:
    """Whether ``v`` is a date or datetime the world's clock parses (compared by time, not by text)."""
    from ..world.clock import parse_datetime

    if not re.match(r"^\d{4}-\d\d-\d\d", v):
        return False
    try:
        parse_datetime(v)
        return True
    except Exception:
        return False


def check_derivable(s: Scenario, report: VerificationReport) -> None:
    """Every compared text or amount of the expected changes can be known: from the queries, the
    clarification answers, the images, values derived from them, the initial rows or the base world
    (a composed text: each of its lines, or else each of its names and numbers)."""
    wi = world_index(s.world_seed)
    data = s.to_dict()
    texts = [r.query for r in s.rounds] + [c.answer for r in s.rounds for c in r.clarifications]
    texts += [json.dumps(data["images"], ensure_ascii=False), json.dumps(data.get("initial_entities", {}), default=str, ensure_ascii=False),
              json.dumps([r.get("state_changes", []) for r in data["rounds"]], default=str, ensure_ascii=False)]
    texts += list(s.metadata.get("image_values", [])) + list(s.metadata.get("image_keys", []))
    corpus = norm(" \n ".join(texts))
    derived = {norm(v) for v in s.metadata.get("derived_values", [])}

    def known(text: str) -> bool:
        n = norm(text)
        return not n or n in corpus or n in derived or wi.mentions(text)

    for ch in s.expected_changes:
        for col, value in (ch.row or ch.fields or {}).items():
            if ((ch.table, col) in APP_COMPUTED or ch.measures.get(col) in ("ignore", "present", "one")
                    or col.endswith(("_id", "_ids")) or col == "id"):
                continue
            for v in value if isinstance(value, list) else [value]:
                if v is None or isinstance(v, (bool, int)) or (isinstance(v, str) and is_datetime(v)):
                    continue
                if isinstance(v, float):
                    ok = any(known(f) for f in (f"{v:,.2f}", f"{v:.2f}", f"{v:g}"))
                else:
                    text = str(v)
                    lines = [ln for ln in text.split("\n") if ln.strip()]
                    tokens = _TOKEN.findall(text)
                    ok = (known(text) or (len(lines) > 1 and all(known(ln) for ln in lines))
                          or (bool(tokens) and all(known(t.lstrip("$")) for t in tokens)))
                if not ok:
                    report.fail(f"derivability: {ch.table}.{col} value {str(v)[:40]!r} is in no query, image, row or the world")
                    return


def _items_in_rows(recorded: Any, drawn: Any) -> Iterable[dict]:
    """The draft's items a drawn table shows across one row's cells: a price list's "Battery swap
    (headphones)" at 24.00 is the row whose cells read "Battery swap", "Headphones", "24"."""
    rows = drawn.get("rows") if isinstance(drawn, dict) else None
    if not rows or not isinstance(recorded, dict):
        return
    cells = [{norm(str(c)) for c in row} for row in rows]
    for item in recorded.get("items") or []:
        words = set(norm(str(item.get("name", ""))).replace("(", " ").replace(")", " ").split())
        amount = item.get("amount")
        for row in cells:
            if words and words <= {w for c in row for w in c.split()} and (
                    not isinstance(amount, float) or f"{amount:g}" in row or f"{amount:.2f}" in row):
                yield item
                break


def check_images(s: Scenario, report: VerificationReport, *, render_images: bool = False) -> None:
    from ..vision.render import normalize, render

    shown: list[str] = []
    for i, spec in enumerate(s.images):
        if spec.render is None:
            continue
        try:
            if render_images:
                drawn = render(spec.render)
                drawn.image  # draw it: the pixels must come out, with the facts the draft reported
                facts: Any = [drawn.facts, list(_items_in_rows(spec.facts, drawn.facts))]
            else:  # the spec's content plus the facts the generator recorded (line totals are derived)
                facts = [normalize(spec.render)[1].content, spec.facts]
        except ValueError as exc:
            report.fail(f"images[{i}]: render spec does not draw: {exc}")
            continue
        shown.append(norm(" \u241e ".join(_flatten(facts))))
    if not shown:
        return
    blob = norm("\n".join(shown))
    for value in list(s.metadata.get("image_values", [])) + list(s.metadata.get("image_keys", [])):
        if not contains(blob, value, normalised=True):
            report.fail(f"images: value {value!r} is not drawn in any image")


def arrival_of(s: Scenario) -> str:
    """The arrival pattern the rounds implement: upfront, progressive, late or mixed.

    ``late`` means every image arrives in the last third of the rounds (round ``i`` of ``n``,
    1-based, with ``3 i > 2 n``) and none with the first round.
    """
    delivering = [i for i, r in enumerate(s.rounds) if r.image_ids]
    # follow-ups (goal changes, corrections, edits the user asks for) bring no image in any pattern
    task_rounds = [i for i, r in enumerate(s.rounds) if r.kind == "task" or (r.kind == "state_mutation" and r.state_changes)]
    if not delivering:
        return "none"
    if delivering == [0]:
        return "upfront"
    if 0 not in delivering and all(3 * (i + 1) > 2 * len(s.rounds) for i in delivering):
        return "late"
    if 0 in delivering and all(i in delivering for i in task_rounds):
        return "progressive"
    return "mixed"


def check_structure(s: Scenario, report: VerificationReport) -> None:
    md = s.metadata
    n_img, n_rounds = len(s.images), len(s.rounds)
    if not MIN_IMAGES <= n_img <= MAX_IMAGES:
        report.fail(f"structure: {n_img} images, expected {MIN_IMAGES}-{MAX_IMAGES}")
    if not MIN_ROUNDS <= n_rounds <= MAX_ROUNDS:
        report.fail(f"structure: {n_rounds} rounds, expected {MIN_ROUNDS}-{MAX_ROUNDS}")
    delivered = [i for r in s.rounds for i in r.image_ids]
    if sorted(delivered) != list(range(n_img)):
        report.fail(f"structure: images delivered {sorted(delivered)}, expected each of 0..{n_img - 1} once")
    if md.get("num_images") != n_img or md.get("num_rounds") != n_rounds:
        report.fail("structure: metadata num_images/num_rounds do not match the scenario")
    for key, allowed in (("flow_type", FLOWS), ("challenge_type", CHALLENGES), ("image_arrival", ARRIVALS)):
        if md.get(key) not in allowed:
            report.fail(f"structure: metadata.{key} = {md.get(key)!r}")
    if md.get("image_arrival") in ARRIVALS and arrival_of(s) != md["image_arrival"]:
        report.fail(f"structure: rounds deliver images {arrival_of(s)}, metadata says {md['image_arrival']}")
    kinds = {r.kind for r in s.rounds}
    want = {"goal_change": "goal_change", "error_correction": "correction", "state_mutation": "state_mutation"}.get(md.get("challenge_type"))
    if want and want not in kinds:
        report.fail(f"structure: challenge {md.get('challenge_type')} but no round of kind {want!r}")
    if md.get("challenge_type") == "none" and kinds - {"task"}:
        report.fail(f"structure: challenge none but rounds of kind {sorted(kinds - {'task'})}")
    if not s.expected_changes:
        report.fail("structure: no expected changes")
    known = set(DOMAINS) | {"web_search"}  # web search only comes with lookups (the domain tables), never as a sink
    if set(s.domains) - known:
        report.fail(f"structure: unknown domains {sorted(set(s.domains) - known)}")


@lru_cache(maxsize=1)
def sandbox_status() -> str:
    """``"ok"`` when code mode can run here, else the reason it cannot."""
    try:
        from ..sandbox import Interpreter
    except Exception as exc:  # pragma: no cover - depends on the installation
        return f"sandbox unavailable: {type(exc).__name__}: {exc}"
    try:
        it = Interpreter(functions={})
        res = it.run("x = 1 + 1\nprint(x)")
        it.close()
        return "ok" if res.ok and "2" in res.output else f"sandbox unavailable: probe printed {res.output!r}"
    except Exception as exc:  # pragma: no cover
        return f"sandbox unavailable: {type(exc).__name__}: {exc}"


def run_oracle(s: Scenario, mode: str = "tool", harness: str | None = None) -> tuple[float, bool, str | None, dict[str, Any]]:
    """Play ``s`` with the oracle in ``mode`` (or under ``harness``, whose mode it takes): (entity
    F1, verdict passed, error, verdict as JSON).

    Nobody looks at pixels or keeps a record here: no observation tensors, image ids instead of
    data URLs, no episode record -- so no image is ever drawn and the episode costs what the
    tools, the user script and the scoring cost.
    """
    from ..baselines import OracleAgent
    from ..envs.gym_env import MMToolSandboxEnv

    if harness is not None:
        from ..envs.options import HARNESSES

        mode = HARNESSES[harness]["mode"]
        env = MMToolSandboxEnv(scenarios=[s], harness=harness, max_images=0, message_images="id")
    else:
        env = MMToolSandboxEnv(scenarios=[s], mode=mode, max_images=0, message_images="id")
    agent = OracleAgent([s], mode=mode)
    try:
        obs, info = env.reset(seed=0, options={"scenario": s})
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
        ep = env.episode
        verdict = ep.verdict.to_json() if ep.verdict else {}
        if ep.truncated:
            return ep.entity_score().f1, False, f"truncated after {ep.step_count} steps and {ep.message_count} messages", verdict
        return ep.entity_score().f1, bool(ep.verdict and ep.verdict.passed), None, verdict
    except Exception as exc:  # an oracle or engine failure is a verification failure with its reason
        return 0.0, False, f"{type(exc).__name__}: {exc}", {}
    finally:
        env.close()


def release(s: Scenario) -> None:
    """Drop the episode engine's caches (world layer, decoded images, data URLs) for ``s``.

    The engine keeps them per scenario object in a bounded LRU; a generator verifying thousands of
    throw-away scenarios frees them right away instead.
    """
    from ..episode.engine import forget_scenario

    forget_scenario(s)


def verify(s: Scenario, *, oracle: bool = True, code: bool | None = None, render_images: bool = False,
           release_caches: bool = True) -> VerificationReport:
    """Check one scenario (see the module docs). ``code=None`` runs code mode when the sandbox works;
    ``render_images`` also draws every image and checks the values against the drawn ground truth.

    ``release_caches`` drops the engine's cached images of ``s`` afterwards (keep them with False
    when the scenario is about to be played).
    """
    report = VerificationReport(s.id)
    check_structure(s, report)
    check_images(s, report, render_images=render_images)
    check_necessity(s, report)
    check_derivable(s, report)
    if oracle and report.ok:  # an ill-formed scenario is not worth an episode
        try:
            check_oracle(s, report, code)
        finally:
            if release_caches:
                release(s)
    return report


def check_oracle(s: Scenario, report: VerificationReport, code: bool | None = None) -> None:
    """The oracle reaches F1 = 1.0 and a passing verdict in tool mode and, unless ``code`` is
    False (``None``: when the sandbox works), in code mode and under the paper's harness."""
    f1, passed, error, verdict = run_oracle(s, "tool")
    report.tool_f1, report.tool_passed = f1, passed
    if error or f1 < 0.999 or not passed:
        failed = [c["reason"] for c in verdict.get("criteria", []) if not c.get("pass")]
        report.fail(f"oracle (tool mode): f1={f1:.3f} passed={passed} error={error} {failed}")
    status = sandbox_status()
    if code is None:
        code = status == "ok"
    if code and status == "ok":
        f1, passed, error, verdict = run_oracle(s, "code")
        report.code_f1, report.code_passed, report.code_mode = f1, passed, "ran"
        if error or f1 < 0.999 or not passed:
            failed = [c["reason"] for c in verdict.get("criteria", []) if not c.get("pass")]
            report.fail(f"oracle (code mode): f1={f1:.3f} passed={passed} error={error} {failed}")
        f1, passed, error, verdict = run_oracle(s, harness="paper")
        report.paper_f1, report.paper_passed = f1, passed
        if error or f1 < 0.999 or not passed:
            failed = [c["reason"] for c in verdict.get("criteria", []) if not c.get("pass")]
            report.fail(f"oracle (--harness paper): f1={f1:.3f} passed={passed} error={error} {failed}")
    elif status != "ok":
        report.code_mode = status


# ---------------------------------------------------------------------------- distribution
@dataclass
class DistributionReport:
    ok: bool
    problems: list[str]
    counts: dict[str, dict[str, int]]
    cells_covered: int
    min_per_cell: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def check_distribution(scenarios: Sequence[Scenario], *, min_per_cell: int = 0, min_share: float = 0.5) -> DistributionReport:
    """Counts per axis; problems when an axis value is under ``min_share`` of its fair share or a
    design cell has fewer than ``min_per_cell`` scenarios, or a domain/category never appears."""
    from .axes import CATEGORIES

    problems: list[str] = []
    md = [s.metadata for s in scenarios]
    counts: dict[str, dict[str, int]] = {}
    for key, values in (("flow_type", FLOWS), ("challenge_type", CHALLENGES), ("image_arrival", ARRIVALS)):
        c = Counter(m.get(key) for m in md)
        counts[key] = {v: c.get(v, 0) for v in values}
        fair = len(scenarios) / len(values)
        for v in values:
            if c.get(v, 0) < min_share * fair:
                problems.append(f"{key}={v}: {c.get(v, 0)} scenarios, fair share {fair:.1f}")
    dom = Counter(d for s in scenarios for d in s.domains)
    counts["domains"] = {d: dom.get(d, 0) for d in DOMAINS}
    cat = Counter(c for m in md for c in m.get("image_categories", []))
    counts["image_categories"] = {c: cat.get(c, 0) for c in CATEGORIES}
    if len(scenarios) >= 40:
        problems += [f"domain {d} never used" for d in DOMAINS if not dom.get(d)]
        problems += [f"image category {c} never used" for c in CATEGORIES if not cat.get(c)]
    counts["num_images"] = dict(sorted(Counter(str(m.get("num_images")) for m in md).items()))
    counts["num_rounds"] = dict(sorted(Counter(str(m.get("num_rounds")) for m in md).items()))
    cell = Counter((m.get("flow_type"), m.get("challenge_type"), m.get("image_arrival")) for m in md)
    covered = sum(1 for c in cells() if cell.get(c, 0) >= max(1, min_per_cell))
    if min_per_cell:
        thin = [c for c in cells() if cell.get(c, 0) < min_per_cell]
        if thin:
            problems.append(f"{len(thin)} design cells have fewer than {min_per_cell} scenarios, e.g. {thin[:3]}")
    return DistributionReport(not problems, problems, counts, covered, min(cell.get(c, 0) for c in cells()))
