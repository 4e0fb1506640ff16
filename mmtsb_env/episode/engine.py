"""One episode: world + images + message log, two seats taking turns, rewards as it goes.

The engine knows nothing about Gymnasium or PettingZoo; the envs in ``mmtsb_env.envs`` drive it.
Turn taking: the user speaks first; a seat keeps the turn while it calls tools (results come back
to it), and hands over when it sends a message. The user ends the episode with
``end_conversation``; the episode is truncated when the log reaches ``max_messages``, when both
seats together have acted ``max_steps`` times, or when ``time_limit_s`` of wall clock have passed
(a truncated episode is judged as it stands).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Callable

from ..evaluation.entity_diff import EntityScore, EntityScorer, ScoringConfig, resolve_scope
from ..evaluation.judge import Criterion, Evidence, RubricJudge, Verdict, action_rounds
from ..evaluation.similarity import rouge_l
from ..limits import (MAX_ACTION_CHARS, MAX_CODE_CALLS, MAX_EPISODE_CALLS, MAX_KEPT_ARGUMENT_CHARS, MAX_REPLY_CHARS,
                      bad_unicode, check_arguments, kept_arguments, scrub, shortened, too_long)
from ..scenario.model import Scenario
from ..tools.calling import invoke
from ..tools.active import PINNED_TOOLS, ActiveToolSet
from ..tools.calling import CallOutcome
from ..tools.registry import ASSISTANT, USER
from ..ui.evaluation import ui_criteria
from ..world import World, build_layer
from ..vision.store import DeliveredImages
from ..world.base import base_world
from .actions import Code, Invalid, Message, ToolCalls, parse_action
from .log import ENVIRONMENT, ChatTranscript, Entry
from .prompts import assistant_prompt, user_prompt

ALWAYS_OFFERED_APPS = ("vision",)
CROSS_CUTTING_APPS = ("vision", "system", "user", "ui")


@dataclass(frozen=True)
class EpisodeConfig:
    """How an episode runs (everything besides the scenario)."""

    mode: str = "tool"  # "tool": JSON tool calls; "code": python blocks
    toolbox: str = "full"
    tool_search: bool = False  # start with pinned tools only; discover the rest by search
    tool_universe: str = "scenario"  # "scenario": its domains' tools; "toolbox": every assistant tool
    tool_ranker: str = "bm25"  # how the search tool ranks: "bm25" | "keyword" | "hybrid"
    coding_tool: bool = False  # pin execute_code next to the search tool
    active_tools_limit: int = 100
    max_messages: int | None = None  # default: the scenario's
    max_steps: int | None = None  # cap on the actions of both seats together
    time_limit_s: float | None = None  # wall-clock limit of the episode
    judge_weight: float = 1.0
    f1_weight: float = 1.0
    code_timeout_s: float = 5.0
    code_memory_mb: int | None = None  # None: the sandbox default (1024 MiB per interpreter)
    code_isolation: str = "process"  # "thread": in-process, for trusted code only (see docs/security.md)
    entity_scope: str = "all"  # "all" | "reference" (only the tables expected changes name) | "auto" (reference for imported scenarios)
    image_root: str | None = None  # folder of path images (default $MMTSB_IMAGE_ROOT, else the working directory)
    stand_in_images: bool = False  # a missing path image becomes a labelled placeholder instead of failing the reset
    code_jail: str = "required"  # "off": the worker runs without the kernel jail (trusted code only)

    def __post_init__(self) -> None:
        if self.mode not in ("tool", "code"):
            raise ValueError(f"mode must be 'tool' or 'code', got {self.mode!r}")
        if self.code_isolation not in ("process", "thread"):
            raise ValueError(f"code_isolation must be 'process' or 'thread', got {self.code_isolation!r}")
        if self.code_jail not in ("required", "off"):
            raise ValueError(f"code_jail must be 'required' or 'off', got {self.code_jail!r}")


@dataclass
class CallRecord:
    """A tool call made during the episode (directly or from code), for evaluation and export."""

    step: int
    seat: str
    via: str  # "tool" | "code"
    outcome: CallOutcome
    round_index: int = -1  # the scripted round the call was made in (-1: before the first)

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat, "via": self.via, **self.outcome.to_json(),
                "round_index": self.round_index, "wrote": self.outcome.wrote}


@dataclass
class ActResult:
    """What one action did: rewards per seat and whether the episode ended."""

    rewards: dict[str, float]
    components: dict[str, float] = field(default_factory=dict)
    error: str | None = None


_initial_cache: dict[tuple[int, str], Any] = {}
_initial_lock = threading.Lock()
# Each scenario object's image store template (loaded files, drawing recipes) is shared by its
# episodes. Bounded LRU by real bytes; drawings and their model-resolution products live in
# mmtsb_env.vision.assets, keyed by the image's content (render spec or file).
ASSET_CACHE_BYTES = 512 * 2**20
_asset_cache: "OrderedDict[tuple[Any, ...], tuple[Any, int]]" = OrderedDict()
_asset_bytes = 0


def _size_of(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if callable(getattr(value, "nbytes", None)):  # an ImageStore: the pixels it pins
        return 1024 + value.nbytes()
    if hasattr(value, "nbytes"):
        return int(value.nbytes)
    return 1024


def scenario_asset(scenario: Scenario, kind: str, make: Callable[[], Any], *extra: Any) -> Any:
    """A cached derived asset of one of ``scenario``'s images (thread-safe, LRU bounded by bytes)."""
    global _asset_bytes
    key = (id(scenario), scenario.id, kind, *extra)
    with _initial_lock:
        hit = _asset_cache.get(key)
        if hit is not None:
            _asset_cache.move_to_end(key)
            return hit[0]
    value = make()
    size = _size_of(value)
    with _initial_lock:
        if key not in _asset_cache:
            _asset_cache[key] = (value, size)
            _asset_bytes += size
            while _asset_bytes > ASSET_CACHE_BYTES and len(_asset_cache) > 1:
                _, (_, freed) = _asset_cache.popitem(last=False)
                _asset_bytes -= freed
    return value


