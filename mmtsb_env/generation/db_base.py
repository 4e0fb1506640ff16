"""The base of the database-backed recipes: what a round does (:class:`Work`), what each recipe is about
(:data:`ABOUT`) and :class:`DBRecipe`, which lays a recipe's task rounds, share rounds and challenges out.

The recipes themselves are in :mod:`.db_recipes` (the validate rows read by :mod:`.db_validate`, the
other recipes as classes) and :mod:`.settings_recipe`; this module imports none of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from . import sinks as S
from .challenges import Slip, apply_slip, claimable, contradict
from .core import Build, Part, Payload, describe_images, unique
from .errors import GenerationError
from .layout import skeleton
from .recipes import RecipeBase

# error corrections of a database recipe where an image contradicts the user (when one shows a value); the rest
# are mostly the phone's data contradicting the user (world slips), which only these recipes can stage
DB_CONTRADICTION_SHARE = 0.95
from .sinks import Mistake


@dataclass
class Work:
    steps: list[dict[str, Any]] = field(default_factory=list)
    bits: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    clarifications: list[dict[str, Any]] = field(default_factory=list)  # what the user may be asked this round

    def looked(self, step: dict[str, Any], settled: bool, bit: str) -> bool:
        """A look-up of one target; when it is ``settled`` (nothing to do) the reply says so (``bit``)."""
        self.steps.append(step)
        if settled:
            self.bits.append(bit)
        return settled

    def did(self, step: dict[str, Any], bit: str, line: str, *facts: str) -> None:
        """One change made: its call, the reply's sentence, the summary line and the facts the reply states."""
        self.steps.append(step)
        self.bits.append(bit)
        self.lines.append(line)
        self.facts += facts

    def add(self, other: "Work") -> None:
        self.steps += other.steps
        self.bits += other.bits
        self.facts += other.facts
        self.lines += other.lines
        self.clarifications += other.clarifications

def _past(b: Build, lo: int = 20, hi: int = 200) -> str:
    return (b.now - timedelta(days=b.rng.randint(lo, hi))).replace(tzinfo=None, microsecond=0).isoformat()




@dataclass(frozen=True)
class About:
    """What a recipe is about: its flow, image category and apps, how its first and later task rounds are asked
    (``{ref}``: the round's images; ``{recipe}``: the recipe), the challenge it cannot take, and whether the user
    can pre-empt one of its target rows (``first_only``: only before the first task round, as later rounds write
    it too)."""

    name: str
    flow: str
    category: str
    domains: tuple[str, ...]
    ask: str = ""  # the first task request ({ref}: its images; {recipe}: the recipe)
    without: tuple[str, ...] = ()  # the challenges it cannot take
    mutable: bool = False
    first_only: bool = False
    again: str = "Here are more: do the same with {ref}."

    @property
    def supports(self) -> tuple[str, ...]:
        return tuple(c for c in ("none", "goal_change", "error_correction", "state_mutation") if c not in self.without)


