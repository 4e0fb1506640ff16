"""Counterfactual replay: an independent, mechanical check that no user turn depended on hidden values.

The user judge's other checks read the conversation with the same rules the scripted user follows,
so a bug in those rules would pass them. This check interprets no words: it replays the
episode's assistant actions, verbatim, against a fresh copy of the same user policy playing a
copy of the scenario whose **hidden fields** hold different values, and compares the user's
actions byte for byte. A user that decides from the conversation and its own script acts the
same; any difference is a turn that depended on something the user must not know, reported with
its round and the two versions of the turn.

Hidden -- what the paper's supervisor does not see (:func:`hidden_copy` changes each to another
value of the same type: a text to a marker, a number to another number, a date to another date, a
flag flipped; keys, table names, tool names and ``$ref`` links stay so the copy is still a valid
scenario):

- the images' contents (``render.content``) and ``facts``;
- the expected changes (rows, fields, keys) and the legacy ``facts``;
- each round's ``report``, ``answer`` (the reference reply), ``solution`` (its arguments and
  ``say`` lines) and the rows of its ``state_changes``;
- the world's rows: the scenario's own (``initial_entities``, every column but the table's key)
  and the base world under them (the copy is built on another ``world_seed``);
- ``completion_criteria``; ``metadata`` (image and derived values, value tolerances, look-alikes,
  error claims, persona...; only ``num_images``, ``num_rounds`` and ``domains`` are kept);
- a UI round's ``expect`` (what the judge wants the screen to show), and its ``label_contains``
  pick when the name is in nothing the user knows (its situation, requests, instructions,
  clarification answers: :func:`~mmtsb_env.users.script.known_words`).

Not hidden -- the user's own script: every round's query and images, ``instructions``,
clarification answers and keywords, ``guidance`` (fixed lines, permission, held images),
``wrong_claim`` (the scripted wrong value and its confirmation), the UI decision (``choose``,
``pick`` by a name the user knows or by price, ``fill``, ``criterion``), and the scenario ``description`` (the user seat's situation,
shown in its system prompt and by the format free of image-only values).

The copy plays with the original's pixels (the assistant's turns are replayed verbatim, so what
it saw does not matter, and nothing is drawn twice) and with no judge. Before each user turn the
replay checks that the user is shown the same entries as in the recorded episode; when the
assistant's verbatim actions show it something else in the changed world (a tool that failed
there and delivered nothing), the copy's user is shown the recorded entries instead. The agent's
code runs again in the copy within a total time budget (:func:`code_budget`); code that runs
longer only in the changed world ends the replay as ``diverged`` with ``out_of_budget`` --
inconclusive, not the user's doing, and never more host time than the budget. A user policy
may define ``for_replay(original_scenario)`` returning its fresh copy (the model-played user does: its copy answers only from the recorded run's completion cache, so a
prompt that differs is itself a difference); otherwise the policy is deep-copied.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode
    from ..scenario.model import Scenario

KEPT_METADATA = frozenset({"num_images", "num_rounds", "domains"})
MARKER = "zqhidden{:04d}"  # what a hidden text becomes: a word no script or template contains
_NUMERIC = re.compile(r"[-+]?[$€£¥]?\s?\d[\d,]*(?:\.\d+)?\s?%?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"(\d{1,2}):(\d{2})")
DATE_SHIFT = timedelta(days=37, hours=5)


class _Perturb:
    """Maps each hidden value to another of the same type, the same value always to the same one."""

    def __init__(self) -> None:
        self.memo: dict[tuple[type, Any], Any] = {}

    def __call__(self, value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"$ref"}:
                return value
            return {k: self(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self(v) for v in value)
        if value is None:
            return None
        key = (type(value), value)
        if key not in self.memo:
            self.memo[key] = self._other(value)
        return self.memo[key]

    def _other(self, value: Any) -> Any:
        if isinstance(value, bool):
            return not value
        if isinstance(value, int):
            return value + 7919
        if isinstance(value, float):
            return round(value * 1.5 + 7.31, 2)
        if not isinstance(value, str) or not value.strip():
            return value
        text = value.strip()
        if _DATE.match(text):
            try:
                when = datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                pass
            else:
                return (when + DATE_SHIFT).date().isoformat() if len(text) == 10 else (when + DATE_SHIFT).isoformat()
        match = _TIME.fullmatch(text)
        if match:
            return f"{(int(match.group(1)) + 5) % 24:02d}:{match.group(2)}"
        if _NUMERIC.fullmatch(text):
            return re.sub(r"\d", lambda m: str((int(m.group(0)) + 3) % 10), text)
        return MARKER.format(len(self.memo))


def leaves(value: Any):
    """Every scalar leaf of a nested value (dicts' values, lists' and tuples' items), in order; a
    ``{"$ref": ...}`` link between solution steps is no value and yields nothing."""
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            return
        for v in value.values():
            yield from leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def _keyed_rows(rows: Any, key: str, other: _Perturb) -> Any:
    """World rows with every column but the key (and ``__deleted__``) changed."""
    if not isinstance(rows, dict):
        return other(rows)
    return {c: (v if c in (key, "__deleted__") else other(v)) for c, v in rows.items()}


def _table_key(table: str) -> str:
    from ..world.schema import TABLES

    spec = TABLES.get(table)
    return spec.key if spec is not None else "id"


def _ui_copy(ui: Any, known: str, other: _Perturb) -> Any:
    """A UI decision with its ``expect`` changed, and its ``label_contains`` / ``labels_contain``
    pick names too when the user does not know them (:func:`~mmtsb_env.users.script.known_words`): then it is the answer
    key's, not the user's."""
    pick = dict(ui.pick or {})
    name = pick.get("label_contains")
    if name is not None and str(name).strip().lower() not in known.lower():
        pick["label_contains"] = other(name)
    names = pick.get("labels_contain")
    if names and any(str(n).strip().lower() not in known.lower() for n in names):
        pick["labels_contain"] = [n if str(n).strip().lower() in known.lower() else other(n) for n in names]
    return replace(ui, expect=other(ui.expect), pick=pick or ui.pick)


def _round_copy(rnd: Any, other: _Perturb, known: str = "") -> Any:
    solution = tuple({**step, **({"arguments": other(step["arguments"])} if "arguments" in step else {}),
                      **({"say": other(step["say"])} if "say" in step else {})} for step in rnd.solution)
    changes = tuple(replace(c, row=_keyed_rows(c.row, _table_key(c.table), other) if c.row is not None else None,
                            fields=other(c.fields)) for c in rnd.state_changes)
    ui = _ui_copy(rnd.ui, known, other) if rnd.ui is not None else None
    return replace(rnd, report=other(rnd.report), answer=other(rnd.answer), solution=solution, state_changes=changes, ui=ui)


def hidden_copy(scenario: "Scenario") -> "Scenario":
    """``scenario`` with every hidden field (see the module docstring) holding a different value."""
    from .script import known_words

    other = _Perturb()
    images = tuple(replace(spec, facts=other(dict(spec.facts)),
                           render={**spec.render, "content": other(spec.render.get("content"))} if spec.render else spec.render)
                   for spec in scenario.images)
    changes = tuple(replace(c, row=other(c.row), fields=other(c.fields), key=other(c.key)) for c in scenario.expected_changes)
    entities = {table: [_keyed_rows(row, _table_key(table), other) for row in rows]
                for table, rows in scenario.initial_entities.items()}
    metadata = {k: (v if k in KEPT_METADATA else other(v)) for k, v in scenario.metadata.items()}
    if isinstance(metadata.get("value_tolerances"), dict):  # keyed by the values themselves
        metadata["value_tolerances"] = {other(k): v for k, v in metadata["value_tolerances"].items()}
    return replace(scenario, images=images, expected_changes=changes, initial_entities=entities,
                   rounds=tuple(_round_copy(r, other, known_words(scenario, k)) for k, r in enumerate(scenario.rounds)),
                   facts=other(scenario.facts),
                   completion_criteria=other(scenario.completion_criteria), metadata=metadata,
                   world_seed=scenario.world_seed + 1)


def _flipped(value: Any) -> Any:
    """A hidden collection with its emptiness flipped: a non-empty one emptied, an empty list or
    tuple given one marker item; anything else as it is."""
    if isinstance(value, (list, tuple, dict)) and value:
        return type(value)()
    if isinstance(value, (list, tuple)):
        return type(value)([MARKER.format(9999)])
    return value


def structural_copy(scenario: "Scenario") -> "Scenario":
    """``scenario`` with the *shape* of its hidden fields changed: every hidden list or mapping
    that holds something emptied, every empty one given an item -- each round's ``report``,
    ``state_changes`` and UI ``expect``, the expected changes, the legacy ``facts``, the images'
    ``facts``, and the lists and mappings of ``metadata`` (look-alikes, error claims...). What
    :func:`hidden_copy` cannot show: a user that decides by whether a hidden list is empty, how
    long it is or whether it holds anything at all (``bool(round.report)``). The world, the
    reference replies and solutions are left as they are (the value copy changes them)."""
    images = tuple(replace(spec, facts=_flipped(dict(spec.facts))) for spec in scenario.images)
    rounds = tuple(replace(r, report=_flipped(tuple(r.report)), state_changes=() if r.state_changes else r.state_changes,
                           ui=replace(r.ui, expect=_flipped(r.ui.expect)) if r.ui is not None else None)
                   for r in scenario.rounds)
    metadata = {k: (v if k in KEPT_METADATA else _flipped(v)) for k, v in scenario.metadata.items()}
    return replace(scenario, images=images, rounds=rounds, expected_changes=(), facts=_flipped(tuple(scenario.facts)),
                   metadata=metadata)


PERTURBATIONS = (("values", hidden_copy), ("structure", structural_copy))


# ------------------------------------------------------------------------- the replay
@dataclass
class Replay:
    """The outcome: ``difference`` is the first user turn that changed (None: every turn was the
    same); ``diverged`` says why the replay stopped before the end without blaming the user;
    ``error`` why it could not run."""

    turns: int = 0  # user turns compared
    # {"round": the round the turn was made in (1-based; the opening counts as round 1), "turn": the user's n-th
    #  action, "step": the episode step, "recorded"/"replayed": the two versions from where they differ, "why"}
    difference: dict[str, Any] | None = None
    diverged: str = ""
    error: str = ""
    fed: int = 0  # user turns before which the copy's user was shown the recorded entries (the changed world differed)
    out_of_budget: bool = False  # the agent's code ran past the replay's time budget (:func:`code_budget`)
    skipped: str = ""  # why a recorded episode could not be replayed (:func:`replay_record`)
    fields: list[str] = field(default_factory=lambda: list(HIDDEN_FIELDS))

    @property
    def clean(self) -> bool:
        return self.difference is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turns": self.turns, "difference": self.difference, "hidden_fields": self.fields}
        if self.fed:
            out["fed_recorded"] = self.fed
        if self.diverged:
            out["diverged"] = self.diverged
        if self.out_of_budget:
            out["out_of_budget"] = True
        if self.skipped:
            out["skipped"] = self.skipped
        if self.error:
            out["error"] = self.error
        return out


HIDDEN_FIELDS = ("images.render.content", "images.facts", "expected_changes", "facts", "rounds.report", "rounds.answer",
                 "rounds.solution", "rounds.state_changes", "rounds.ui.expect", "rounds.ui.pick",
                 "initial_entities", "world_seed",
                 "completion_criteria", "metadata")


class _NoJudge:
    """The copy needs no verdict."""

    def evaluate(self, evidence: Any) -> Any:
        from ..evaluation.judge import Verdict

        return Verdict(True, [], "replay")


def replay_policy(policy: Any, original: "Scenario", seed: int | None = None) -> Any:
    """A fresh copy of ``policy`` for the replay (``policy.for_replay(original)`` when it has one,
    else a deep copy), reseeded with the episode's ``seed`` (``reseed(seed)``, as the env seeded
    the policy at reset) so a sampling policy draws what it drew in the episode."""
    make = getattr(policy, "for_replay", None)
    twin = make(original) if make is not None else copy.deepcopy(policy)
    reseed = getattr(twin, "reseed", None)
    if seed is not None and callable(reseed):
        reseed(seed)
    return twin


def _seen(entry: Any) -> tuple[Any, ...]:
    return entry.sender, entry.recipient, entry.kind, entry.content, tuple(entry.image_ids)


def excerpts(recorded: Any, replayed: Any, width: int = 240) -> tuple[str, str]:
    """The two versions of a turn from a little before where they first differ (at most ``width``
    characters each), so a long request shows the part that changed."""
    a, b = str(recorded), str(replayed)
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, at - 60)

    def cut(text: str) -> str:
        piece = text[start:start + width]
        return ("…" if start else "") + piece + ("…" if start + width < len(text) else "")

    return cut(a), cut(b)


def replay(episode: "Episode", policy: Any) -> Replay:
    """Replay ``episode``'s assistant actions against ``policy`` on :func:`hidden_copy` of its
    scenario and, when every turn was the same there, on :func:`structural_copy` (the
    :data:`PERTURBATIONS`, in order; the first changed or inconclusive one is the outcome, its
    ``difference["perturbation"]`` says which). When a user turn changes, the same replay runs once
    more on the *original* scenario (the control): a turn that changes there too is the policy not
    repeating itself (sampling, state not reset by ``reseed``), reported as ``diverged`` --
    inconclusive -- not as a hidden dependence."""
    from ..episode.engine import forget_scenario

    first = None
    for name, make in PERTURBATIONS:
        twin_scenario = None
        try:
            twin_scenario = make(episode.scenario)
            out = _replay_on(episode, policy, twin_scenario)
        except Exception as exc:  # a copy that cannot be made is reported, never raised into the judge
            out = Replay(error=f"{type(exc).__name__}: {exc}")
        finally:
            if twin_scenario is not None:
                forget_scenario(twin_scenario)
        if out.difference is not None and not out.error:
            out.difference["perturbation"] = name
            control = _replay_on(episode, policy, episode.scenario)
            if control.difference is not None and control.difference["turn"] <= out.difference["turn"]:
                out.diverged = (f"the user policy does not repeat its own episode: with nothing changed, user turn "
                                f"{control.difference['turn']} was {control.difference['replayed']!r}")
                out.difference = None
        if out.difference is not None or out.diverged or out.error:
            if out.diverged or out.error:
                out.diverged = out.diverged and f"{out.diverged} (hidden {name} changed)"
            return out
        first = first or out
    return first


def code_budget(episode: "Episode") -> float:
    """The seconds the replay may spend running the agent's code: twice what the episode's code runs
    took plus one code step's timeout. Code that runs longer only in the changed world (a loop on a
    value the copy changed) cannot make the replay cost more than this, whatever it does; running
    out ends the replay as inconclusive (``out_of_budget``), never as a pass or a difference."""
    return 2.0 * float(getattr(episode, "code_seconds", 0.0)) + float(episode.config.code_timeout_s)


def replay_inputs(episode: "Episode", user: Any = None) -> dict[str, Any]:
    """What a run record keeps so that re-judging it can replay it (:func:`replay_record`): the
    episode's seed, its config, every action of both seats, in order, and how to rebuild the
    ``user`` policy that played the user seat (:func:`user_spec`)."""
    from dataclasses import asdict

    out = {"seed": episode.seed, "config": asdict(episode.config),
           "actions": [[seat, action] for seat, action in episode.actions]}
    if user is not None:
        out["user"] = user_spec(user)
    return out


def user_spec(policy: Any) -> dict[str, Any]:
    """How a record rebuilds ``policy``: its class (``module:qualname``) and constructor arguments --
    ``policy.replay_spec()`` when it has one (a JSON-able dict), none when the policy holds no state
    of its own -- or ``unbuildable``, why it cannot be (``policy.not_rebuildable``, a class defined
    inside a function, state without ``replay_spec``)."""
    cls = type(policy)
    spec: dict[str, Any] = {"class": f"{cls.__module__}:{cls.__qualname__}",
                            "name": str(getattr(policy, "name", cls.__name__))}
    why = getattr(policy, "not_rebuildable", None)
    make = getattr(policy, "replay_spec", None)
    if why:
        spec["unbuildable"] = str(why)
    elif "<locals>" in cls.__qualname__:
        spec["unbuildable"] = f"its class {cls.__qualname__} is defined inside a function, so it cannot be imported"
    elif callable(make):
        spec["kwargs"] = make()
    elif vars(policy):
        spec["unbuildable"] = (f"it keeps state a record cannot rebuild ({', '.join(sorted(vars(policy)))}); "
                               "a policy gives its constructor arguments with replay_spec()")
    else:
        spec["kwargs"] = {}
    return spec


def rebuild_user(spec: dict[str, Any]) -> tuple[Any, str]:
    """``(policy, "")`` rebuilt from :func:`user_spec`, or ``(None, why not)``. Only a class of a module
    already imported (or of ``mmtsb_env``) is rebuilt: a record does not make the judge import code."""
    import importlib
    import sys

    if spec.get("unbuildable"):
        return None, f"the user seat was played by {spec.get('class')}: {spec['unbuildable']}"
    module, _, qualname = str(spec.get("class", "")).partition(":")
    if not module or not qualname:
        return None, f"the record names no user policy class ({spec.get('class')!r})"
    if module not in sys.modules and module.split(".")[0] != "mmtsb_env":
        return None, f"the user policy's module {module!r} is not loaded (a record does not import code)"
    try:
        cls: Any = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        return cls(**dict(spec.get("kwargs") or {})), ""
    except Exception as exc:
        return None, f"the user policy {spec['class']} cannot be rebuilt ({type(exc).__name__}: {exc})"


def replay_record(record: Any, scenario: "Scenario") -> Replay:
    """The counterfactual replay of a recorded episode of ``scenario``: the episode is played again
    from the record's :func:`replay_inputs` (its user turns as recorded) and then replayed against
    the user policy the run had, rebuilt from the record (:func:`rebuild_user`). ``skipped`` says
    why it cannot be: a record made before the inputs (or the user policy) were stored, or a policy
    a record cannot rebuild (a model-played user: its completions are not stored)."""
    from ..episode.engine import Episode, EpisodeConfig
    from ..evaluation.evidence import field_of

    inputs = field_of(record, "replay_inputs") or {}
    if not inputs.get("actions"):
        return Replay(skipped="the record holds no replay inputs (recorded before they were stored)")
    if not inputs.get("user"):
        return Replay(skipped=f"the record does not say which user policy played the user seat (recorded before "
                              f"it was stored; {str(field_of(record, 'user') or 'scripted')!r} may be any variant)")
    user, why = rebuild_user(inputs["user"])
    if user is None:
        return Replay(skipped=why)
    episode = None
    try:
        episode = Episode(scenario, EpisodeConfig(**inputs["config"]), judge=_NoJudge(), seed=inputs.get("seed"))
        for seat, action in inputs["actions"]:
            if episode.done or episode.turn != seat:
                return Replay(diverged="the record's actions do not play again on this scenario (another version of it?)")
            episode.act(seat, action)
        recorded = [e.get("content") for e in field_of(record, "log") or [] if e.get("sender") == "user"]
        if recorded and recorded != [e.content for e in episode.log if e.sender == "user"]:
            return Replay(diverged="the record's episode plays differently on this scenario (another version of it?)")
        return replay(episode, user)
    except Exception as exc:  # never raised into the judge
        return Replay(error=f"{type(exc).__name__}: {exc}")
    finally:
        if episode is not None:
            episode.close()


def _recorded_prompts(policy: Any, episode: "Episode") -> list[str | None]:
    """The prompt hash the policy recorded for each of ``episode``'s user turns (``steps[i]["prompt_hash"]``,
    None for a turn without a model call), or [] when it records none."""
    steps = list(getattr(policy, "steps", None) or [])
    n = sum(1 for seat, _ in episode.actions if seat == "user")
    if len(steps) < n or not any("prompt_hash" in s for s in steps[len(steps) - n:]):
        return []
    return [s.get("prompt_hash") for s in steps[len(steps) - n:]]


def _replay_on(episode: "Episode", policy: Any, scenario: "Scenario") -> Replay:
    """The assistant's recorded actions against a fresh copy of ``policy`` on ``scenario``."""
    from ..episode.engine import USER, Episode, _scenario_images

    original = episode.scenario
    recorded_by_user = [e for e in episode.log if e.visible(USER)]
    seen_by_user = [_seen(e) for e in recorded_by_user]
    prompts = _recorded_prompts(policy, episode)
    out = Replay()
    try:
        images = _scenario_images(original, episode.config.image_root, episode.config.stand_in_images)
        twin = Episode(scenario, episode.config, judge=_NoJudge(), images=images, seed=episode.seed)
        budget = code_budget(episode)
        twin.code_budget_s = budget
        user = replay_policy(policy, original, episode.seed)
        misses = _misses(user)
        for step, (seat, action) in enumerate(episode.actions, 1):
            if twin.done or twin.turn != seat:
                out.diverged = f"at step {step} the copy was {'over' if twin.done else 'at the ' + twin.turn + ' seat'}"
                break
            if seat == USER:
                shown = [_seen(e) for e in twin.log if e.visible(USER)]
                if shown != seen_by_user[: len(shown)]:  # the changed world showed it something else: feed it
                    _show_recorded(twin, recorded_by_user)
                    out.fed += 1
                try:
                    mine = user.act(twin)
                except Exception as exc:  # the policy failed only with the hidden fields changed: a difference too
                    mine = f"<the user policy raised {type(exc).__name__}: {exc}>"
                out.turns += 1
                if prompts:  # the prompt itself is compared, not whether the cache held its completion
                    step_record = (getattr(user, "steps", None) or [{}])[-1]
                    changed_prompt = step_record.get("prompt_hash") != prompts[out.turns - 1]
                else:
                    changed_prompt = _misses(user) > misses
                misses = _misses(user)
                if mine != action or changed_prompt:
                    r = twin.round_index
                    recorded, replayed = excerpts(action, mine)
                    out.difference = {
                        "round": max(r, 0) + 1, "turn": out.turns, "step": step,
                        "recorded": recorded, "replayed": replayed,
                        "why": "the model-played user's prompt changed" if changed_prompt else "the user's action changed"}
                    break
            twin.act(seat, action)
            if twin.code_budget_spent:  # the agent's code runs longer here than it did: stop, inconclusive
                out.out_of_budget = True
                out.diverged = (f"at step {step} the replay ran out of its time budget for the agent's code ({budget:.1f} s: "
                                f"twice the episode's {episode.code_seconds:.1f} s of code plus one step's "
                                f"{float(episode.config.code_timeout_s):g} s)")
                break
    except Exception as exc:  # a copy that cannot be built or played is reported, never raised into the judge
        out.error = f"{type(exc).__name__}: {exc}"
    return out