def _initial_layer(scenario: Scenario):
    key = (id(scenario), scenario.id)
    with _initial_lock:
        layer = _initial_cache.get(key)
        if layer is None:
            base = base_world(scenario.world_seed)
            layer = build_layer(scenario.initial_entities, below=base.layer)
            if len(_initial_cache) > 4096:
                _initial_cache.clear()
            _initial_cache[key] = layer
        return layer


def forget_scenario(scenario: Scenario) -> None:
    """Drop the cached world layer and image assets of ``scenario`` (for throw-away scenarios)."""
    global _asset_bytes
    with _initial_lock:
        _initial_cache.pop((id(scenario), scenario.id), None)
        for key in [k for k in _asset_cache if k[0] == id(scenario) and k[1] == scenario.id]:
            _asset_bytes -= _asset_cache.pop(key)[1]


@lru_cache(maxsize=1024)
def _tool_universe(toolbox: str, domains: tuple[str, ...], ui: bool) -> tuple[str, ...]:
    from ..tools.catalog import tools_in  # the catalogue loads on first use, not on import

    tools = tools_in(toolbox, ASSISTANT)
    if not domains:
        return tuple(t.name for t in tools)
    wanted = set(domains) | set(ALWAYS_OFFERED_APPS) | ({"ui"} if ui else set())
    return tuple(t.name for t in tools if t.app in wanted or t.app == "system")


def _scenario_tools(scenario: Scenario, toolbox: str) -> tuple[str, ...]:
    return _tool_universe(toolbox, tuple(scenario.domains), scenario.ui)


def _episode_tools(scenario: Scenario, config: EpisodeConfig) -> tuple[str, ...]:
    """The assistant tools an episode can reach: its domains' or (``tool_universe="toolbox"``) all
    of the toolbox (UI tools only in UI scenarios: they act on a screen only those have)."""
    from ..tools.catalog import tools_in

    if config.tool_universe == "toolbox":
        return _tool_universe(config.toolbox, (), scenario.ui) if scenario.ui else tuple(
            t.name for t in tools_in(config.toolbox, ASSISTANT) if t.app != "ui")
    return _scenario_tools(scenario, config.toolbox)


def _pinned_tools(scenario: Scenario, config: EpisodeConfig, universe: tuple[str, ...]) -> list[str]:
    """Tools offered from the start and never evicted: the search tool, ``execute_code`` with the
    coding tool, and with tool search the UI tools of a UI scenario."""
    from ..tools.catalog import get_tool

    pinned = [p for p in PINNED_TOOLS if p in universe or config.tool_search]
    if config.coding_tool:
        pinned.append("execute_code")
    if config.tool_search and scenario.ui:
        pinned += [n for n in universe if get_tool(n).app == "ui"]
    return pinned