ABOUT: dict[str, About] = {a.name: a for a in (
    About("ContactsValidate", "validate", "business_card", ("contacts",),
          ask="I got new business cards from people already in my contacts. Check {ref} against my contacts and fix any phone number or email that no longer matches the card{recipe.option_text}.",
          mutable=True, again="Here are more cards: check {ref} against my contacts the same way."),
    About("CalendarValidate", "validate", "event_poster", ("calendar",),
          ask="These posters are for events I already put in my calendar. Check {ref} against my calendar and correct any event whose date or start time is wrong (keep them two hours long){recipe.option_text}.",
          mutable=True, again="More posters: check {ref} against my calendar the same way."),
    About("ReminderValidate", "validate", "invoice", ("reminder",),
          ask="I have reminders to pay these invoices. Check {ref}: each reminder should go off at {recipe.said} on the invoice's due date. Fix any that don't, and tell me the due dates you changed them to.",
          mutable=True, again="Two more things to check: {ref}, same rule for their reminders."),
    About("NotePriceValidate", "validate", "price_tag", ("simple_note",),
          ask="My note '{recipe.v[title]}' lists prices for some products. Check {ref} and update the note so every listed price matches the tag.",
          without=("error_correction",), mutable=True, first_only=True, again="I found more tags: check {ref} against the same note."),
    About("SplitwiseValidate", "validate", "receipt", ("splitwise",),
          ask="I logged these receipts as expenses in my '{recipe.v[group][name]}' Splitwise group. Check {ref} against those expenses and fix any amount that doesn't match the receipt's total.",
          without=("error_correction",), mutable=True),
    About("AmazonLookup", "lookup_chain", "price_tag", ("amazon",),
          ask="I saw {ref} in a shop. Find each product on Amazon, add {recipe.said} of each to my cart, and tell me what Amazon charges for it.",
          mutable=True, again="And {ref}: same thing, into the cart."),
    About("AmazonLookalike", "lookup_chain", "price_tag", ("amazon",),
          ask="I took {ref} in a shop. Amazon sells that line in several colours, sizes and logo prints: find the exact one in my photo, "
              "add {recipe.said} of it to my cart, and tell me what Amazon charges for it.",
          mutable=True, again="And {ref}: same thing, the exact one into the cart."),
    About("SpotifyLookup", "lookup_chain", "handwritten_note", ("spotify",),
          ask="A friend sent me some songs. Find every song on {ref} on Spotify and add it to my playlist '{recipe.said}'.",
          mutable=True, again="Here's another list: add the songs on {ref} too."),
    About("CardLookup", "lookup_chain", "receipt", ("supervisor",),
          ask="For each of {ref}, work out which of my payment cards I used (the receipt shows the last four digits) and list the store, the total and the card's name. Then {recipe.sink_intent}.",
          again="Do the same for {ref} and add them to the same {recipe.sink.noun}."),
    About("InvoicePayLookup", "lookup_chain", "invoice", ("venmo", "contacts"),
          ask="These invoices are from people in my contacts. For each of {ref}, find the person and pay them the invoice total on Venmo from my {recipe.v[card][card_name]} card, with the invoice number as the note.",
          without=("goal_change",), again="Please pay {ref} the same way."),
    About("RosterTextLookup", "lookup_chain", "table_document", ("messages", "contacts"),
          ask="I'm coordinating volunteers. Text everyone listed on {ref} their shift: the day, the start time and how many hours.",
          without=("goal_change",), again="Another roster: text the people on {ref} the same way."),
    About("ChartProjectLookup", "lookup_chain", "chart", ("todoist",),
          ask="For each of {ref}, find the project with the most hours and add a task titled '{recipe.v[title]}' to that project in Todoist, with the chart's week and the number of hours in the description.",
          without=("goal_change",), again="Now {ref}: same thing."),
    About("TodoistReceiptXref", "cross_reference", "receipt", ("todoist",),
          ask="Cross-check {ref} against my Todoist project '{recipe.v[project][name]}': for every task that's still open and matches something I bought, mark it complete and add a comment with the {recipe.said}.",
          mutable=True, again="More receipts: cross-check {ref} the same way."),
    About("CalendarPosterXref", "cross_reference", "event_poster", ("calendar", "reminder"),
          ask="Check {ref} against my calendar. Add every event that isn't in it yet to my {recipe.v[calendar][title]} calendar, {recipe.v[hours]} hours long, with the venue as the address, and tell me which ones you added.",
          mutable=True, again="More posters: check {ref} the same way."),
    About("ContactsCardXref", "cross_reference", "business_card", ("contacts", "gmail"),
          ask="Check {ref} against my contacts and add everyone who isn't there yet, with their phone number and email, tagged '{recipe.v[tag]}'. Tell me who you added.",
          mutable=True, again="A few more cards: {ref}. Same again."),
    About("WishlistXref", "cross_reference", "price_tag", ("amazon",),
          ask="I'm checking products in a store. Compare {ref} with my Amazon wish list: move every product that's on my wish list into my cart, and tell me which ones you moved.",
          without=("error_correction",), mutable=True, again="And {ref}: same check."),
    About("ErrandsXref", "cross_reference", "handwritten_note", ("todoist",),
          ask="Check {ref} against my Todoist project '{recipe.v[project][name]}' and add a task for every errand that isn't there yet, due {recipe.said}.",
          mutable=True, again="Another list: check {ref} the same way."),
    # its requests name one device's screenshot: settings_recipe.SettingsMatch.ask/again
    About("SettingsMatch", "validate", "settings", ("setting",), without=("goal_change", "state_mutation")),
)}


