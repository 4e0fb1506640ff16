"""Red-team probes of the judge's information-accuracy rules, measured over a whole suite.

Each probe rewrites the reference replies (or the written texts) of every scenario it applies to
in one way whose right verdict is known -- a right answer in another layout must pass, a wrong or
uncommitted one must fail -- plays the oracle's work with those replies and counts how often the
rubric judge agrees. Scenarios are chosen by property (what their rounds report, what their images
show), never by id, so the counts stay meaningful after the suites are regenerated.

    python benchmarks/judge_probes.py [--suite nominal] [--only PROBE ...] [--limit N] [--show]

Prints, per probe, ``agreed/cases`` and the cases the judge got wrong (with ``--show``).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import mmtsb_env
from mmtsb_env.baselines.zoo import ZooAgent
from mmtsb_env.evaluation.grounding import image_facts, rivals_of
from mmtsb_env.evaluation.similarity import as_number, text_contains
from mmtsb_env.evaluation.taxonomy import classify
from mmtsb_env.runner import run_episode


@dataclass
class Case:
    """One rewritten episode: the replies (round -> text) and the verdict a correct judge gives."""

    probe: str
    scenario: Any
    replies: dict[int, str]
    should_pass: bool
    kind: str = ""  # the information-accuracy failure kind expected ("" = any)
    category: str = ""  # the primary failure class expected ("" = any)
    steps: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


class Rewritten(ZooAgent):
    """The oracle's work with the case's replies (and written texts) in place of the reference ones."""

    def __init__(self, case: Case) -> None:
        super().__init__([case.scenario])
        self.case = case

    def steps(self, scenario, index):
        return list(self.case.steps.get(index, scenario.rounds[index].solution))

    def closing(self, scenario, index):
        return self.case.replies.get(index, scenario.rounds[index].answer or "Done.")


def play(case: Case) -> tuple[bool, str]:
    """``(the judge agreed, what it said)``."""
    rec = run_episode(case.scenario, Rewritten(case))
    failed = {c["criterion"]: c.get("kind", "") for c in rec.verdict["criteria"] if not c["pass"]}
    primary = classify(rec.verdict)[0]
    said = "pass" if rec.passed else f"{primary} {failed}"
    if case.should_pass:
        return rec.passed, said
    if rec.passed:
        return False, said
    ok = (not case.kind or failed.get("information_accuracy") == case.kind) and \
         (not case.category or primary == case.category)
    return ok, said


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def labels(s) -> list[str]:
    """The item names the scenario's images show (a receipt's store, an event's name...)."""
    return [f["label"] for f in image_facts(s) if isinstance(f.get("label"), str) and f["label"].strip()]


def label_in(sentence: str, names: Iterable[str]) -> str:
    """The first item name a sentence holds (the longest of those starting there)."""
    hits = [(sentence.find(n), -len(n), n) for n in names if n in sentence]
    return min(hits)[2] if hits else ""


def sentences(text: str) -> list[str]:
    """A reply's sentences as a writer splits them (at a stop followed by a space)."""
    return [x.strip() for x in re.split(r"(?<=[.!?])\s+", text) if x.strip()]


def reply_rounds(s) -> list[int]:
    return [k for k, r in enumerate(s.rounds) if r.report and r.answer]


def bullets(answer: str, names: list[str]) -> str:
    out = ["Here's what I did:"]
    for sentence in sentences(answer):
        name = label_in(sentence, names)
        line = sentence.replace(name, f"**{name}**", 1) if name else sentence
        out.append(f"- {line}")
    return "\n".join(out) + "\n\nLet me know if you need anything else!"


def table(answer: str, names: list[str], numbered: bool = False) -> str:
    head = ("| # " if numbered else "") + "| Item | Details |"
    rule = ("|---" if numbered else "") + "|---|---|"
    rows = [head, rule]
    for n, sentence in enumerate(sentences(answer), 1):
        name = label_in(sentence, names)
        rest = re.sub(r"\s+([.,;:])", r"\1", " ".join(sentence.replace(name, " ", 1).split())) if name else sentence
        rows.append((f"| {n} " if numbered else "") + f"| {name or '-'} | {rest} |")
    return "Summary:\n\n" + "\n".join(rows)