class Episode:
    """A running episode of ``scenario`` under ``config``."""

    ASSISTANT = ASSISTANT
    USER = USER

    def __init__(self, scenario: Scenario, config: EpisodeConfig | None = None, *, judge: Any = None,
                 images: Any = None, seed: int | None = None) -> None:
        self.scenario = scenario
        self.seed = seed  # seeds the code sandbox's ``random`` (default: derived from the scenario id)
        self.config = config or EpisodeConfig()
        self.judge = judge or RubricJudge()
        base = base_world(scenario.world_seed)
        self.images = images if images is not None else _scenario_images(scenario, self.config.image_root,
                                                                           self.config.stand_in_images)
        # Tools (and code) see only the images delivered to the assistant: a later round's
        # images become readable when the user sends them (see _append).
        self.world = World(base.layer, _initial_layer(scenario), now=scenario.now, user_id=scenario.user_id,
                           services={"images": DeliveredImages(self.images)})
        self.world.services["run_code"] = self._run_code_tool
        self.world.services["toolbox"] = self.config.toolbox
        self.log: list[Entry] = []
        self.message_count = 0  # entries that count toward max_messages (not environment-only ones)
        self.calls: list[CallRecord] = []
        self.kept_argument_chars = 0  # what self.calls keeps of arguments (limits.kept_arguments)
        self._code_calls = 0  # tool calls of the current code step
        self.turn = USER
        self.step_count = 0
        self.round_index = -1
        self.clarifications_given: set[tuple[int, int]] = set()
        self.terminated = False
        self.truncated = False
        self.invalid_actions = {ASSISTANT: 0, USER: 0}
        # The built-in user policies say what kind of move each action is (nudge, redirect...):
        # counted per round once applied, for info["user_dynamics"] and the metrics.
        self.user_moves: list[tuple[int, str]] = []
        self.user_gave_up = False
        # Every action applied, in order, as (seat, action): the user judge's counterfactual replay
        # plays the assistant's verbatim against a copy of the scenario (mmtsb_env.users.counterfactual).
        self.actions: list[tuple[str, Any]] = []
        self._pending_move: tuple[str, Any] | None = None
        self.left_round_diffs: list[dict[str, Any]] = []  # world diff when the user moved on from round k
        self.max_messages = self.config.max_messages or scenario.max_messages
        universe = _episode_tools(scenario, self.config)
        self.world.services["tool_universe"] = universe  # tool search ranks only what this episode can reach
        self.world.services["tool_ranker"] = self.config.tool_ranker
        self.active = ActiveToolSet(universe, pinned=_pinned_tools(scenario, self.config, universe),
                                    limit=self.config.active_tools_limit, search=self.config.tool_search)
        self.started = time.monotonic()
        self._offered: tuple[int, list[dict[str, Any]]] | None = None
        self.entity_scope = resolve_scope(self.config.entity_scope, scenario)
        self.scorer = EntityScorer(scenario.expected_changes, config=ScoringConfig.for_scenario(scenario, scope=self.entity_scope))
        self.f1 = self.scorer.score(self.world).f1
        self.verdict: Verdict | None = None
        self.reward_history: list[dict[str, float]] = []
        self._interpreter = None
        # Every code run with the outcomes of the tool calls it made, in order: a copy of the
        # episode replays them into its own fresh interpreter (see __deepcopy__).
        # Each entry: (code, its calls' outcomes, (ok, output, error) of the run) -- the result
        # a replay must reproduce.
        self._code_runs: list[tuple[str, list[CallOutcome], Any]] = []
        self._replay_note: str | None = None  # said once when a copy's replay did not reproduce its runs
        self._replay: list[CallOutcome] | None = None
        self._replay_overrun = False  # a replayed run asked for more calls than were recorded
        self.code_seconds = 0.0  # wall-clock time its code runs took, all together (the sandbox's start-up aside)
        # Seconds all its code runs may take together (the counterfactual replay's budget): a run
        # gets what is left, a later one is not run, and ``code_budget_spent`` says it happened.
        self.code_budget_s: float | None = None
        self.code_budget_spent = False
        self._cursor = {ASSISTANT: 0, USER: 0}
        self.transcripts = {
            ASSISTANT: ChatTranscript(ASSISTANT, assistant_prompt(scenario, self.config.mode, self.config.tool_search), self.image_url),
            USER: ChatTranscript(USER, user_prompt(scenario), self.image_url),
        }
        self._urls: dict[int, str] = {}
        self.url_size = (1024, 1024)  # data URLs show images fitted to this (set_image_resolution)

    # ------------------------------------------------------------------ helpers
    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def set_image_resolution(self, height: int, width: int) -> None:
        """The model's resolution: data URLs show images shrunk to fit ``height x width``."""
        if (height, width) != self.url_size:
            self.url_size = (int(height), int(width))
            self._urls.clear()

    def image_url(self, image_id: int) -> str:
        url = self._urls.get(image_id)
        if url is None:  # keyed images' data URLs are shared process-wide, keyed by content
            url = self._urls[image_id] = self.images.data_url(image_id, *self.url_size)
        return url

    def _append(self, **kwargs: Any) -> Entry:
        entry = Entry(index=len(self.log), round_index=self.round_index if self.round_index >= 0 else None, **kwargs)
        if entry.image_ids and entry.visible(ASSISTANT):
            self.world.services["images"].deliver(entry.image_ids)
        self.log.append(entry)
        if entry.visible_to != (ENVIRONMENT,):
            self.message_count += 1
        for transcript in self.transcripts.values():
            transcript.add(entry)
        return entry

    def transcript_text(self) -> str:
        """The whole log as readable text (what ``render_mode="ansi"`` shows)."""
        from .log import entry_text

        return "\n".join(entry_text(e, ENVIRONMENT) for e in self.log)

    def last_message_to(self, seat: str) -> Entry | None:
        for entry in reversed(self.log):
            if entry.kind == "message" and entry.recipient == seat:
                return entry
        return None

    def new_entries(self, seat: str, *, consume: bool = True) -> list[Entry]:
        """Entries visible to ``seat`` since it last looked."""
        start = self._cursor[seat]
        entries = [e for e in self.log[start:] if e.visible(seat)]
        if consume:
            self._cursor[seat] = len(self.log)
        return entries

    def offered_tools(self, seat: str) -> list[dict[str, Any]]:
        from ..tools.catalog import get_tool, tools_in

        if seat == USER:
            return [t.schema for t in tools_in(self.config.toolbox, USER) if self._user_may_use(t.name)]
        if self.config.mode == "code":
            return []
        if self._offered is None or self._offered[0] != self.active.version:
            self._offered = (self.active.version, [get_tool(n).schema for n in self.active.offered()])
        return list(self._offered[1])

    def tool_allowed(self, name: str) -> bool:
        return self.active.allows(name)

    def _user_may_use(self, name: str) -> bool:
        """UI interaction exists only in UI scenarios; every other user tool always."""
        from ..tools.catalog import get_tool

        return self.scenario.ui or get_tool(name).app != "ui"

    # ------------------------------------------------------------------ acting
    def act(self, seat: str, action: Any) -> ActResult:
        """Apply ``seat``'s action. Raises ``RuntimeError`` only for API misuse (wrong turn, ended)."""
        if self.done:
            raise RuntimeError("the episode is over; reset the environment")
        if seat != self.turn:
            raise RuntimeError(f"it is the {self.turn}'s turn, not the {seat}'s")
        self.step_count += 1
        self.actions.append((seat, action))
        if seat == ASSISTANT:
            error = self._assistant_act(action)
        else:
            self._count_user_move(action)
            error = self._user_act(action)
        if not self.done and self._over_budget():
            self.truncated = True
        return self._rewards(seat, error)

    def _over_budget(self) -> bool:
        cfg = self.config
        return (self.message_count >= self.max_messages
                or (cfg.max_steps is not None and self.step_count >= cfg.max_steps)
                or (cfg.time_limit_s is not None and time.monotonic() - self.started >= cfg.time_limit_s))

    def _rewards(self, seat: str, error: str | None) -> ActResult:
        score = self.scorer.score(self.world)
        delta = score.f1 - self.f1
        self.f1 = score.f1
        components = {"entity_f1": score.f1, "delta_f1": delta, "judge": 0.0}
        reward = self.config.f1_weight * delta
        if self.done and self.verdict is None:
            self.verdict = self.judge.evaluate(self.evidence(score))
            if self.user_gave_up:
                self.verdict = _gave_up_verdict(self.verdict, self.round_index)
            components["judge"] = self.verdict.score
            reward += self.config.judge_weight * self.verdict.score
        self.reward_history.append({"step": self.step_count, "seat": seat, "reward": reward, **components})
        return ActResult(rewards={ASSISTANT: reward, USER: 0.0}, components=components, error=error)

    # ------------------------------------------------------------------ user dynamics
    def note_user_move(self, kind: str, action: Any) -> None:
        """A user policy announces that ``action`` (its next action) is a move of ``kind``."""
        self._pending_move = (kind, action)

    def _count_user_move(self, action: Any) -> None:
        move, self._pending_move = self._pending_move, None
        if move is not None and move[1] == action:
            self.user_moves.append((self.round_index, move[0]))
            self.user_gave_up = self.user_gave_up or move[0] == "give_up"

    def user_dynamics(self) -> dict[str, Any]:
        """Counts of the user's moves so far (see ``docs/users.md``) and the episode's steps."""
        counts: dict[str, int] = {}
        for _, kind in self.user_moves:
            counts[kind] = counts.get(kind, 0) + 1
        here = [kind for r, kind in self.user_moves if r == self.round_index]
        return {
            "steps": self.step_count, "nudges": counts.get("nudge", 0), "redirects": counts.get("redirect", 0),
            "confirmations": counts.get("confirm", 0), "clarifications": counts.get("clarify", 0),
            "ui_answers": counts.get("ui", 0), "gave_up": self.user_gave_up,
            "failed_tries_this_round": sum(1 for k in here if k in ("nudge", "redirect")),
        }

    def _invalid(self, seat: str, error: str, raw: Any = None) -> str:
        """Log what the seat wrote (its own transcript shows its attempt) and the error it caused."""
        self.invalid_actions[seat] += 1
        if raw is not None:
            self._append(sender=seat, recipient=ENVIRONMENT, kind="invalid", content=raw if isinstance(raw, str) else repr(raw),
                         ok=False, visible_to=(seat, ENVIRONMENT))
        self._append(sender=ENVIRONMENT, recipient=seat, kind="error", content=error, ok=False)
        return error

    def _call(self, seat: str, name: str, arguments: Any, call_id: str, via: str) -> CallOutcome:
        available = self.tool_allowed if seat == ASSISTANT else self._user_may_use
        hint = ("call api_docs_search_api_docs with a query describing what you need to make it available"
                if self.config.tool_search else "this scenario offers only the tools listed for it")
        if len(self.calls) >= MAX_EPISODE_CALLS:  # refused and not recorded: the record stays bounded
            problem = f"this episode has made {MAX_EPISODE_CALLS:,} tool calls (the cap); no more tool calls run"
            return CallOutcome(name=shortened(str(name), 80), arguments={"refused": problem}, ok=False,
                               text=f"Error (limit): {problem}", error_kind="tool_error")
        problem = check_arguments(arguments) or check_arguments(name)
        if problem is not None:  # from code: the call is refused and its oversize arguments are not kept
            outcome = CallOutcome(name=shortened(str(name), 80), arguments={"refused": problem}, ok=False,
                                  text=f"Error (invalid_argument): {problem}", error_kind="invalid_argument")
        else:
            outcome = invoke(self.world, name, arguments, seat=seat, is_available=available, unavailable_hint=hint)
            outcome.arguments, size = kept_arguments(outcome.arguments, outcome.ok,
                                                     MAX_KEPT_ARGUMENT_CHARS - self.kept_argument_chars)
            self.kept_argument_chars += size
        self.calls.append(CallRecord(self.step_count, seat, via, outcome, self.round_index))
        if outcome.ok and seat == ASSISTANT:
            self.active.touch(name)
            if outcome.discovery is not None:
                self.active.add(outcome.discovery.names)
        return outcome

    def _refused(self, seat: str, action: Any) -> str | None:
        """Refuse an action over the size cap or with invalid Unicode before any work is done on it
        (the transcript keeps a shortened, scrubbed copy); None when the action may be parsed."""
        if not isinstance(action, str):
            return None
        problem = too_long(action, MAX_ACTION_CHARS, "the action")
        if problem is None:
            bad = bad_unicode(action)
            problem = f"the action is not valid Unicode ({bad}); send UTF-8 text" if bad else None
        return None if problem is None else self._invalid(seat, problem, shortened(action))

    def _refused_parsed(self, seat: str, parsed: Any, action: str) -> str | None:
        """Refuse a parsed reply over its cap or tool calls whose arguments break a cap (nothing runs)."""
        problem = None
        if isinstance(parsed, Message):
            problem = too_long(parsed.text, MAX_REPLY_CHARS, "a reply")
        elif isinstance(parsed, ToolCalls):
            for call in parsed.calls:
                problem = check_arguments(call.arguments) or check_arguments(call.name)
                if problem:
                    problem = f"Invalid tool call {shortened(call.name, 80)!r}: {problem}"
                    break
        return None if problem is None else self._invalid(seat, problem, shortened(action))

    def _assistant_act(self, action: Any) -> str | None:
        refused = self._refused(ASSISTANT, action)
        if refused is not None:
            return refused
        parsed = parse_action(action, self.config.mode)
        if isinstance(parsed, Invalid):
            return self._invalid(ASSISTANT, parsed.error, action)
        refused = self._refused_parsed(ASSISTANT, parsed, action)
        if refused is not None:
            return refused
        if isinstance(parsed, Message):
            self._append(sender=ASSISTANT, recipient=USER, kind="message", content=parsed.text)
            self.turn = USER
            return None
        if isinstance(parsed, Code):
            self._append(sender=ASSISTANT, recipient=ENVIRONMENT, kind="code", content=parsed.text, visible_to=(ASSISTANT, ENVIRONMENT))
            text, ok, image_ids = self._run_code(parsed.code)
            self._append(sender=ENVIRONMENT, recipient=ASSISTANT, kind="code_result", content=text, ok=ok, image_ids=tuple(image_ids))
            return None if ok else text
        assert isinstance(parsed, ToolCalls)
        calls = [
            {"id": c.id or f"call_{self.step_count}_{i}", "name": c.name, "arguments": c.arguments}
            for i, c in enumerate(parsed.calls)
        ]
        self._append(sender=ASSISTANT, recipient=ENVIRONMENT, kind="tool_calls", content=parsed.text,
                     tool_calls=tuple(calls), visible_to=(ASSISTANT, ENVIRONMENT))
        first_error = None
        for call in calls:
            outcome = self._call(ASSISTANT, call["name"], call["arguments"], call["id"], "tool")
            self._append(sender=ENVIRONMENT, recipient=ASSISTANT, kind="tool_result", content=outcome.text,
                         tool_call_id=call["id"], tool_name=call["name"], ok=outcome.ok,
                         image_ids=tuple(i for i in outcome.image_ids if not outcome.deliveries))
            for delivery in outcome.deliveries:
                self._append(sender=ASSISTANT, recipient=USER, kind="notice", content=delivery.text,
                             image_ids=tuple(delivery.image_ids), visible_to=(ASSISTANT, USER))
            if not outcome.ok and first_error is None:
                first_error = outcome.text
        return first_error

    def _user_act(self, action: Any) -> str | None:
        refused = self._refused(USER, action)
        if refused is not None:
            return refused
        parsed = parse_action(action, "tool")
        if isinstance(parsed, Invalid):
            return self._invalid(USER, parsed.error, action)
        refused = self._refused_parsed(USER, parsed, action)
        if refused is not None:
            return refused
        if isinstance(parsed, Code):  # pragma: no cover - parse in tool mode never yields code
            return self._invalid(USER, "the user cannot run code")
        if isinstance(parsed, Message):
            self._deliver_user_message(parsed.text, ())
            return None
        assert isinstance(parsed, ToolCalls)
        for i, c in enumerate(parsed.calls):
            outcome = self._call(USER, c.name, c.arguments, c.id or f"user_call_{self.step_count}_{i}", "tool")
            if not outcome.ok:
                return self._invalid(USER, outcome.text)
            if outcome.ended:
                self.terminated = True
                self._append(sender=USER, recipient=ENVIRONMENT, kind="notice", content="The user ended the conversation.",
                             visible_to=(USER, ASSISTANT, ENVIRONMENT))
                return None
            for delivery in outcome.deliveries:
                self._deliver_user_message(delivery.text, tuple(delivery.image_ids))
                return None
            self._append(sender=ENVIRONMENT, recipient=USER, kind="tool_result", content=outcome.text,
                         tool_name=c.name, ok=True, image_ids=tuple(outcome.image_ids))
        return None

    def _deliver_user_message(self, text: str, image_ids: tuple[int, ...]) -> None:
        rounds = self.scenario.rounds
        nxt = self.round_index + 1
        if nxt < len(rounds):
            target = rounds[nxt]
            same_images = bool(target.image_ids) and tuple(target.image_ids) == tuple(image_ids)
            if text.strip() == target.query.strip() or same_images or rouge_l(target.query, text) >= 0.7:
                if nxt > 0:
                    self.left_round_diffs.append(self.world.diff())
                for change in target.state_changes:
                    self.world.apply_external(change.op, change.table, row=change.row, key=change.key, fields=change.fields)
                self.round_index = nxt
        if 0 <= self.round_index < len(rounds):
            for j, clar in enumerate(rounds[self.round_index].clarifications):
                if text.strip() == clar.answer.strip() or rouge_l(clar.answer, text) >= 0.7:
                    self.clarifications_given.add((self.round_index, j))
        self._append(sender=USER, recipient=ASSISTANT, kind="message", content=text, image_ids=image_ids)
        self.turn = ASSISTANT

    # ------------------------------------------------------------------ code
    def _interpreter_for(self):
        if self._interpreter is None:
            from ..sandbox import Interpreter, Limits

            import zlib

            functions = {name: self._code_function(name) for name in self._code_tool_names()}
            memory = {} if self.config.code_memory_mb is None else {"memory_mb": self.config.code_memory_mb}
            limits = Limits(timeout_s=self.config.code_timeout_s, isolation=self.config.code_isolation,
                            jail=self.config.code_jail, **memory)
            seed = self.seed if self.seed is not None else zlib.crc32(self.scenario.id.encode())
            make = lambda: Interpreter(functions=functions, limits=limits, seed=seed,  # noqa: E731
                                       clock=self.scenario.now, images=self._image_png)
            self._interpreter = make()
            problem = self._replay_code_runs()
            if problem is not None:  # start the copy's sandbox afresh rather than differ silently
                self._interpreter.close()
                self._interpreter = make()
                self._replay_note = (f"[this copy's sandbox was reset: replaying the episode's {len(self._code_runs)} "
                                     f"earlier code run(s) to rebuild its variables {problem}; variables from earlier "
                                     "runs were lost]")
        return self._interpreter

    def _replay_code_runs(self) -> str | None:
        """Rebuild the sandbox variables of a copied episode: rerun its code, each tool call
        answered with the outcome recorded when the code first ran (the world is not touched),
        all runs together within one code step's timeout. None when every run gave its recorded
        result with its recorded calls; else what went differently."""
        end = time.monotonic() + float(self.config.code_timeout_s)
        for number, (code, outcomes, recorded) in enumerate(self._code_runs, 1):
            remaining = end - time.monotonic()
            if remaining <= 0:
                return f"ran out of the step's {float(self.config.code_timeout_s):g} s before run {number}"
            self._replay = list(outcomes)
            self._replay_overrun = False
            try:
                result = self._interpreter.run(code, timeout_s=remaining)
                left, overrun = len(self._replay), self._replay_overrun
            finally:
                self._replay = None
            if overrun or left:
                return f"made a different number of tool calls in run {number} than it did"
            if (result.ok, result.output, result.error) != recorded:
                return f"gave a different result in run {number} (it was cut off by its time limit or depends on timing)"
        return None

    def __deepcopy__(self, memo: dict) -> "Episode":
        """An independent copy that continues identically: world, log, transcripts, tools, RNG-free
        state; the sandbox interpreter is rebuilt on the copy's first code run by replaying this
        episode's code runs (their tool calls answered from the record)."""
        import copy

        new = Episode.__new__(Episode)
        memo[id(self)] = new
        memo[id(self.scenario)] = self.scenario  # immutable configuration: shared
        for name, value in self.__dict__.items():
            if name != "_interpreter":
                setattr(new, name, copy.deepcopy(value, memo))
        new._interpreter = None
        return new

    def _image_png(self, image_id: int) -> bytes:
        """PNG bytes of one of the episode's images (``PIL.Image.open(image_id)`` in code mode)."""
        from ..vision.store import png_bytes

        view = self.world.services["images"]
        if image_id not in view:
            raise ValueError(view.unknown(image_id))
        return png_bytes(view.get(image_id))

    def _code_tool_names(self) -> list[str]:
        from ..tools.catalog import tools_in

        names = [t.name for t in tools_in(self.config.toolbox, ASSISTANT) if t.name != "execute_code"]
        return names

    def _code_function(self, name: str) -> Callable[..., Any]:
        episode = self

        def call_tool(*args: Any, **kwargs: Any) -> Any:
            from ..tools.catalog import get_tool

            if args:
                tool = get_tool(name)
                if len(args) > len(tool.params):
                    raise TypeError(f"{name}() takes at most {len(tool.params)} positional arguments")
                for p, value in zip(tool.params, args):
                    if p.name in kwargs:
                        raise TypeError(f"{name}() got two values for {p.name!r}")
                    kwargs[p.name] = value
            if episode._replay is not None:  # rebuilding a copy's sandbox: answer from the record
                if not episode._replay:  # more calls than recorded: the replay has diverged
                    episode._replay_overrun = True
                    raise ToolCallError("Error (replay): this run made more tool calls than when it first ran")
                recorded = episode._replay.pop(0)
                if not recorded.ok:
                    raise ToolCallError(recorded.text)
                return recorded.result
            if episode._code_calls >= MAX_CODE_CALLS:  # not run, not recorded
                raise ToolCallError(f"Error (limit): this code step has made {MAX_CODE_CALLS} tool calls (the cap "
                                    "per step); no more run in this step")
            episode._code_calls += 1
            outcome_id = f"code_{episode.step_count}_{len(episode.calls)}"
            outcome = episode._call(ASSISTANT, name, kwargs, outcome_id, "code")
            episode._code_runs[-1][1].append(outcome)
            episode._code_images.extend(outcome.image_ids)
            # Calls made from code are tool calls of the trajectory too (evidence, export), but they
            # are the environment's bookkeeping: not shown to a seat, not counted toward the cap.
            call = {"id": outcome_id, "name": name, "arguments": outcome.arguments}
            episode._append(sender=ASSISTANT, recipient=ENVIRONMENT, kind="tool_calls", tool_calls=(call,),
                            visible_to=(ENVIRONMENT,))
            episode._append(sender=ENVIRONMENT, recipient=ASSISTANT, kind="tool_result", content=outcome.text,
                            tool_call_id=outcome_id, tool_name=name, ok=outcome.ok, image_ids=tuple(outcome.image_ids),
                            visible_to=(ENVIRONMENT,))
            for delivery in outcome.deliveries:
                episode._append(sender=ASSISTANT, recipient=USER, kind="notice", content=delivery.text,
                                image_ids=tuple(delivery.image_ids), visible_to=(ASSISTANT, USER))
            if not outcome.ok:
                raise ToolCallError(outcome.text)
            return outcome.result

        call_tool.__name__ = name
        return call_tool

    def _run_code(self, code: str) -> tuple[str, bool, list[int]]:
        from ..sandbox.errors import SandboxInterrupt

        self._code_images: list[int] = []
        self._code_calls = 0
        left = None if self.code_budget_s is None else self.code_budget_s - self.code_seconds
        if left is not None and left <= 0:
            self.code_budget_spent = True
            return "SandboxError: the code was not run (the time budget for code is spent)", False, []
        start = None
        try:
            interpreter = self._interpreter_for()
            calls: list[CallOutcome] = []
            self._code_runs.append((code, calls, None))
            start = time.monotonic()  # the run itself, not the sandbox's start-up
            result = interpreter.run(code, timeout_s=left)
            self._code_runs[-1] = (code, calls, (result.ok, result.output, result.error))
            if left is not None and result.error_kind == "timeout" and left < float(self.config.code_timeout_s):
                self.code_budget_spent = True  # stopped by what was left of the budget, not by its own limit
        except (Exception, SandboxInterrupt) as exc:  # a host-side failure must not end the episode
            return f"SandboxError: the code could not be run ({type(exc).__name__}: {exc})", False, []
        finally:
            self.code_seconds += 0.0 if start is None else time.monotonic() - start
            if self.code_budget_s is not None and self.code_seconds >= self.code_budget_s:
                self.code_budget_spent = True
        text = result.output
        if result.error:
            text = (text + "\n" if text else "") + result.error
        if self._replay_note is not None:
            text, self._replay_note = self._replay_note + ("\n" + text if text else ""), None
        return scrub(text or "(no output)"), result.ok, list(self._code_images)

    def _run_code_tool(self, code: str) -> dict[str, Any]:
        text, ok, image_ids = self._run_code(code)
        return {"ok": ok, "output": text, "image_ids": image_ids}

    def close(self) -> None:
        if self._interpreter is not None:
            self._interpreter.close()
            self._interpreter = None

    # ------------------------------------------------------------------ evaluation
    def entity_score(self) -> EntityScore:
        return self.scorer.score(self.world)

    def evidence(self, score: EntityScore | None = None) -> Evidence:
        """What the judges see: entity score, the full diff (creates, updates, deletes), every
        image id (with a loader for data URLs), tool calls with results, and the whole log."""
        from dataclasses import asdict

        from ..evaluation.grounding import image_facts, scenario_grounds

        score = score or self.entity_score()
        assistant_calls = [c for c in self.calls if c.seat == ASSISTANT]
        return Evidence(
            scenario_id=self.scenario.id,
            entity=score,
            assistant_messages=[e.content for e in self.log if e.sender == ASSISTANT and e.kind in ("message", "notice")],
            facts=list(self.scenario.facts),
            n_rounds=len(self.scenario.rounds),
            rounds_delivered=self.round_index + 1,
            ended_by_user=self.terminated,
            truncated=self.truncated,
            n_tool_calls=len(assistant_calls),
            n_failed_calls=sum(1 for c in assistant_calls if not c.outcome.ok),
            n_invalid_actions=self.invalid_actions[ASSISTANT],
            calls=[c.to_json() for c in self.calls],
            completion_criteria=self.scenario.completion_criteria,
            expected_changes=[asdict(c) for c in self.scenario.expected_changes],
            diff={t: d.to_json() for t, d in self.world.diff().items()},
            conversation=[e.to_json() for e in self.log],
            image_ids=list(range(len(self.images))),
            image_sources=[self.images.source(i) for i in range(len(self.images))],
            metadata=dict(self.scenario.metadata),
            description=self.scenario.description,
            image_url=self.image_url,
            extra_criteria=self._ui_criteria(),
            reports=[list(r.report) for r in self.scenario.rounds],
            action_rounds=action_rounds(self.scenario),
            grounds=scenario_grounds(self.scenario),
            image_facts=image_facts(self.scenario),
            answers=[r.answer for r in self.scenario.rounds],
        )

    def _ui_criteria(self) -> list[Any]:
        return ui_criteria(self) if self.scenario.ui else []


def _gave_up_verdict(verdict: Verdict, round_index: int) -> Verdict:
    """The user gave up on a round: the episode fails whatever the judge found."""
    reason = f"the user gave up in round {round_index + 1} after repeated failed tries"
    return Verdict(False, [*verdict.criteria, Criterion("user_satisfied", False, reason, "user_gave_up")],
                   verdict.judge, dict(verdict.details))


class ToolCallError(Exception):
    """Raised inside agent code when a tool call fails; the message is the tool's error."""


def _scenario_images(scenario: Scenario, image_root: str | None = None, stand_in: bool = False):
    from ..vision.store import ImageStore

    if not scenario.images:
        return ImageStore([], [])
    from .images import load_scenario_images

    loaded = scenario_asset(scenario, "store", lambda: ImageStore(*load_scenario_images(scenario, image_root, stand_in=stand_in)),
                            image_root, stand_in)
    return loaded.fork()