class DBRecipe(RecipeBase, ABC):
    """Base of the database-backed recipes (see the module docs)."""

    about: About
    flow_name = category = again_text = ""
    domains: tuple[str, ...] = ()
    supports: tuple[str, ...] = ()
    mutable = mutate_first_only = False

    def __init_subclass__(cls, engine: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if engine:  # an interpreter of recipe rows (db_validate.Check): its recipes are its subclasses
            return
        if cls.__name__ not in ABOUT:
            raise TypeError(f"{cls.__name__} has no row in db_base.ABOUT (say its flow, category and apps there)")
        a = cls.about = ABOUT[cls.__name__]
        cls.flow_name, cls.category, cls.domains, cls.supports = a.flow, a.category, a.domains, a.supports
        cls.mutable, cls.mutate_first_only, cls.again_text = a.mutable, a.first_only, a.again

    def __init__(self, b: Build, n: int, arrival: str, challenge: str, budget: int) -> None:
        self.b, self.challenge = b, challenge
        self.mode = "normal"
        self.done: list[int] = []
        self.mutations: dict[int, dict[str, Any]] = {}
        self.mutation_slot: int | None = None
        self.lines: list[str] = []
        self.ids = self.setup(n)
        self.slots = skeleton(arrival, self.ids, b.rng, budget=budget, min_group=1, additive=True)
        self.share: S.Sink | None = None
        if any(s.role == "share" for s in self.slots):
            self.share = b.rng.choice([S.NoteSink, S.EmailSink, S.DraftSink, S.TextSink, S.FileSink])(b)
        if challenge == "state_mutation" and self.mutable:
            order = [i for i, s in enumerate(self.slots) if s.role == "task"]
            order.sort(key=lambda i: (i == 0, b.rng.random()))
            if self.mutate_first_only:
                order = order[-1:] if order[-1] == min(order) else [min(order)]
            for si in order:
                cands = [i for i in self.slots[si].scope if self.can_mutate(i)]
                if cands:
                    i = b.rng.choice(cands)
                    self.mutations[i] = self.mutate(i)
                    self.mutation_slot = si
                    break
        if challenge in ("goal_change", "error_correction") and challenge not in self.supports:
            raise GenerationError(f"{type(self).__name__} cannot take {challenge}")

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def setup(self, n: int) -> list[int]:
        """Seed the rows the task works on; the images' indices in drawing order."""

    def ask(self, ref: str) -> str:
        """The first task request, about the images described by ``ref`` (the recipe's ``About.ask``)."""
        return self.about.ask.format(ref=ref, recipe=self)

    def again(self, ref: str) -> str:
        return self.again_text.format(ref=ref, recipe=self)

    @abstractmethod
    def work(self, scope: list[int], first: bool) -> Work:
        """What a task round over the images ``scope`` does."""

    def goal(self) -> tuple[str, list[dict[str, Any]], str]:
        raise GenerationError(f"{type(self).__name__} has no goal change (supports {self.supports})")

    def mistake(self) -> Mistake | None:
        return None

    def slip(self, scope: list[int]) -> Slip | None:
        """A detail of the first task request that the phone's data contradicts (None: this recipe has none here)."""
        return None

    def can_mutate(self, i: int) -> bool:
        return False

    def mutate(self, i: int) -> dict[str, Any]:
        raise GenerationError(f"{type(self).__name__} cannot pre-empt a row")

    @classmethod
    def offers(cls, hook: str) -> bool:
        """Whether the recipe has its own ``hook`` ("mistake": a correction of the user's own detail; "slip")."""
        return getattr(cls, hook) is not getattr(DBRecipe, hook)

    # ------------------------------------------------------------------ rounds
    def parts(self) -> list[Part]:
        b = self.b
        parts: list[Part] = []
        seen: list[int] = []
        tasks = [i for i, s in enumerate(self.slots) if s.role == "task"]
        contradiction = world = False
        if self.challenge == "error_correction":
            # the user states a detail the phone's data contradicts, misreads a printed amount (the images
            # contradict them), or corrects their own detail
            own = self.offers("mistake")
            contradiction = any(claimable(b.imgs[i]) for i in self.ids) and b.rng.random() < DB_CONTRADICTION_SHARE
            world = not contradiction and self.offers("slip") and (not own or b.rng.random() < 0.6)
            challenge_at = None if contradiction or world else tasks[0]
        elif self.challenge == "goal_change":
            challenge_at = tasks[0] if len(tasks) > 1 and b.rng.random() < 0.5 else tasks[-1]
        else:
            challenge_at = None
        first = True
        for si, slot in enumerate(self.slots):
            seen += [i for i in slot.deliver if i not in seen]
            if slot.role == "setup":
                parts.append(self.generic_setup(None))
                continue
            if slot.role == "share":
                assert self.share is not None
                p = Payload("Summary of changes", lines=list(self.lines) or ["Nothing needed changing."])
                had = bool(self.share.clarify)
                steps = self.share.write(p, additive=False)
                part = Part(f"Also {self.share.intent()}: a short summary of what you found and changed.", steps,
                            self.share.done(), is_task=True, role="share")
                if had:
                    part.clarifications.append(self.share.clarify)
                parts.append(part)
                continue
            r = describe_images(b.imgs, slot.scope, slot.deliver, seen)
            req = self.ask(r) if first else self.again(r)
            state_changes = [self.mutations[i] for i in slot.scope if i in self.mutations]
            w = self.work(slot.scope, first)
            first = False
            self.done += [i for i in slot.scope if i not in self.done]
            self.lines += w.lines
            part = Part(req, w.steps, " ".join(w.bits), facts=unique(w.facts), is_task=True, image_ids=list(slot.deliver),
                        clarifications=list(w.clarifications))
            if state_changes:
                part.state_changes = state_changes
                part.kind = "state_mutation"
                if b.rng.random() < 0.5:
                    part.request = "I already took care of one of these myself. " + part.request
            if world and si == tasks[0]:
                slip = self.slip(slot.scope)
                if slip is not None:
                    apply_slip(part, slip)
                    self.slipped = slip.variant
                elif self.offers("mistake"):
                    challenge_at = si  # nothing here the world contradicts: the user corrects their own detail
                else:
                    raise GenerationError(f"{type(self).__name__} has no detail to contradict in this round")
            if contradiction and si == tasks[0]:
                if not contradict(b, part, None, "", slot.scope):
                    m = self.mistake()
                    assert m is not None
                    parts += [part, Part(m.correction, m.fix, m.answer, kind="correction", is_task=True)]
                    continue
            parts.append(part)
            if si == challenge_at:
                if self.challenge == "goal_change":
                    req2, steps2, answer2 = self.goal()
                    parts.append(Part(req2, steps2, answer2, kind="goal_change", is_task=True))
                else:
                    m = self.mistake()
                    assert m is not None
                    parts.append(Part(m.correction, m.fix, m.answer, kind="correction", is_task=True))
        return parts

    def describe(self) -> str:
        slipped = getattr(self, "slipped", None)
        return super().describe() + (f"+world_slip:{slipped}" if slipped else "")

    def entity_mutation(self, parts: list[Part], candidates: list[int]) -> bool:
        return any(p.kind == "state_mutation" for p in parts)

    def note(self, *, only: list[str] = (), derived: list[str] = (), keys: list[str] = ()) -> None:
        self.b.note_values(Payload("", image_values=list(only), derived=list(derived), keys=list(keys)))
