"""Recipes: a flow, its images and its sinks laid out over a round skeleton.

:class:`GenericRecipe` serves the four generic flows (aggregate, compare, filter, compute) with
any compatible sink. The database-backed flows (validate, lookup_chain, cross_reference) are in
:mod:`mmtsb_env.generation.db_recipes` (which builds on this module); both expose the same interface to the composer:
``parts()``, ``entity_mutation(parts, candidates)`` and ``criteria(parts, expected)``.
"""

from __future__ import annotations

import copy
from typing import Any

from . import sinks as S
from .core import Build, Part, Payload, describe_images, unique
from .errors import GenerationError
from .flows import Flow, filter_has_mix, make_flow
from .layout import CATEGORIES_BY_FLOW, choose_sink, skeleton
from .warmups import setup_read
from . import web as W
from .challenges import can_edit, claimable, contradict, contradiction_target, edit_made


# image categories whose results suit a domain's sinks (used to honour a domain preference)
DOMAIN_CATEGORIES = {
    "alarms": ("event_poster", "table_document"), "calendar": ("event_poster", "table_document"),
    "reminder": ("event_poster", "invoice"), "contacts": ("business_card",),
    "venmo": ("receipt", "invoice", "price_tag", "event_poster"), "splitwise": ("receipt", "invoice", "price_tag"),
    "supervisor": ("receipt", "invoice", "price_tag"),
}


EDIT_SHARE = 0.25  # generic state mutations where the user takes back part of what the assistant made
CONTRADICTION_SHARE = 0.95  # error corrections where the user's value contradicts an image (when one shows a value)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class RecipeBase:
    """Shared behaviour: setup rounds, criteria text, no entity mutation by default."""

    b: Build
    flow_name: str

    def entity_mutation(self, parts: list[Part], candidates: list[int]) -> bool:
        return False

    def describe(self) -> str:
        """The recipe (and sink) that built the scenario, for analysis of generated suites."""
        sink = getattr(self, "sink", None)
        return type(self).__name__ + (f"/{sink.name}" if sink is not None else "")

    def criteria(self, parts: list[Part], expected: list[dict[str, Any]]) -> str:
        done = " ".join(p.answer for p in parts if p.answer)
        facts = unique([f for p in parts for f in p.facts])
        text = f"By the end of the conversation the assistant has done the following: {done}"
        if facts:
            text += " Its messages must state: " + ", ".join(f"'{f}'" for f in facts) + "."
        return text

    def generic_setup(self, sink: S.Sink | None) -> Part:
        """A text-only round before the images (late arrival): a contact's address the sink will need, or a
        question about the app the task works in."""
        b = self.b
        if sink is not None and sink.person is not None and (sink.pre_steps or sink.clarify) and not sink.created:
            steps = list(sink.pre_steps)
            clar = [sink.clarify] if sink.clarify else []
            sink.pre_steps, sink.clarify = [], None
            req = f"Before I send you some pictures: what email address do I have saved for {sink.spoken}?"
            return Part(req, steps, f"{sink.full}'s email address is {sink.person['email']}.", facts=[sink.person["email"]],
                        clarifications=clar, report=[sink.person["email"]], role="setup")
        return setup_read(b, self.task_apps())

    def task_apps(self) -> set[str]:
        """The apps the scenario's task writes to (a setup round asks about one of them)."""
        apps = set(getattr(self, "domains", ()) or ())
        for s in (getattr(self, "sink", None), getattr(self, "share", None)):
            if s is not None:
                apps |= set(s.row.domains)
        apps.discard("supervisor")
        return apps


def ref_noun(b: Build, scope: list[int]) -> str:
    """What the user calls the images of ``scope`` ("receipt", "invoices", "images")."""
    cats = {b.imgs[i].category for i in scope}
    if len(cats) > 1:
        return "images"
    return b.imgs[scope[0]].noun if len(scope) == 1 else b.imgs[scope[0]].plural