def date_items(s) -> dict[str, str]:
    """label -> date of each image item with a date."""
    return {f["label"]: f["date"] for f in image_facts(s)
            if isinstance(f.get("label"), str) and isinstance(f.get("date"), str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", f["date"])}


# ---------------------------------------------------------------------------------------------
# probes
# ---------------------------------------------------------------------------------------------


def layout(style: str, numbered: bool = False) -> Callable[[Any], list[Case]]:
    def probe(s) -> list[Case]:
        rounds = reply_rounds(s)
        if not rounds:
            return []
        names = labels(s)
        fn = (lambda a: bullets(a, names)) if style == "bullets" else (lambda a: table(a, names, numbered))
        return [Case("", s, {k: fn(s.rounds[k].answer) for k in rounds}, True)]
    return probe


def wrong_date(style: str) -> Callable[[Any], list[Case]]:
    """A reported date of an image's item replaced by another item's date, in the given layout."""
    def probe(s) -> list[Case]:
        dates = date_items(s)
        names = labels(s)
        for k in reply_rounds(s):
            for fact in s.rounds[k].report:
                owner = next((n for n, d in dates.items() if d == fact), None)
                other = next((d for n, d in dates.items() if d != fact and d not in s.rounds[k].report), None)
                if owner and other and fact in s.rounds[k].answer:
                    answer = s.rounds[k].answer.replace(fact, other)
                    text = bullets(answer, names) if style == "bullets" else table(answer, names, style == "numbered")
                    return [Case("", s, {k: text}, False, category="factual_error")]
        return []
    return probe


def _choices(s) -> list[tuple[int, str, str, str]]:
    """(round, fact, rival, the answer's sentence stating the fact) of every named choice a round
    reports that a later round could recap (every rival the images show, asserted by the reference
    reply or not)."""
    out = []
    shown = image_facts(s)
    for k in reply_rounds(s):
        if k + 1 >= len(s.rounds):
            continue
        facts = list(s.rounds[k].report)
        for fact in facts:
            if as_number(fact) is not None:
                continue
            said = next((x for x in sentences(s.rounds[k].answer) if fact in x), None)
            rivals = [r for r in rivals_of(fact, shown, list(s.facts) + facts) if r not in said] if said else []
            if said and rivals:
                out.append((k, fact, rivals[0], said))
                break
    return out


def recap_rival(s) -> list[Case]:
    for k, fact, rival, said in _choices(s)[:1]:
        later = len(s.rounds) - 1
        text = (s.rounds[later].answer or "Done.") + " Just to recap the earlier answer: " + said.replace(fact, rival)
        return [Case("", s, {later: text}, False, kind="contradicted")]
    return []


def switch_later(s) -> list[Case]:
    for k, fact, rival, said in _choices(s)[:1]:
        later = len(s.rounds) - 1
        return [Case("", s, {k: s.rounds[k].answer.replace(fact, rival),
                             later: (s.rounds[later].answer or "Done.") + " " + said}, False, kind="contradicted")]
    return []


def honest_recap(s) -> list[Case]:
    for k, fact, rival, said in _choices(s)[:1]:
        later = len(s.rounds) - 1
        text = (s.rounds[later].answer or "Done.") + f" Earlier I compared {rival} and {fact}; " + said
        return [Case("", s, {later: text}, True)]
    return []


def _unscored_field(s) -> tuple[int, int, str, str, str] | None:
    """(round, step, argument, the answer a scored text of the written row names, a rival): a
    written row with a text column no text measure scores (an email's subject) whose scored text
    holds a named answer of a choice the images show."""
    from mmtsb_env.baselines.zoo import _choice_facts

    choices = [c for i in range(len(s.rounds)) for c in _choice_facts(s, i)]
    for change in s.expected_changes:
        if change.operation != "create":
            continue
        measures = change.measures or {}
        loose = [k for k, m in measures.items() if m in ("present", "ignore", "one")]
        scored = " ".join(str(v) for k, v in (change.row or {}).items() if measures.get(k) in ("facts", "rouge_l"))
        pick = next(((f, r[0]) for f, r in choices if f in scored), None)
        if not loose or pick is None:
            continue
        for k, rnd in enumerate(s.rounds):
            for j, step in enumerate(rnd.solution):
                for arg in loose:
                    if isinstance((step.get("arguments") or {}).get(arg), str):
                        return k, j, arg, pick[0], pick[1]
    return None


def unscored_field(named: str) -> Callable[[Any], list[Case]]:
    """The written row's unscored text field (an email's subject) names the rival (should fail) or
    the answer (should pass); the scored text stays right."""
    def probe(s) -> list[Case]:
        found = _unscored_field(s)
        if found is None:
            return []
        k, j, arg, fact, rival = found
        steps = [dict(x) for x in s.rounds[k].solution]
        steps[j] = {**steps[j], "arguments": {**steps[j]["arguments"], arg: f"{rival if named == 'rival' else fact} summary"}}
        return [Case("", s, {}, named != "rival", category="factual_error", steps={k: steps})]
    return probe


PROBES: dict[str, Callable[[Any], list[Case]]] = {
    "unscored_field_rival": unscored_field("rival"),
    "unscored_field_answer": unscored_field("answer"),
    "bullets_right": layout("bullets"),
    "table_right": layout("table"),
    "table_numbered_right": layout("table", numbered=True),
    "bullets_wrong_date": wrong_date("bullets"),
    "table_wrong_date": wrong_date("table"),
    "numbered_wrong_date": wrong_date("numbered"),
    "recap_rival_later": recap_rival,
    "switch_later": switch_later,
    "honest_recap": honest_recap,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="nominal")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    scenarios = [s for s in mmtsb_env.load_suite(args.suite) if not s.ui]
    if args.limit:
        scenarios = scenarios[:args.limit]
    for name, probe in PROBES.items():
        if args.only and name not in args.only:
            continue
        cases = [c for s in scenarios for c in probe(s)]
        wrong = []
        for c in cases:
            ok, said = play(c)
            if not ok:
                wrong.append((c.scenario.id, said))
        verdict = "pass" if cases and cases[0].should_pass else "fail"
        print(f"{name:24s} should {verdict}: judge right on {len(cases) - len(wrong)}/{len(cases)}")
        if args.show:
            for sid, said in wrong:
                print(f"    {sid}: {said[:300]}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