def _show_recorded(twin: "Episode", recorded: list[Any]) -> None:
    """Make what the copy's user is shown the recorded episode's: the entries visible to the user in
    ``twin.log`` are replaced, in order, by the recorded ones the user had seen before its next
    action (the recorded entries the changed world did not produce are added, extra ones it did
    are dropped), and the user's transcript is rebuilt from them. Entries the user does not see
    stay as the copy made them: only the user's inputs are made equal."""
    from ..episode.log import USER, ChatTranscript

    acted = sum(1 for e in twin.log if e.sender == USER)
    upto, mine = 0, 0
    while upto < len(recorded) and not (recorded[upto].sender == USER and mine == acted):
        mine += recorded[upto].sender == USER
        upto += 1
    feed = iter(recorded[:upto])
    log = []
    for entry in twin.log:
        if entry.visible(USER):
            entry = next(feed, None)
        if entry is not None:
            log.append(replace(entry, index=len(log)))
    log += [replace(e, index=len(log) + i) for i, e in enumerate(feed)]
    twin.log[:] = log
    rebuilt = ChatTranscript(USER, twin.transcripts[USER]._messages[0]["content"], twin.image_url)
    for entry in log:
        rebuilt.add(entry)
    twin.transcripts[USER] = rebuilt
    twin._cursor[USER] = len(log)


def _misses(user: Any) -> int:
    """Completions the user's replay copy could not find in the recorded run's cache."""
    return int(getattr(getattr(user, "backend", None), "misses", 0) or 0)