class GenericRecipe(RecipeBase):
    """A generic flow over one image category, written to one sink (plus an optional second one)."""

    def __init__(self, b: Build, flow: Flow, slots: list, sink: S.Sink, share: S.Sink | None, challenge: str,
                 variant: str | None) -> None:
        self.b, self.flow, self.slots, self.sink, self.share = b, flow, slots, sink, share
        self.flow_name = flow.name
        self.challenge, self.variant = challenge, variant

    # ------------------------------------------------------------------ construction
    @classmethod
    def make(cls, b: Build, flow_name: str, n: int, arrival: str, challenge: str, budget: int,
             category: str | None = None) -> "GenericRecipe":
        cats = CATEGORIES_BY_FLOW[flow_name]
        if category is not None and category not in cats:
            raise GenerationError(f"category {category!r} cannot serve the {flow_name} flow")
        if category is None:
            liked = [c for c in cats if any(c in DOMAIN_CATEGORIES.get(d, ()) for d in b.prefer)] or list(cats)
            rank = {c: i for i, c in enumerate(b.prefer_categories)}
            liked.sort(key=lambda c: rank.get(c, len(rank)))
            category = b.rng.choice(liked[:2])
        flow = make_flow(b, flow_name, category)
        n = max(n, flow.min_group + (1 if arrival != "upfront" else 0))
        ids = flow.draft(b, n)
        # state mutation: sometimes the user takes back part of what was made (one round more); else the
        # composer has the user delete a staged look-alike, or change the phone's connectivity
        edit = challenge == "state_mutation" and b.rng.random() < EDIT_SHARE
        if edit:
            budget = min(budget, 4)
        slots = skeleton(arrival, ids, b.rng, budget=budget, min_group=max(1, flow.min_group), additive=flow.additive)
        tasks = [s for s in slots if s.role == "task"]
        if flow.name == "filter":
            for s in tasks:
                if not flow.payload(b, s.scope).entries:
                    raise GenerationError("a filter group has no matching item")
            if not filter_has_mix(flow, b, ids):
                raise GenerationError("the filter keeps everything")
        full = flow.payload(b, ids)
        variant = None
        need_undo = need_mistake = False
        if challenge == "goal_change":
            flippable = cls._flip(flow) is not None
            variant = "criterion" if flippable and b.rng.random() < 0.5 else "destination"
            need_undo = variant == "destination"
        elif challenge == "error_correction":
            # mostly the paper's kind: the user states a value one of the images contradicts
            roll = b.rng.random()
            # a value printed on an image, or one the result works out from them (a table's total)
            if roll < CONTRADICTION_SHARE and (any(b.imgs[i].date or claimable(b.imgs[i]) for i in ids)
                                               or contradiction_target(full) is not None):
                variant = "contradiction"
            elif flow.name == "compare" and roll < 0.93:
                variant = "criterion"
            else:
                variant = "sink"
            need_mistake = variant == "sink"
        elif edit:
            variant = "edit"
        # an outside fact about the items, looked up on the web (staged pages; generation/web.py)
        if W.eligible(flow.name, category) and b.rng.random() < W.WEB_SHARE:
            W.attach(b, ids)
            flow.web = True
        late_container = arrival == "late" and bool(full.lines) and b.rng.random() < 0.6
        sink = b.rng.choice([S.NoteSink, S.FileSink])(b) if late_container else choose_sink(b, full, flow, need_extend=flow.additive and (len(tasks) > 1 or late_container),
                           need_revise=(not flow.additive and len(tasks) > 1) or variant == "criterion" or late_container,
                           need_undo=need_undo, need_mistake=need_mistake,
                           need_online=challenge == "state_mutation" and not edit and b.rng.random() < 0.3,
                           need_edit=edit)
        share = None
        if any(s.role == "share" for s in slots):
            options = [c for c in S.TEXT_SINKS + S.AMOUNT_SINKS if c is not sink.row and c is not S.ReminderSink
                       and (c.kind == "text" or full.amount)]
            b.rng.shuffle(options)
            for c in options:
                cand = c(b)
                if cand.accepts(full) and not (cand.person is not None and sink.person is not None
                                               and cand.person["id"] == sink.person["id"]):
                    share = cand
                    break
            if share is None:
                raise GenerationError("no second destination fits")
        recipe = cls(b, flow, slots, sink, share, challenge, variant)
        recipe.late_container = late_container
        return recipe

    # ------------------------------------------------------------------ rounds
    def parts(self) -> list[Part]:
        b, flow = self.b, self.flow
        parts: list[Part] = []
        seen: list[int] = []
        done_tasks = 0
        cumulative: list[int] = []
        last_payload: Payload | None = None
        challenge_at = self._challenge_slot()
        for si, slot in enumerate(self.slots):
            seen += [i for i in slot.deliver if i not in seen]
            sink = self.sink
            if slot.role == "setup":
                made = sink.setup_request() if self.late_container and not sink.setup_done else None
                if made is not None:
                    req, steps, answer = made
                    parts.append(Part(req, steps, answer, is_task=True, role="setup"))
                else:
                    parts.append(self.generic_setup(sink))
                continue
            if slot.role == "share":
                assert self.share is not None and last_payload is not None
                share = self.share
                had_clarify = bool(share.clarify)
                steps = share.write(last_payload, additive=False)
                req = f"Also {share.intent()}: the same result you just gave me."
                part = Part(req, steps, share.done(), is_task=True, role="share")
                if had_clarify:
                    part.clarifications.append(share.clarify)
                parts.append(part)
                continue
            ref = describe_images(b.imgs, slot.scope, slot.deliver, seen)
            cumulative += [i for i in slot.scope if i not in cumulative]
            flow = self.flow
            payload = flow.payload(b, slot.scope)
            b.note_values(payload)
            if done_tasks == 0:
                look = f" {W.ask(flow.name, flow.category, sink.kind == 'text')}" if flow.web else ""
                req = f"{flow.ask(ref)} Then {sink.intent()}.{look}"
            elif flow.additive:
                plural = "s" if sink.kind == "entries" else ""
                req = f"Now do the same with {ref}. Add what you find to the same {sink.noun}{plural}."
            else:
                req = f"Now redo that using {ref}, and update the {sink.noun} if the result changes."
            had_clarify = bool(sink.clarify) and not sink.created
            looks = W.lookups(b, payload)
            steps = sink.write(payload, additive=flow.additive)
            closing = sink.done() if steps else f"That doesn't change the result, so the {sink.noun} stays as it is."
            part = Part(req, looks + steps, f"{payload.summary} {closing}", facts=list(payload.facts), is_task=True,
                        image_ids=list(slot.deliver))
            if flow.web and payload.web_values:  # the user asked to be told what the web says
                part.guidance.append(W.NEEDS[flow.category].guidance)
                part.clarifications.append(W.clarification(W.NEEDS[flow.category]))
                part.report = unique([*payload.facts] if done_tasks == 0 and flow.name == "compare" else payload.web_values)
            if had_clarify:
                part.clarifications.append(sink.clarify)
            parts.append(part)
            done_tasks += 1
            last_payload = self.flow.payload(b, cumulative)
            if done_tasks == 1 and self.variant == "contradiction" and not contradict(b, part, payload, ref_noun(b, slot.scope), slot.scope):
                raise GenerationError("no value to contradict")
            if si == challenge_at:
                self._later_tasks = any(x.role == "task" for x in self.slots[si + 1:])
                parts.append(self._challenge_part(cumulative, last_payload))
                last_payload = self.flow.payload(b, cumulative)
        if self.variant == "edit":
            if not can_edit(self.sink):
                raise GenerationError(f"{self.sink.name} made too little to take part of it back")
            parts.append(edit_made(b, self.sink, self.flow.payload(b, cumulative)))
        return parts

    def _challenge_slot(self) -> int | None:
        if self.challenge not in ("goal_change", "error_correction") or self.variant == "contradiction":
            return None
        task_slots = [i for i, s in enumerate(self.slots) if s.role == "task"]
        if self.challenge == "error_correction":
            return task_slots[0] if self.b.rng.random() < 0.6 else task_slots[-1]
        return task_slots[-1] if self.b.rng.random() < 0.7 else task_slots[0]

    def _challenge_part(self, cumulative: list[int], current: Payload) -> Part:
        b, flow, sink = self.b, self.flow, self.sink
        if self.variant == "criterion":
            new_variant = self._flip(flow)
            assert new_variant is not None
            old_desc = self._criterion_text(flow)
            self.flow = flow = Flow(flow.name, flow.category, new_variant, flow.additive, flow.min_group, flow.web)
            new_desc = self._criterion_text(flow)
            payload = flow.payload(b, cumulative)
            b.note_values(payload)
            steps = W.lookups(b, payload) + sink.revise(payload)
            if self.challenge == "goal_change":
                req = f"Actually, I've changed my mind: I want {new_desc} instead of {old_desc}. Please update the {sink.noun}."
                kind = "goal_change"
            else:
                req = f"Sorry, I misspoke earlier: I meant {new_desc}, not {old_desc}. Please fix the {sink.noun}."
                kind = "correction"
            return Part(req, steps, f"{payload.summary} {sink.done()}", facts=list(payload.facts), kind=kind, is_task=True,
                        report=list(payload.web_values))
        if self.challenge == "error_correction":
            m = sink.mistake()
            if m is None:
                raise GenerationError("the sink cannot take a correction")
            return Part(m.correction, m.fix, m.answer, kind="correction", is_task=True)
        # goal change: send the result somewhere else and remove what was made
        options = [c for c in S.TEXT_SINKS + S.AMOUNT_SINKS + S.ENTRY_SINKS if c is not sink.row]
        b.rng.shuffle(options)
        new = None
        later = getattr(self, "_later_tasks", False)
        for c in options:
            if later and not (c.extendable if flow.additive else c.revisable):
                continue
            cand = c(b)
            if cand.accepts(current) and (self.share is None or cand.row is not self.share.row):
                new = cand
                break
        if new is None:
            raise GenerationError("no other destination for the goal change")
        steps = sink.undo() + new.write(current, additive=False)
        what = f"the {sink.noun}s" if sink.kind == "entries" else f"the {sink.noun}"
        req = f"Change of plan: please delete {what} you just made, and instead {new.intent()}."
        part = Part(req, steps, f"Deleted {what}. {new.done()}", kind="goal_change", is_task=True)
        if new.clarify:
            part.clarifications.append(new.clarify)
        self.sink = new
        return part

    @staticmethod
    def _flip(flow: Flow) -> dict[str, Any] | None:
        """The variant a user switches to (goal change / correction), or None if the flow has none."""
        v = copy.deepcopy(flow.variant)
        if flow.name == "compare":
            v["pick"] = "min" if v["pick"] == "max" else "max"
            return v
        if flow.name != "compute":
            return None
        if flow.category == "receipt":
            if v["op"] == "sum":
                v["op"] = "split"
            else:
                v["ways"] = v["ways"] + 1
        elif flow.category == "event_poster":
            v["people"] = v["people"] + 1
        elif flow.category == "invoice":
            v["op"] = "tax" if v["op"] == "sum" else "sum"
        elif flow.category == "chart":
            v["op"] = "gap" if v["op"] == "sum" else "sum"
        elif flow.category == "price_tag" and v["op"] == "savings":
            v["op"] = "sum"
        else:
            return None
        return v

    @staticmethod
    def _criterion_text(flow: Flow) -> str:
        from .flows import compare_desc, compute_desc

        if flow.name == "compare":
            return compare_desc(flow.category, flow.variant)
        return compute_desc(flow.category, flow.variant)
