"""Runtime layer: the guards, safe builtins and module proxies that agent code runs against.

Everything here is built per *generation* of an interpreter namespace by :func:`build_namespace`:
the guards close over one :class:`RunState` (cooperative timeout/recursion/output checks), the set
of classes the agent defined (the only classes whose attributes it may set), a private
``random.Random`` and a cache of module proxies.

Main rules
----------
* ``_getattr_``: names starting with ``_`` are refused (except ``super().__init__``), as are frame /
  code / generator internals, ``mro``, ``ctypes``-style attributes, ``register`` on ABCs; a value
  that is a module is only handed out as a proxy of a whitelisted module; frames, code objects,
  tracebacks and capsules are never handed out; ``str.format``/``format_map`` go through a
  formatter whose field lookups use the same guards; a few size-taking methods
  (``str.ljust``/``center``/``zfill``/``replace``/``join``, ``int.to_bytes``, ...) refuse huge results;
  a missing attribute raises ``AttributeError`` (RestrictedPython's default returns ``None``).
* Modules are imported through a whitelist and handed out as read-only proxies exposing an audited
  set of names (allow-lists for modules with dangerous members). Raw modules never reach agent code.
* ``_write_``: agent code may mutate its own dicts/lists/objects; attribute writes only on instances
  of classes it defined (and those classes); never on modules, functions or classes it was given.
* Resource guards: ``*``, ``**``, ``<<``, ``%`` and format specs refuse results above fixed sizes;
  ``range``/``iter``/``map``/``filter``/``zip``/``enumerate`` and ``itertools`` hand out iterators that
  check the run state on every item, so C-level consumers (``list(...)``, ``sum(...)``) of infinite
  or self-growing iterators stay interruptible.
"""

from __future__ import annotations

import _string  # C helpers behind str.format parsing
import abc
import builtins
import collections as _collections
import copy as _copy_module
import datetime as _datetime_module
import importlib
import math
import operator
import random as _random_module
import re
import string
import sys
import threading
import types
import weakref
from collections.abc import Sequence
from typing import Any, Callable

from RestrictedPython.transformer import INSPECT_ATTRIBUTES

from .arguments import MAX_ARGUMENT_VALUES
from .compiler import READABLE_DUNDERS
from .errors import (
    AttributeViolation,
    ImportViolation,
    ResourceLimitError,
    SandboxIdle,
    SandboxMemoryExceeded,
    SandboxOutputLimit,
    SandboxTimeout,
    SandboxViolation,
    ToolError,
)

# ---------------------------------------------------------------------------------------------
# Size limits (independent of Limits: they only refuse results no tool-using snippet needs)

MAX_SEQ_ITEMS = 10_000_000  # list/tuple repetition
MAX_STR_CHARS = 100_000_000  # str/bytes results of repetition, padding, replace, join
MAX_INT_BITS = 1 << 22  # ~1.26 million decimal digits
MAX_FORMAT_NUMBER = 1_000_000  # widths/precisions in format specs
MATERIAL_RANGE = 10_000_000  # larger ranges become lazily iterated, interruptible ranges
MAX_RANDOM_BITS = MAX_INT_BITS
MAX_DECIMAL_PREC = 100_000
MAX_FACTORIAL = 100_000

_BIG_NUMBER = re.compile(r"\d{7,}")
_PRINTF_SPEC = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?[a-zA-Z%]")
_NUMERIC = frozenset({int, float, bool, complex})
_ident = threading.get_ident


# ---------------------------------------------------------------------------------------------
# Run state shared by the guards of one namespace generation


class RunState:
    """Mutable state the guards consult; ``halt`` is True whenever agent code must stop."""

    __slots__ = ("halt", "reason", "depth", "limit", "thread")

    def __init__(self, recursion_limit: int) -> None:
        self.halt = True
        self.reason = "idle"
        self.depth = 0
        self.limit = recursion_limit
        # the executor thread: agent code reached on any other thread (a finaliser run by the cyclic
        # GC on a host thread, ...) stops at its first checkpoint, even mid-run
        self.thread = 0

    def stop(self) -> None:
        reason = self.reason
        if reason == "timeout":
            raise SandboxTimeout("execution time limit exceeded")
        if reason == "memory":
            raise SandboxMemoryExceeded("memory limit exceeded")
        if reason == "output":
            raise SandboxOutputLimit("output limit exceeded")
        raise SandboxIdle("agent code cannot run outside an active run")


class OutputCollector:
    """The ``print`` target: keeps the first ``cap`` characters and counts the rest.

    Writing more than ``hard`` characters in one run stops the run (``output_limit``).
    """

    __slots__ = ("parts", "kept", "total", "cap", "hard", "state")

    def __init__(self, state: RunState, cap: int) -> None:
        self.state = state
        self.cap = cap
        self.hard = cap + max(10 * cap, 1_000_000)
        self.reset()

    def reset(self) -> None:
        self.parts: list[str] = []
        self.kept = 0
        self.total = 0

    def write(self, text: str) -> None:
        n = len(text)
        room = self.cap - self.kept
        if room > 0:
            piece = text if n <= room else text[:room]
            self.parts.append(piece)
            self.kept += len(piece)
        self.total += n
        if self.total > self.hard:
            self.state.reason = "output"
            self.state.halt = True
            raise SandboxOutputLimit("output limit exceeded")

    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    # RestrictedPython compiles ``print(...)`` to ``_print._call_print(...)`` and ``printed`` to
    # ``_print()``.
    def _call_print(self, *objects: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: Any = False):
        if self.state.halt or _ident() != self.state.thread:
            self.state.stop()
        if file is not None:
            raise SandboxViolation("print(file=...) is not available in the sandbox")
        if sep is None:
            sep = " "
        if end is None:
            end = "\n"
        if type(sep) is not str or type(end) is not str:
            raise TypeError("sep and end must be None or strings")
        self.write(sep.join([str(o) for o in objects]) + end)

    def __call__(self) -> str:
        return self.text()


# ---------------------------------------------------------------------------------------------
# Size guards


def _refuse(what: str, size: int, limit: int) -> None:
    raise ResourceLimitError(f"refused: {what} would be too large ({size:,} > limit {limit:,})")


def _check_repeat(seq: Any, n: int) -> None:
    if n > 1:
        total = len(seq) * n
        if isinstance(seq, (str, bytes, bytearray, _collections.UserString)):
            if total > MAX_STR_CHARS:
                _refuse(f"{type(seq).__name__} * {n}", total, MAX_STR_CHARS)
        elif total > MAX_SEQ_ITEMS:
            _refuse(f"{type(seq).__name__} * {n}", total, MAX_SEQ_ITEMS)


_REPEATABLE = (str, bytes, bytearray, list, tuple, _collections.deque, _collections.UserList, _collections.UserString)


def guarded_mul(a: Any, b: Any) -> Any:
    if type(a) in _NUMERIC and type(b) in _NUMERIC:
        return a * b
    if isinstance(b, int) and isinstance(a, _REPEATABLE):
        _check_repeat(a, b)
    elif isinstance(a, int) and isinstance(b, _REPEATABLE):
        _check_repeat(b, a)
    return a * b


def _check_int_pow(base: Any, exp: Any) -> None:
    if isinstance(exp, int) and isinstance(base, int) and exp > 64 and base not in (0, 1, -1):
        bits = exp * base.bit_length()
        if bits > MAX_INT_BITS:
            _refuse(f"{base.bit_length()}-bit integer ** {exp}", bits, MAX_INT_BITS)
    elif isinstance(exp, int) and abs(exp) > 64:
        numerator = getattr(base, "numerator", None)
        denominator = getattr(base, "denominator", None)
        if isinstance(numerator, int) and isinstance(denominator, int) and not isinstance(base, int):
            bits = abs(exp) * max(abs(numerator).bit_length(), denominator.bit_length())
            if bits > MAX_INT_BITS:
                _refuse(f"fraction ** {exp}", bits, MAX_INT_BITS)


def guarded_pow(a: Any, b: Any, mod: Any = None) -> Any:
    if mod is not None:
        return pow(a, b, mod)
    if type(b) is int and -64 <= b <= 64:
        return a**b
    _check_int_pow(a, b)
    return a**b


def guarded_lshift(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and b > MAX_INT_BITS and a != 0:
        _refuse(f"integer << {b}", b, MAX_INT_BITS)
    return a << b


def _check_spec(spec: Any) -> None:
    if type(spec) is str and len(spec) > 6 and _BIG_NUMBER.search(spec):
        raise ResourceLimitError(f"refused: format spec {spec[:40]!r} asks for a huge width or precision")


def guarded_mod(a: Any, b: Any) -> Any:
    ta = type(a)
    if ta in _NUMERIC:
        return a % b
    if isinstance(a, (str, bytes, bytearray)):
        text = a.decode("latin-1") if not isinstance(a, str) else str.__str__(a)
        star = "*" in text
        if star or _BIG_NUMBER.search(text):
            for match in _PRINTF_SPEC.finditer(text):
                for number in match.groups():
                    if number and number != "*" and int(number) > MAX_FORMAT_NUMBER:
                        raise ResourceLimitError(f"refused: {match.group(0)[:40]!r} asks for a huge width or precision")
            if star:
                values = b if isinstance(b, tuple) else (b,)
                for v in values:
                    if isinstance(v, int) and abs(v) > MAX_FORMAT_NUMBER:
                        raise ResourceLimitError("refused: '*' width or precision is too large")
    return a % b


def guarded_format(value: Any, spec: Any = "") -> str:
    _check_spec(spec)
    return format(value, spec)


def guarded_fstring_field(value: Any, conversion: str, spec: str) -> str:
    if conversion == "r":
        value = repr(value)
    elif conversion == "s":
        value = str(value)
    elif conversion == "a":
        value = ascii(value)
    _check_spec(spec)
    return format(value, spec)


_INPLACE = {
    "+=": operator.iadd,
    "-=": operator.isub,
    "/=": operator.itruediv,
    "//=": operator.ifloordiv,
    "%=": lambda a, b: guarded_mod(a, b),
    "@=": operator.imatmul,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    ">>=": operator.irshift,
}


def guarded_inplace(op: str, x: Any, y: Any) -> Any:
    if op == "*=":
        if not (type(x) in _NUMERIC and type(y) in _NUMERIC):
            if isinstance(y, int) and isinstance(x, _REPEATABLE):
                _check_repeat(x, y)
            elif isinstance(x, int) and isinstance(y, _REPEATABLE):
                _check_repeat(y, x)
        return operator.imul(x, y)
    if op == "**=":
        _check_int_pow(x, y)
        return operator.ipow(x, y)
    if op == "<<=":
        return guarded_lshift(x, y)
    fn = _INPLACE.get(op)
    if fn is None:  # pragma: no cover - the compiler only emits the operators above
        raise SandboxViolation(f"unsupported in-place operator {op!r}")
    return fn(x, y)


# -- size-taking methods of str/bytes/int ------------------------------------------------------


def _base_type(obj: Any) -> type:
    for t in (str, bytes, bytearray, int):
        if isinstance(obj, t):
            return t
    return type(obj)


def _g_expandtabs(self, tabsize=8):
    if isinstance(tabsize, int) and tabsize > 1 and len(self) * tabsize > MAX_STR_CHARS:
        _refuse("expandtabs", len(self) * tabsize, MAX_STR_CHARS)
    return _base_type(self).expandtabs(self, tabsize)


def _g_replace(self, old, new, count=-1):
    base = _base_type(self)
    if isinstance(old, (str, bytes, bytearray)) and isinstance(new, (str, bytes, bytearray)):
        grow = len(new) - len(old)
        if grow > 0:
            hits = (len(self) + 1) if len(old) == 0 else base.count(self, old)
            if isinstance(count, int) and count >= 0:
                hits = min(hits, count)
            size = len(self) + hits * grow
            if size > MAX_STR_CHARS:
                _refuse(f"{base.__name__}.replace", size, MAX_STR_CHARS)
    return base.replace(self, old, new, count)


def _g_join(self, iterable):
    base = _base_type(self)
    items = list(iterable)
    if len(items) > 1:
        size = len(self) * (len(items) - 1)
        for item in items:
            try:
                size += len(item)
            except TypeError:
                break
        if size > MAX_STR_CHARS:
            _refuse(f"{base.__name__}.join", size, MAX_STR_CHARS)
    return base.join(self, items)


def _g_to_bytes(self, length=1, byteorder="big", *, signed=False):
    if isinstance(length, int) and length > MAX_STR_CHARS:
        _refuse("int.to_bytes", length, MAX_STR_CHARS)
    return int.to_bytes(self, length, byteorder, signed=signed)


def _make_pad(name: str) -> Callable[..., Any]:
    def method(self, width, *args):
        if isinstance(width, int) and width > MAX_STR_CHARS:
            _refuse(f"{name}({width:,})", width, MAX_STR_CHARS)
        return getattr(_base_type(self), name)(self, width, *args)

    method.__name__ = name
    return method


_SIZED_METHODS: dict[str, Callable[..., Any]] = {
    "ljust": _make_pad("ljust"),
    "rjust": _make_pad("rjust"),
    "center": _make_pad("center"),
    "zfill": _make_pad("zfill"),
    "expandtabs": _g_expandtabs,
    "replace": _g_replace,
    "join": _g_join,
}
_SIZED_TYPES = (str, bytes, bytearray)


# -- str.format with guarded field lookups ----------------------------------------------------


class _GuardedFormatter(string.Formatter):
    def __init__(self, getattr_: Callable[[Any, str], Any]) -> None:
        self._guarded_getattr = getattr_

    def get_field(self, field_name, args, kwargs):
        first, rest = _string.formatter_field_name_split(field_name)
        obj = self.get_value(first, args, kwargs)
        for is_attr, key in rest:
            obj = self._guarded_getattr(obj, key) if is_attr else obj[key]
        return obj, first

    def format_field(self, value, format_spec):
        _check_spec(format_spec)
        return format(value, format_spec)


def _needs_guarded_format(fmt: str) -> bool:
    for _literal, field, spec, _conv in _string.formatter_parser(fmt):
        if field is not None and ("." in field or "[" in field):
            return True
        if spec:
            if "{" in spec:
                return True
            _check_spec(spec)
    return False


# ---------------------------------------------------------------------------------------------
# Module proxies


class ModuleRule:
    """Which attributes of a whitelisted module agent code may read."""

    def __init__(
        self,
        allow: frozenset[str] | set[str] | None = None,
        deny: frozenset[str] | set[str] = frozenset(),
        submodules: frozenset[str] | set[str] = frozenset(),
        wrap_iterators: bool = False,
    ) -> None:
        self.allow = None if allow is None else frozenset(allow)
        self.deny = frozenset(deny)
        self.submodules = frozenset(submodules)
        self.wrap_iterators = wrap_iterators


MODULE_RULES: dict[str, ModuleRule] = {
    "json": ModuleRule(),
    "math": ModuleRule(),
    "re": ModuleRule(deny={"template", "TEMPLATE", "T"}),  # undocumented, deprecated
    "datetime": ModuleRule(deny={"datetime_CAPI"}),
    "collections": ModuleRule(submodules={"abc"}),
    "collections.abc": ModuleRule(),
    "itertools": ModuleRule(wrap_iterators=True),
    "functools": ModuleRule(
        allow={"reduce", "partial", "partialmethod", "lru_cache", "cache", "cached_property", "cmp_to_key",
               "total_ordering"}
    ),
    "statistics": ModuleRule(
        allow={"mean", "fmean", "geometric_mean", "harmonic_mean", "median", "median_low", "median_high",
               "median_grouped", "mode", "multimode", "pstdev", "pvariance", "stdev", "variance", "quantiles",
               "correlation", "covariance", "linear_regression", "LinearRegression", "NormalDist",
               "StatisticsError"}
    ),
    "random": ModuleRule(
        allow={"random", "uniform", "randint", "randrange", "choice", "choices", "shuffle", "sample", "gauss",
               "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate",
               "betavariate", "paretovariate", "weibullvariate", "triangular", "getrandbits", "randbytes",
               "seed", "getstate", "setstate", "Random"}
    ),
    "string": ModuleRule(
        allow={"ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
               "printable", "punctuation", "whitespace", "capwords", "Template"}
    ),
    "copy": ModuleRule(allow={"copy", "deepcopy", "Error", "error"}),
    "decimal": ModuleRule(deny={"getcontext", "setcontext", "DefaultContext", "BasicContext", "ExtendedContext"}),
    "fractions": ModuleRule(allow={"Fraction"}),
    "heapq": ModuleRule(),
    "bisect": ModuleRule(),
    "operator": ModuleRule(deny={"attrgetter", "methodcaller"}),
    "textwrap": ModuleRule(),
    "unicodedata": ModuleRule(deny={"ucnhash_CAPI"}),
    "calendar": ModuleRule(
        allow={"Calendar", "isleap", "leapdays", "weekday", "monthrange", "monthcalendar", "month_name",
               "month_abbr", "day_name", "day_abbr", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY",
               "SATURDAY", "SUNDAY", "timegm", "IllegalMonthError", "IllegalWeekdayError", "firstweekday"}
    ),
    "typing": ModuleRule(
        allow={"Any", "Optional", "Union", "List", "Dict", "Tuple", "Set", "FrozenSet", "Iterable", "Iterator",
               "Sequence", "Mapping", "MutableMapping", "MutableSequence", "MutableSet", "AbstractSet",
               "Collection", "Container", "Hashable", "Sized", "Callable", "Generator", "TypeVar",
               "NamedTuple", "TypedDict", "Literal", "Final", "ClassVar", "Annotated", "cast", "Counter",
               "DefaultDict", "Deque", "OrderedDict", "ChainMap", "NoReturn", "AnyStr", "Text",
               "TYPE_CHECKING", "get_origin", "get_args", "NewType", "Generic"}
    ),
    "base64": ModuleRule(
        allow={"b64encode", "b64decode", "standard_b64encode", "standard_b64decode", "urlsafe_b64encode",
               "urlsafe_b64decode", "b32encode", "b32decode", "b16encode", "b16decode", "encodebytes",
               "decodebytes", "binascii"} - {"binascii"}
    ),
    "time": ModuleRule(
        allow={"time", "time_ns", "gmtime", "localtime", "strftime", "strptime", "struct_time", "perf_counter",
               "perf_counter_ns", "monotonic", "monotonic_ns", "sleep"}
    ),
    "dataclasses": ModuleRule(
        allow={"dataclass", "field", "fields", "asdict", "astuple", "replace", "is_dataclass",
               "FrozenInstanceError", "MISSING", "KW_ONLY", "InitVar"}
    ),
}

# numpy: only with process isolation (RLIMIT_AS contains its allocations); an allow-list without
# file I/O (load/save/fromfile/tofile/genfromtxt/DataSource/memmap), ctypes, submodules other than
# linalg/random, global state (seterr/set_printoptions/random.seed) or uninitialised memory (empty).
NUMPY_RULES: dict[str, ModuleRule] = {
    "numpy": ModuleRule(
        allow={
            "array", "asarray", "zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "arange",
            "linspace", "logspace", "eye", "identity", "diag", "meshgrid", "mean", "median", "average", "std",
            "var", "sum", "prod", "cumsum", "cumprod", "min", "max", "amin", "amax", "argmin", "argmax",
            "argsort", "sort", "unique", "where", "nonzero", "count_nonzero", "clip", "round", "around", "floor",
            "ceil", "trunc", "rint", "abs", "absolute", "sign", "sqrt", "square", "exp", "log", "log10", "log2",
            "log1p", "expm1", "power", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot",
            "degrees", "radians", "deg2rad", "rad2deg", "dot", "matmul", "inner", "outer", "cross", "tensordot",
            "einsum", "transpose", "reshape", "ravel", "squeeze", "expand_dims", "concatenate", "stack", "vstack",
            "hstack", "column_stack", "split", "array_split", "tile", "repeat", "flip", "roll", "diff", "gradient",
            "convolve", "correlate", "percentile", "quantile", "nanmean", "nanmedian", "nanstd", "nanvar",
            "nansum", "nanmin", "nanmax", "nanpercentile", "histogram", "bincount", "digitize", "searchsorted",
            "isnan", "isinf", "isfinite", "isclose", "allclose", "array_equal", "all", "any", "logical_and",
            "logical_or", "logical_not", "logical_xor", "maximum", "minimum", "add", "subtract", "multiply",
            "divide", "true_divide", "floor_divide", "mod", "remainder", "interp", "polyfit", "polyval", "corrcoef",
            "cov", "trace", "vectorize", "apply_along_axis", "take", "put", "append", "insert", "delete",
            "intersect1d", "union1d", "setdiff1d", "in1d", "isin", "lexsort", "ptp", "nan", "inf", "pi", "e",
            "newaxis", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
            "float32", "float64", "complex64", "complex128", "bool_", "str_", "integer", "floating", "number",
            "generic", "dtype", "ndarray", "datetime64", "timedelta64", "busday_count", "is_busday", "linalg",
            "random", "shape", "size", "ndim", "atleast_1d", "atleast_2d", "cumulative_sum", "argwhere",
            "flatnonzero", "histogram_bin_edges", "real", "imag", "conj", "angle", "sinc", "float_", "int_",
            "errstate", "finfo", "iinfo",
        },
        submodules={"linalg", "random"},
    ),
    "numpy.linalg": ModuleRule(
        allow={"norm", "inv", "pinv", "det", "slogdet", "solve", "lstsq", "eig", "eigh", "eigvals", "eigvalsh",
               "svd", "qr", "cholesky", "matrix_rank", "matrix_power", "cond", "LinAlgError", "multi_dot"}
    ),
    "numpy.random": ModuleRule(allow={"default_rng", "Generator"}),
}

# PIL: only with process isolation, like numpy. Images come from bytes or from the episode's image
# store by id (a tool result such as ``{"image_id": 3}``); decoding is limited to common raster
# formats (no EPS: its plugin runs Ghostscript); nothing is written or shown.
PIL_FORMATS = ("PNG", "JPEG", "GIF", "BMP", "WEBP", "TIFF", "PPM")
PIL_RULES: dict[str, ModuleRule] = {
    "PIL": ModuleRule(allow={"Image", "ImageOps", "ImageStat", "ImageFilter"},
                      submodules={"Image", "ImageOps", "ImageStat", "ImageFilter"}),
    "PIL.Image": ModuleRule(
        allow={"open", "new", "fromarray", "merge", "blend", "composite", "alpha_composite", "Image", "Resampling",
               "Transpose", "NEAREST", "BILINEAR", "BICUBIC", "LANCZOS", "BOX", "HAMMING", "FLIP_LEFT_RIGHT",
               "FLIP_TOP_BOTTOM", "ROTATE_90", "ROTATE_180", "ROTATE_270", "TRANSPOSE", "TRANSVERSE",
               "UnidentifiedImageError", "DecompressionBombError"}
    ),
    "PIL.ImageOps": ModuleRule(
        allow={"autocontrast", "colorize", "contain", "cover", "crop", "expand", "fit", "flip", "grayscale",
               "invert", "mirror", "pad", "posterize", "solarize", "equalize", "exif_transpose", "scale"}
    ),
    "PIL.ImageStat": ModuleRule(allow={"Stat"}),
    "PIL.ImageFilter": ModuleRule(
        allow={"BLUR", "CONTOUR", "DETAIL", "EDGE_ENHANCE", "EDGE_ENHANCE_MORE", "EMBOSS", "FIND_EDGES", "SHARPEN",
               "SMOOTH", "SMOOTH_MORE", "GaussianBlur", "BoxBlur", "UnsharpMask", "MedianFilter", "MinFilter",
               "MaxFilter", "ModeFilter", "RankFilter"}
    ),
}
# Attributes refused on PIL images (file output, display, raw core objects, file handles).
PIL_DENIED_ATTRIBUTES = frozenset({"save", "show", "fp", "im", "getim", "filename", "close", "tobitmap", "toqimage",
                                   "toqpixmap", "encoderinfo", "draft", "verify", "seek", "tell"})
MAX_IMAGE_BYTES = 64 * 1024 * 1024

# Attribute names refused on any object (frame/code/generator internals, ctypes bridges, ...).
DENIED_ATTRIBUTES = frozenset(INSPECT_ATTRIBUTES) | frozenset(
    {"mro", "ctypes", "cffi", "ctypeslib", "prmonth", "pryear", "prweek", "prcal"}
)
# Extra attribute names refused on numpy arrays / scalars (file output, raw memory, pickling).
NUMPY_DENIED_ATTRIBUTES = frozenset(
    {"tofile", "dump", "dumps", "data", "base", "view", "setfield", "getfield", "setflags", "ctypes"}
)

_DANGEROUS_VALUE_TYPES = (types.FrameType, types.CodeType, types.TracebackType, type(_datetime_module.datetime_CAPI))
_MUTABLE_CONTAINERS = (dict, list, set, bytearray)


class ModuleProxy:
    """A read-only view of a whitelisted module; raw modules never reach agent code.

    Attribute lookups go through the policy; names starting with ``_`` (``__name__`` included, which
    keeps ``from x import y`` from falling back to ``sys.modules``) do not exist.
    """

    __slots__ = ("_sandbox_resolver",)

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create module objects")

    def __getattribute__(self, name: str) -> Any:
        if name[:1] == "_":
            raise AttributeError(name)
        return object.__getattribute__(self, "_sandbox_resolver")(name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise SandboxViolation("modules are read-only in the sandbox")

    def __delattr__(self, name: str) -> None:
        raise SandboxViolation("modules are read-only in the sandbox")

    def __repr__(self) -> str:
        resolver = object.__getattribute__(self, "_sandbox_resolver")
        return f"<module {resolver.module_name!r} (sandboxed)>"

    def __dir__(self) -> list[str]:
        return object.__getattribute__(self, "_sandbox_resolver").names()

    def __reduce_ex__(self, protocol):
        raise TypeError("modules cannot be copied or pickled")


class _Resolver:
    def __init__(self, module_name: str, module: types.ModuleType, rule: ModuleRule, ns: "_Namespace") -> None:
        self.module_name = module_name
        self.module = module
        self.rule = rule
        self.ns = ns
        self.cache: dict[str, Any] = {}
        self.overrides = ns.overrides_for(module_name, module)

    def names(self) -> list[str]:
        if self.rule.allow is not None:
            candidates = set(self.rule.allow)
        else:
            candidates = {n for n in dir(self.module) if not n.startswith("_")}
        candidates |= set(self.rule.submodules)
        out = []
        for name in sorted(candidates):
            try:
                self(name)
            except Exception:  # noqa: BLE001 - only list what resolves
                continue
            out.append(name)
        return out

    def __call__(self, name: str) -> Any:
        try:
            return self.cache[name]
        except KeyError:
            pass
        if name[:1] == "_" or name in self.rule.deny:
            raise SandboxViolation(f"'{self.module_name}.{name}' is not available in the sandbox")
        if name in self.rule.submodules:
            value = self.ns.import_module(f"{self.module_name}.{name}")
            self.cache[name] = value
            return value
        if self.rule.allow is not None and name not in self.rule.allow:
            if hasattr(self.module, name):
                raise SandboxViolation(f"'{self.module_name}.{name}' is not available in the sandbox")
            raise AttributeError(f"module '{self.module_name}' has no attribute '{name}'")
        if name in self.overrides:
            value = self.overrides[name]
            self.cache[name] = value
            return value
        value = getattr(self.module, name)  # AttributeError for a missing name
        if isinstance(value, types.ModuleType):
            full = value.__name__
            if full in self.ns.rules:
                value = self.ns.import_module(full)
                self.cache[name] = value
                return value
            raise SandboxViolation(
                f"'{self.module_name}.{name}' is a module ({full}) that is not available in the sandbox"
            )
        if isinstance(value, _DANGEROUS_VALUE_TYPES):
            raise SandboxViolation(f"'{self.module_name}.{name}' is not available in the sandbox")
        if isinstance(value, _MUTABLE_CONTAINERS):
            return _copy_module.deepcopy(value)  # module-level state stays the host's
        if self.rule.wrap_iterators and callable(value):
            value = self.ns.wrap_iterator_factory(value)
        self.cache[name] = value
        return value


def _make_proxy(resolver: _Resolver) -> ModuleProxy:
    proxy = object.__new__(ModuleProxy)
    object.__setattr__(proxy, "_sandbox_resolver", resolver)
    return proxy


# ---------------------------------------------------------------------------------------------
# type() and class creation


class _SafeTypeMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, type)

    def __subclasscheck__(cls, sub: Any) -> bool:
        return isinstance(sub, type) and issubclass(sub, type)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) != 1 or kwargs:
            raise SandboxViolation("type() only supports the one-argument form in the sandbox")
        t = type(args[0])
        if issubclass(t, type):
            return SafeType
        standin = TYPE_STANDINS.get(t)
        if standin is not None:
            return standin
        for base, standin in HIDDEN_CONSTRUCTORS.items():
            if issubclass(t, base):
                return standin
        return t

    def __repr__(cls) -> str:
        return "<class 'type'>"


class SafeType(metaclass=_SafeTypeMeta):
    """``type`` for agent code: ``type(x)`` works; metaclasses (and so 3-argument type) do not."""


def _no_metaclass(value: Any) -> Any:
    """``value`` with every metaclass (the real ``type`` above all) replaced by :class:`SafeType`:
    for what host functions hand back about types (``typing.get_origin/get_args``)."""
    if isinstance(value, type) and issubclass(value, type):
        return SafeType
    if type(value) is tuple:
        return tuple(_no_metaclass(v) for v in value)
    if type(value) is list:
        return [_no_metaclass(v) for v in value]
    return value


# typing's public classes agent code may subclass (the rest of the module is machinery whose
# methods read attributes in host code)
_SUBCLASSABLE_TYPING = frozenset({"Generic", "NamedTuple", "TypedDict"})


def _public_host_class(cls: type) -> bool:
    if issubclass(cls, types.GenericAlias):  # list[int]'s class forwards attribute lookups too
        return False
    module = getattr(cls, "__module__", "") or ""
    name = getattr(cls, "__qualname__", "") or ""
    if name.startswith("_") or any(part.startswith("_") for part in module.split(".")):
        return False
    if module == "typing":
        return name in _SUBCLASSABLE_TYPING
    return True


class TracebackFreeContext:
    """What a ``with`` statement in agent code enters: the manager's own ``__enter__``, and its
    ``__exit__`` called without the traceback (a traceback leads to frames, their globals and the
    real builtins)."""

    __slots__ = ("_manager", "_enter", "_exit")

    def __init__(self, manager: Any) -> None:
        cls = type(manager)
        try:
            enter, exit_ = cls.__enter__, cls.__exit__
        except AttributeError:
            raise TypeError(f"{cls.__name__!r} object does not support the context manager protocol") from None
        self._manager = manager
        self._enter = enter
        self._exit = exit_

    def __enter__(self) -> Any:
        return self._enter(self._manager)

    def __exit__(self, exc_type: Any, exc: Any, _traceback: Any) -> Any:
        return self._exit(self._manager, exc_type, exc, None)


# Classes whose constructor must not be reachable (``type(x)`` returns the stand-in instead).
TYPE_STANDINS: dict[type, type] = {}
# The same for every subclass of a base (PIL's per-format image classes open file paths).
HIDDEN_CONSTRUCTORS: dict[type, type] = {}


def _standin_class(real: type, message: str) -> type:
    """A class that passes ``isinstance``/``issubclass`` checks for ``real`` but cannot be called."""

    class _StandinMeta(type):
        def __instancecheck__(cls, obj: Any) -> bool:
            return isinstance(obj, real)

        def __subclasscheck__(cls, sub: Any) -> bool:
            return isinstance(sub, type) and issubclass(sub, real)

        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            raise SandboxViolation(message)

        def __repr__(cls) -> str:
            return repr(real)

    standin = _StandinMeta(real.__name__, (), {})
    INTERNAL_TYPES.add(standin)
    INTERNAL_TYPES.add(_StandinMeta)
    TYPE_STANDINS[real] = standin
    return standin


_ALLOWED_CLASS_DUNDERS = frozenset(
    {"__module__", "__qualname__", "__classcell__", "__annotations__", "__doc__", "__orig_bases__",
     "__firstlineno__", "__static_attributes__",
     "__init__", "__contains__", "__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"}
)
INTERNAL_TYPES: set[type] = {ModuleProxy, SafeType, _SafeTypeMeta, OutputCollector, RunState, TracebackFreeContext}
# type(super()) must not hand out the real ``super`` (it would accept classes not defined in the
# sandbox and re-initialise host objects).
_standin_class(super, "use super() or super(Class, self) inside a class defined in the sandbox")


# ---------------------------------------------------------------------------------------------
# Interruptible iteration helpers


class LazyRange(Sequence):
    """A range too large to hand to C consumers directly: iterating it checks the run state."""

    __slots__ = ("_r", "_state")

    def __init__(self, r: range, state: RunState) -> None:
        self._r = r
        self._state = state

    def __iter__(self):
        state = self._state
        for i in self._r:
            if state.halt or _ident() != state.thread:
                state.stop()
            yield i

    def __reversed__(self):
        return iter(LazyRange(self._r[::-1], self._state))

    def __len__(self) -> int:
        return len(self._r)

    def __getitem__(self, index):
        value = self._r[index]
        if isinstance(value, range):
            return value if len(value) <= MATERIAL_RANGE else LazyRange(value, self._state)
        return value

    def __contains__(self, value) -> bool:
        return value in self._r

    def __eq__(self, other) -> bool:
        if isinstance(other, LazyRange):
            return self._r == other._r
        return self._r == other

    def __hash__(self) -> int:
        return hash(self._r)

    def __repr__(self) -> str:
        return repr(self._r)

    def count(self, value) -> int:
        return self._r.count(value)

    def index(self, value) -> int:
        return self._r.index(value)

    @property
    def start(self):
        return self._r.start

    @property
    def stop(self):
        return self._r.stop

    @property
    def step(self):
        return self._r.step


INTERNAL_TYPES.add(LazyRange)
TYPE_STANDINS[LazyRange] = range  # type(range(10**12)) is range


# ---------------------------------------------------------------------------------------------
# Data crossing the tool boundary


class TooManyValues(ValueError):
    """Tool arguments with more values than :data:`~.arguments.MAX_ARGUMENT_VALUES`."""


def plain_argument(value: Any, depth: int = 0, budget: list[int] | None = None) -> Any:
    """A JSON-like copy of an argument the agent passes to a provided function.

    dict (str keys), list/tuple (-> list), str, int, float, bool, None; anything else is refused,
    and so is a value holding more than MAX_ARGUMENT_VALUES values (:class:`TooManyValues`,
    raised before more is copied; ``budget`` is the count left, shared down the nesting).
    """
    if budget is None:
        budget = [MAX_ARGUMENT_VALUES]
    budget[0] -= 1
    if budget[0] < 0:
        raise TooManyValues(f"the arguments hold more than {MAX_ARGUMENT_VALUES:,} values (the cap); send fewer")
    if depth > 100:
        raise ValueError("tool arguments are nested too deeply")
    if value is None or value is True or value is False:
        return value
    t = type(value)
    if t is str or t is int or t is float:
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, dict):
        out = {}
        for k, v in list(dict.items(value)):
            if not isinstance(k, str):
                raise TypeError(f"tool arguments must be JSON-like: dict keys must be strings, not {type(k).__name__}")
            out[str.__str__(k)] = plain_argument(v, depth + 1, budget)
        return out
    if isinstance(value, (list, tuple)):
        if len(value) > budget[0]:  # refused before a copy of a long list is made
            raise TooManyValues(f"the arguments hold more than {MAX_ARGUMENT_VALUES:,} values (the cap); send fewer")
        items = list.copy(value) if isinstance(value, list) else tuple.__iter__(value)
        return [plain_argument(v, depth + 1, budget) for v in items]
    raise TypeError(
        f"tool arguments must be JSON-like (dict/list/str/int/float/bool/None), not {type(value).__name__}"
    )


def plain_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments as a dict of exact ``str`` keys and plain values (keys included: a ``str``
    subclass key with a hostile ``__hash__``/``__eq__`` must never reach host code)."""
    return plain_argument(kwargs)


def plain_call(args: Any, kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Plain copies of a call's positional and keyword arguments, with one value budget for both."""
    budget = [MAX_ARGUMENT_VALUES + 1]  # the host counts the arguments' mapping, not a list of positionals
    return plain_argument(list(args), 0, budget), plain_argument(kwargs, 0, budget)


_PLAIN_SCALARS = frozenset({type(None), bool, int, float, str, bytes})


def plain_result(value: Any, depth: int = 0) -> Any:
    """A tool result as plain data for another process (scalars, bytes, list, tuple, str-keyed dict);
    host objects never cross. (Scalar leaves are copied without a call: results are mostly rows.)"""
    t = type(value)
    if t in _PLAIN_SCALARS:
        return value
    if depth > 200:
        raise TypeError("the result is nested too deeply")
    scalars = _PLAIN_SCALARS
    if t is list or t is tuple:
        items = [v if type(v) in scalars else plain_result(v, depth + 1) for v in value]
        return items if t is list else tuple(items)
    if t is dict:
        out = {}
        for k, v in value.items():
            if type(k) not in scalars:
                raise TypeError(f"result dict keys must be plain scalars, not {type(k).__name__}")
            out[k] = v if type(v) in scalars else plain_result(v, depth + 1)
        return out
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return (str if isinstance(value, str) else int if isinstance(value, int) else float)(value)
    raise TypeError(f"results must be plain data (dict/list/tuple/str/bytes/int/float/bool/None), not {t.__name__}")


def scalar_args(exc: BaseException) -> tuple[Any, ...]:
    args = getattr(exc, "args", ())
    if isinstance(args, tuple) and all(a is None or type(a) in (str, int, float, bool) for a in args):
        return args
    return (str(exc),)


# ---------------------------------------------------------------------------------------------
# The namespace of one generation


class _Namespace:
    """Builds and owns the guards, builtins and module proxies of one namespace generation."""

    def __init__(
        self,
        state: RunState,
        collector: OutputCollector,
        tools: dict[str, Callable[..., Any]],
        *,
        allow_numpy: bool,
        seed: int | None,
        clock: Any = None,
        image_loader: Callable[[int], bytes] | None = None,
    ) -> None:
        self.state = state
        self.clock = Clock(clock, state) if clock is not None else None
        self.collector = collector
        self.agent_classes: weakref.WeakSet[type] = weakref.WeakSet()
        self.rules = dict(MODULE_RULES)
        if allow_numpy:
            self.rules.update(NUMPY_RULES)
            self.rules.update(PIL_RULES)
        self.image_loader = image_loader
        self.pil_image_type: type | None = None
        self.allow_numpy = allow_numpy
        self.proxies: dict[str, ModuleProxy] = {}
        self.random = _make_random_class()(seed)
        self.numpy_types: tuple[type, ...] = ()
        self.builtins = self._build_builtins(tools)
        self.globals: dict[str, Any] = {"__builtins__": self.builtins, "__name__": "__agent__"}

    # -- modules -------------------------------------------------------------------------------
    def import_module(self, full_name: str) -> ModuleProxy:
        proxy = self.proxies.get(full_name)
        if proxy is not None:
            return proxy
        rule = self.rules.get(full_name)
        if rule is None:
            raise ImportViolation(f"import of '{full_name}' is not allowed in the sandbox")
        if full_name == "numpy" or full_name.startswith("numpy."):
            _prepare_numpy_import()
        module = importlib.import_module(full_name)
        if full_name == "PIL.Image":
            self.pil_image_type = module.Image
        if full_name == "numpy":
            self.numpy_types = (module.ndarray, module.generic, module.dtype)
        proxy = _make_proxy(_Resolver(full_name, module, rule, self))
        self.proxies[full_name] = proxy
        return proxy

    def guarded_import(self, name, globals=None, locals=None, fromlist=(), level=0):
        if type(fromlist) is list and level == 0 and type(name) is str and all(f == "__doc__" for f in fromlist):
            # C code calling PyImport_Import (e.g. datetime.strftime importing ``time``) resolves
            # ``__import__`` through the builtins of the *current frame*, i.e. ours. Only that API
            # passes a *list* fromlist (compiled import statements pass None or a tuple); the
            # module goes back to the C caller, never to agent code.
            return importlib.import_module(name)
        if level != 0:
            raise ImportViolation("relative imports are not allowed in the sandbox")
        if type(name) is not str:
            raise ImportViolation("module names must be strings")
        if name not in self.rules:
            top = name.split(".")[0]
            if top in ("numpy", "PIL") and not self.allow_numpy:
                raise ImportViolation(
                    f"{top} is only available when the sandbox runs in a worker process (Limits(isolation='process'))"
                )
            raise ImportViolation(f"import of '{name}' is not allowed in the sandbox")
        proxy = self.import_module(name)
        if fromlist:
            return proxy
        top = name.split(".")[0]
        return self.import_module(top)

    def overrides_for(self, module_name: str, module: types.ModuleType) -> dict[str, Any]:
        if module_name == "random":
            inst = self.random
            out = {n: getattr(inst, n) for n in MODULE_RULES["random"].allow if n != "Random"}
            out["Random"] = type(inst)
            return out
        if module_name == "math":
            return {"factorial": _guarded_factorial, "comb": _guarded_comb(math.comb), "perm": _guarded_comb(math.perm)}
        if module_name == "operator":
            return {
                "mul": guarded_mul, "__mul__": guarded_mul, "imul": lambda a, b: guarded_inplace("*=", a, b),
                "pow": lambda a, b: guarded_pow(a, b), "ipow": lambda a, b: guarded_inplace("**=", a, b),
                "lshift": guarded_lshift, "ilshift": lambda a, b: guarded_inplace("<<=", a, b),
                "mod": guarded_mod, "imod": lambda a, b: guarded_inplace("%=", a, b),
            }
        if module_name == "functools":
            return {"total_ordering": self._agent_class_decorator(module.total_ordering, "functools.total_ordering")}
        if module_name == "dataclasses":
            out = {"dataclass": self._dataclass_decorator(module.dataclass)}
            for name in ("replace", "asdict", "astuple", "fields"):
                out[name] = self._agent_instance_function(getattr(module, name), f"dataclasses.{name}")
            return out
        if module_name == "typing":
            return {"get_origin": lambda tp: _no_metaclass(module.get_origin(tp)),
                    "get_args": lambda tp: _no_metaclass(module.get_args(tp))}
        if module_name == "numpy":
            standin = TYPE_STANDINS.get(module.ndarray) or _standin_class(
                module.ndarray, "numpy.ndarray() returns uninitialised memory; use numpy.zeros or numpy.array"
            )
            return {"ndarray": standin}
        if module_name == "decimal":
            return {"localcontext": _guarded_localcontext, "Context": _guarded_decimal_context()}
        if module_name == "time":
            return (self.clock or Clock(None, self.state)).time_module()
        if module_name == "PIL.Image":
            standin = TYPE_STANDINS.get(module.Image) or _standin_class(
                module.Image, "create images with PIL.Image.new, PIL.Image.open or PIL.Image.fromarray"
            )
            HIDDEN_CONSTRUCTORS[module.Image] = standin
            return {"open": self._pil_open(module), "Image": standin}
        if module_name == "base64":
            return {name: _bounded_codec(getattr(module, name)) for name in MODULE_RULES["base64"].allow}
        return {}

    def _pil_open(self, module: types.ModuleType) -> Callable[..., Any]:
        import io

        loader = self.image_loader

        def open_image(source, mode="r"):
            """PIL.Image.open for bytes, or for an image of the episode: an id or a tool result
            with an ``image_id``."""
            if mode != "r":
                raise ValueError("images can only be opened for reading")
            if isinstance(source, dict) and "image_id" in source:
                source = source["image_id"]
            if isinstance(source, int) and not isinstance(source, bool):
                if loader is None:
                    raise ValueError("this sandbox has no image store: pass image bytes")
                source = loader(source)
            if not isinstance(source, (bytes, bytearray)):
                raise TypeError("PIL.Image.open takes image bytes, an image id, or a tool result with an image_id")
            if len(source) > MAX_IMAGE_BYTES:
                _refuse(f"an image of {len(source):,} bytes", len(source), MAX_IMAGE_BYTES)
            image = module.open(io.BytesIO(bytes(source)), formats=PIL_FORMATS)
            image.load()
            return image

        open_image.__name__ = open_image.__qualname__ = "open"
        return open_image

    def _agent_class_decorator(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        agent_classes = self.agent_classes

        def decorator(cls):
            if not (isinstance(cls, type) and cls in agent_classes):
                raise SandboxViolation(f"{label} can only be applied to classes defined in the sandbox")
            return fn(cls)

        return decorator

    def _agent_instance_function(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        """``fn(obj, ...)`` only for a dataclass instance (or class) built in the sandbox from
        sandbox and builtin classes alone: these functions read its attributes in host code."""
        agent_classes = self.agent_classes

        def checked(obj, *args, **kwargs):
            cls = obj if isinstance(obj, type) else type(obj)
            if cls not in agent_classes or not all(
                    c in agent_classes or c.__module__ == "builtins" for c in cls.__mro__):
                raise SandboxViolation(f"{label} only works on dataclasses defined in the sandbox")
            return fn(obj, *args, **kwargs)

        return checked

    def _dataclass_decorator(self, dataclass: Callable[..., Any]) -> Callable[..., Any]:
        agent_classes = self.agent_classes

        def safe_dataclass(cls=None, /, **kwargs):
            def wrap(c):
                if not (isinstance(c, type) and c in agent_classes):
                    raise SandboxViolation("dataclass can only be applied to classes defined in the sandbox")
                new = dataclass(c, **kwargs)
                agent_classes.add(new)
                return new

            if cls is None:
                return wrap
            return wrap(cls)

        return safe_dataclass

    def wrap_iterator_factory(self, factory: Callable[..., Any]) -> Callable[..., Any]:
        ticking = self.ticking

        def wrapped(*args, **kwargs):
            result = factory(*args, **kwargs)
            if isinstance(result, tuple):  # itertools.tee
                return tuple(ticking(r) for r in result)
            return ticking(result)

        wrapped.__name__ = getattr(factory, "__name__", "iterator")
        wrapped.__qualname__ = wrapped.__name__
        from_iterable = getattr(factory, "from_iterable", None)
        if from_iterable is not None:
            wrapped.from_iterable = lambda iterable: ticking(from_iterable(iterable))
        return wrapped

    # -- builtins ------------------------------------------------------------------------------
    def _build_builtins(self, tools: dict[str, Callable[..., Any]]) -> dict[str, Any]:
        state = self.state
        agent_classes = self.agent_classes
        ns = self

        def ticking(iterator):
            it = iter(iterator)
            for item in it:
                if state.halt or _ident() != state.thread:
                    state.stop()
                yield item

        ticking.__name__ = ticking.__qualname__ = "iterator"
        self.ticking = ticking

        def _tick_():
            if state.halt or _ident() != state.thread:
                state.stop()

        def _enter_():
            if state.halt or _ident() != state.thread:
                state.stop()
            depth = state.depth + 1
            if depth > state.limit:
                raise RecursionError(
                    f"maximum recursion depth exceeded (the sandbox allows {state.limit} nested calls)"
                )
            state.depth = depth

        def _exit_():
            state.depth -= 1

        def _getiter_(obj):
            if state.halt or _ident() != state.thread:
                state.stop()
            return obj

        def _unpack_sequence_(it, spec, _getiter_):
            return it

        def _iter_unpack_sequence_(it, spec, _getiter_):
            if state.halt or _ident() != state.thread:
                state.stop()
            return it

        def _getitem_(obj, key):
            return obj[key]

        def _apply_(f, *args, **kwargs):
            return f(*args, **kwargs)

        collector = self.collector

        def _print_(_getattr_=None):
            return collector

        guarded_formatter = _GuardedFormatter(lambda obj, name: _getattr_(obj, name))

        def safe_format(fmt, *args, **kwargs):
            if type(fmt) is not str:
                fmt = str.__str__(fmt)
            if _needs_guarded_format(fmt):
                return guarded_formatter.vformat(fmt, args, kwargs)
            return fmt.format(*args, **kwargs)

        def safe_format_map(fmt, mapping):
            if type(fmt) is not str:
                fmt = str.__str__(fmt)
            if _needs_guarded_format(fmt):
                return guarded_formatter.vformat(fmt, (), mapping)
            return fmt.format_map(mapping)

        numpy_denied = NUMPY_DENIED_ATTRIBUTES

        def _getattr_(obj, name, *default):
            if type(name) is not str:
                raise TypeError("attribute name must be a string")
            if name[:1] == "_":
                if name == "__init__" and type(obj) is super:
                    return obj.__init__
                if name in READABLE_DUNDERS:
                    value = getattr(obj, name)
                    if value is None or type(value) is str:
                        return value
                raise AttributeViolation(f'"{name}" is an invalid attribute name because it starts with "_"')
            if name in DENIED_ATTRIBUTES:
                raise AttributeViolation(f'access to "{name}" is not allowed in the sandbox')
            t = type(obj)
            if t is ModuleProxy:
                return getattr(obj, name)
            if isinstance(obj, types.ModuleType):  # never handed out; refuse defensively
                if obj.__name__ in ns.rules:
                    return getattr(ns.import_module(obj.__name__), name)
                raise AttributeViolation("this module is not available in the sandbox")
            if name == "obj" and isinstance(obj, AttributeError):
                raise AttributeViolation('"obj" of AttributeError is not available in the sandbox')
            if name in _GUARDED_NAMES:
                special = _special_attribute(obj, name, safe_format, safe_format_map)
                if special is not None:
                    return special
            if name in _CLOCK_METHODS and ns.clock is not None:
                cls = obj if isinstance(obj, type) else t
                if issubclass(cls, _datetime_module.date):
                    return ns.clock.method(cls, name)
            if name == "register" and (isinstance(obj, abc.ABCMeta) or t.__module__ == "typing"):
                raise AttributeViolation("ABC registration is not allowed in the sandbox")
            if ns.numpy_types and name in numpy_denied and isinstance(obj, ns.numpy_types):
                raise AttributeViolation(f'numpy attribute "{name}" is not available in the sandbox')
            if (ns.pil_image_type is not None and name in PIL_DENIED_ATTRIBUTES
                    and (isinstance(obj, ns.pil_image_type)
                         or (isinstance(obj, type) and issubclass(obj, ns.pil_image_type)))):
                raise AttributeViolation(f'PIL image attribute "{name}" is not available in the sandbox')
            if default:
                value = getattr(obj, name, default[0])
            else:
                value = getattr(obj, name)
            if isinstance(value, (types.ModuleType, ModuleProxy)):
                if isinstance(value, ModuleProxy):
                    return value
                if value.__name__ in ns.rules:
                    return ns.import_module(value.__name__)
                raise AttributeViolation(f'"{name}" is a module that is not available in the sandbox')
            if isinstance(value, _DANGEROUS_VALUE_TYPES):
                raise AttributeViolation(f'access to "{name}" is not allowed in the sandbox')
            if type(value) in _MUTABLE_CONTAINERS:
                owner = obj if isinstance(obj, type) else t
                if owner not in agent_classes and (owner is obj or _class_level(t, name, value)):
                    # host class state, reached through the class or one of its instances
                    return _copy_module.deepcopy(value)
            return value

        def _write_(obj):
            t = type(obj)
            if t is dict or t is list:
                return obj
            if t in agent_classes:
                return obj
            if isinstance(obj, type):
                if obj in agent_classes:
                    return obj
                raise SandboxViolation(f"cannot modify class {obj.__name__!r}: it is not defined in the sandbox")
            if isinstance(obj, (types.ModuleType, ModuleProxy)):
                raise SandboxViolation("modules are read-only in the sandbox")
            if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                                types.BuiltinMethodType)):
                raise SandboxViolation(f"cannot modify {t.__name__} objects in the sandbox")
            if t in INTERNAL_TYPES:
                raise SandboxViolation("cannot modify sandbox objects")
            return _ItemWriter(obj)

        def _inplacevar_(op, x, y):
            return guarded_inplace(op, x, y)

        def metaclass(name, bases, namespace, **kwargs):
            for base in bases:
                if not isinstance(base, type):
                    raise TypeError(f"class bases must be classes, not {type(base).__name__}")
                if issubclass(base, type) or base in INTERNAL_TYPES or base is SafeType:
                    raise SandboxViolation(f"cannot subclass {base.__name__!r} in the sandbox")
                if issubclass(base, BaseException) and not issubclass(base, Exception):
                    raise SandboxViolation(f"cannot subclass {base.__name__!r} in the sandbox")
                if base not in agent_classes and not _public_host_class(base):
                    # a private host class (typing._GenericAlias forwards attribute lookups to its
                    # origin in host code, unguarded)
                    raise SandboxViolation(f"cannot subclass {base.__qualname__!r} in the sandbox")
            for key in namespace:
                if type(key) is not str or (key.startswith("__") and key not in _ALLOWED_CLASS_DUNDERS):
                    raise SandboxViolation(f"class attribute {key!r} is not allowed in the sandbox")
            cls = type(name, bases, namespace, **kwargs)
            agent_classes.add(cls)
            return cls

        def safe_super(*args):
            if not args:
                frame = sys._getframe(1)
                code = frame.f_code
                if not code.co_argcount or "__class__" not in code.co_freevars:
                    raise RuntimeError("super(): no arguments")
                local_vars = frame.f_locals
                cls = local_vars.get("__class__")
                inst = local_vars.get(code.co_varnames[0])
                del frame, local_vars
            elif len(args) == 2:
                cls, inst = args
            else:
                raise SandboxViolation("super() takes zero or two arguments in the sandbox")
            if not (isinstance(cls, type) and cls in agent_classes):
                raise SandboxViolation("super() only works inside classes defined in the sandbox")
            return super(cls, inst)

        def safe_range(*args):
            r = range(*args)
            try:
                small = len(r) <= MATERIAL_RANGE
            except OverflowError:
                small = False
            return r if small else LazyRange(r, state)

        def safe_iter(obj, *sentinel):
            if sentinel:
                return ticking(iter(obj, *sentinel))
            return ticking(obj)

        def safe_map(fn, *iterables):
            return ticking(map(fn, *iterables))

        def safe_filter(fn, iterable):
            return ticking(filter(fn, iterable))

        def safe_zip(*iterables, strict=False):
            return ticking(zip(*iterables, strict=strict))

        def safe_enumerate(iterable, start=0):
            return ticking(enumerate(iterable, start))

        def safe_bytes(*args, **kwargs):
            if args and isinstance(args[0], int) and args[0] > MAX_STR_CHARS:
                _refuse(f"bytes({args[0]:,})", args[0], MAX_STR_CHARS)
            return bytes(*args, **kwargs)

        def safe_bytearray(*args, **kwargs):
            if args and isinstance(args[0], int) and args[0] > MAX_STR_CHARS:
                _refuse(f"bytearray({args[0]:,})", args[0], MAX_STR_CHARS)
            return bytearray(*args, **kwargs)

        def safe_hasattr(obj, name):
            try:
                _getattr_(obj, name)
            except AttributeError:
                return False
            except SandboxViolation:
                return False
            return True

        def safe_dir(*args):
            if not args:
                raise SandboxViolation("dir() without an argument is not available in the sandbox")
            obj = args[0]
            if type(obj) is ModuleProxy:
                return object.__getattribute__(obj, "_sandbox_resolver").names()
            return [n for n in dir(obj) if not n.startswith("_")]

        def unavailable(label: str) -> Callable[..., Any]:
            def refuse(*args, **kwargs):
                raise SandboxViolation(f"{label}() is not available in the sandbox")

            refuse.__name__ = label
            return refuse

        out: dict[str, Any] = {}
        for name in SAFE_BUILTIN_NAMES:
            out[name] = getattr(builtins, name)
        for name, value in vars(builtins).items():
            if isinstance(value, type) and issubclass(value, Exception) and not name.startswith("_"):
                out[name] = value
        out.update(
            {
                "range": safe_range,
                "pow": guarded_pow,
                "format": guarded_format,
                "iter": safe_iter,
                "map": safe_map,
                "filter": safe_filter,
                "zip": safe_zip,
                "enumerate": safe_enumerate,
                "bytes": safe_bytes,
                "bytearray": safe_bytearray,
                "hasattr": safe_hasattr,
                "dir": safe_dir,
                "type": SafeType,
                "super": safe_super,
                "ToolError": ToolError,
                "SandboxViolation": SandboxViolation,
                "__build_class__": builtins.__build_class__,
                "__metaclass__": metaclass,
                "__import__": self.guarded_import,
                "__name__": "__agent__",
                "_getattr_": _getattr_,
                "_getitem_": _getitem_,
                "_getiter_": _getiter_,
                "_write_": _write_,
                "_inplacevar_": _inplacevar_,
                "_apply_": _apply_,
                "_print_": _print_,
                "_unpack_sequence_": _unpack_sequence_,
                "_iter_unpack_sequence_": _iter_unpack_sequence_,
                "_tick_": _tick_,
                "_enter_": _enter_,
                "_exit_": _exit_,
                "_mul_": guarded_mul,
                "_pow_": guarded_pow,
                "_lshift_": guarded_lshift,
                "_mod_": guarded_mod,
                "_fmt_": guarded_fstring_field,
                "_with_": TracebackFreeContext,
            }
        )
        for name in UNAVAILABLE_BUILTINS:
            out[name] = unavailable(name)
        for name in ("BaseException", "SystemExit", "KeyboardInterrupt", "GeneratorExit", "BaseExceptionGroup"):
            out.pop(name, None)
        for name, fn in tools.items():
            out[name] = fn
        return out


SAFE_BUILTIN_NAMES = (
    "abs", "all", "any", "ascii", "bin", "bool", "callable", "chr", "complex", "dict", "divmod", "float",
    "frozenset", "hash", "hex", "int", "isinstance", "issubclass", "len", "list", "max", "min", "next",
    "object", "oct", "ord", "repr", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple",
    "property", "staticmethod", "classmethod", "None", "True", "False", "Ellipsis", "NotImplemented",
)
UNAVAILABLE_BUILTINS = (
    "open", "eval", "exec", "compile", "globals", "locals", "vars", "getattr", "setattr", "delattr", "input",
    "breakpoint", "help", "exit", "quit", "memoryview", "copyright", "credits", "license", "aiter", "anext",
    "id",  # addresses differ between runs: outputs must be reproducible (use ``is``)
)

_GUARDED_NAMES = frozenset({"format", "format_map", "to_bytes", *_SIZED_METHODS})


def _class_level(cls: type, name: str, value: Any) -> bool:
    for klass in cls.__mro__:
        found = klass.__dict__.get(name, _MISSING)
        if found is not _MISSING:
            return found is value
    return False


_MISSING = object()


def _special_attribute(obj: Any, name: str, safe_format, safe_format_map) -> Any:
    """Guarded replacements for a few str/bytes/int methods (bound or unbound), else None."""
    if isinstance(obj, _collections.UserString) and name in ("format", "format_map"):
        # UserString.format would call the real str.format on its data in host code
        data = str.__str__(obj.data) if isinstance(obj.data, str) else str(obj.data)
        if name == "format":
            return lambda *args, **kwargs: safe_format(data, *args, **kwargs)
        return lambda mapping: safe_format_map(data, mapping)
    if obj is _collections.UserString or (isinstance(obj, type) and issubclass(obj, _collections.UserString)):
        if name == "format":
            return lambda self, *args, **kwargs: safe_format(str(self), *args, **kwargs)
        if name == "format_map":
            return lambda self, mapping: safe_format_map(str(self), mapping)
    if isinstance(obj, str):
        if name == "format":
            return lambda *args, **kwargs: safe_format(obj, *args, **kwargs)
        if name == "format_map":
            return lambda mapping: safe_format_map(obj, mapping)
    if obj is str or (isinstance(obj, type) and issubclass(obj, str)):
        if name == "format":
            return safe_format
        if name == "format_map":
            return safe_format_map
    if name in _SIZED_METHODS:
        fn = _SIZED_METHODS[name]
        if isinstance(obj, _SIZED_TYPES):
            return lambda *args, **kwargs: fn(obj, *args, **kwargs)
        if isinstance(obj, type) and issubclass(obj, _SIZED_TYPES):
            return fn
    if name == "to_bytes":
        if isinstance(obj, int):
            return lambda *args, **kwargs: _g_to_bytes(obj, *args, **kwargs)
        if isinstance(obj, type) and issubclass(obj, int):
            return _g_to_bytes
    return None


class _ItemWriter:
    """What ``_write_`` returns for objects agent code may index-assign but not set attributes on."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any) -> None:
        object.__setattr__(self, "_obj", obj)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._obj[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._obj[key]

    def __setattr__(self, name: str, value: Any) -> None:
        raise SandboxViolation(
            f"cannot set attributes on {type(self._obj).__name__} objects in the sandbox "
            "(only on instances of classes defined in the sandbox)"
        )

    def __delattr__(self, name: str) -> None:
        raise SandboxViolation(f"cannot delete attributes of {type(self._obj).__name__} objects in the sandbox")


INTERNAL_TYPES.add(_ItemWriter)


def _guarded_factorial(n):
    if isinstance(n, int) and n > MAX_FACTORIAL:
        _refuse(f"factorial({n:,})", n, MAX_FACTORIAL)
    return math.factorial(n)


def _guarded_comb(fn: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(n, k=None):
        if isinstance(n, int) and n > 1:
            kk = n if k is None else k
            if isinstance(kk, int) and kk > 0:
                if fn is math.comb:
                    kk = min(kk, max(n - kk, 0))
                bits = kk * n.bit_length()
                if bits > MAX_INT_BITS:
                    _refuse(f"{fn.__name__}({n:,}, {kk:,})", bits, MAX_INT_BITS)
        return fn(n) if k is None and fn is math.perm else fn(n, k)

    guarded.__name__ = fn.__name__
    return guarded


def _guarded_localcontext(ctx=None, **kwargs):
    import decimal

    prec = kwargs.get("prec", getattr(ctx, "prec", None))
    if isinstance(prec, int) and prec > MAX_DECIMAL_PREC:
        _refuse(f"decimal precision {prec:,}", prec, MAX_DECIMAL_PREC)
    return decimal.localcontext(ctx, **kwargs)


_DECIMAL_CONTEXT: type | None = None


def _guarded_decimal_context() -> type:
    global _DECIMAL_CONTEXT
    if _DECIMAL_CONTEXT is None:
        import decimal

        class Context(decimal.Context):
            """decimal.Context with a bounded precision."""

            def __init__(self, prec=None, *args, **kwargs):
                if isinstance(prec, int) and prec > MAX_DECIMAL_PREC:
                    _refuse(f"decimal precision {prec:,}", prec, MAX_DECIMAL_PREC)
                super().__init__(prec, *args, **kwargs)

        _DECIMAL_CONTEXT = Context
        # type(ctx.copy()) must not hand out the real (uncapped) decimal.Context
        TYPE_STANDINS[decimal.Context] = Context
    return _DECIMAL_CONTEXT


_RANDOM_CLASS: type | None = None


def _make_random_class() -> type:
    global _RANDOM_CLASS
    if _RANDOM_CLASS is None:

        class Random(_random_module.Random):
            """random.Random refusing huge getrandbits/randbytes requests."""

            def getrandbits(self, k):
                if isinstance(k, int) and k > MAX_RANDOM_BITS:
                    _refuse(f"getrandbits({k:,})", k, MAX_RANDOM_BITS)
                return super().getrandbits(k)

            def randbytes(self, n):
                if isinstance(n, int) and n > MAX_STR_CHARS:
                    _refuse(f"randbytes({n:,})", n, MAX_STR_CHARS)
                return super().randbytes(n)

        _RANDOM_CLASS = Random
    return _RANDOM_CLASS


def _prepare_numpy_import() -> None:
    import os

    if "numpy" not in sys.modules:
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")


def build_namespace(
    state: RunState,
    collector: OutputCollector,
    tools: dict[str, Callable[..., Any]],
    *,
    allow_numpy: bool = False,
    seed: int | None = None,
    clock: Any = None,
    image_loader: Callable[[int], bytes] | None = None,
) -> _Namespace:
    """Create the globals/builtins of a fresh agent namespace (``clock``: the frozen ``datetime``
    that ``datetime.now()``/``date.today()``/``time.time()`` return; ``None``: the host clock)."""
    return _Namespace(state, collector, tools, allow_numpy=allow_numpy, seed=seed, clock=clock,
                      image_loader=image_loader)


def warm_caches() -> None:
    """Build the lazily made classes now (the worker template calls this before forking)."""
    _make_random_class()
    _guarded_decimal_context()
    import decimal  # noqa: F401


class Clock:
    """The sandbox's view of "now": frozen at the scenario's reference time (or the host clock).

    A naive clock is the scenario's local wall time and is taken to be UTC for conversions.
    """

    def __init__(self, frozen: Any, state: RunState) -> None:
        self.frozen = frozen
        self.state = state

    def _aware(self) -> Any:
        dt = _datetime_module
        if self.frozen is None:
            return dt.datetime.now(dt.timezone.utc)
        value = self.frozen
        return value if value.tzinfo is not None else value.replace(tzinfo=dt.timezone.utc)

    def _local(self) -> Any:
        if self.frozen is None:
            return _datetime_module.datetime.now()
        return self.frozen.replace(tzinfo=None)  # the scenario's wall time

    def method(self, cls: type, name: str) -> Callable[..., Any]:
        """``cls.now``/``cls.today``/``cls.utcnow`` reading this clock, returning ``cls`` instances."""
        dt = _datetime_module
        clock = self

        def build(value):
            if issubclass(cls, dt.datetime):
                return cls.combine(value.date(), value.timetz())
            return cls(value.year, value.month, value.day)

        if name == "now":
            def now(tz=None):
                if tz is not None and not isinstance(tz, dt.tzinfo):
                    raise TypeError("tzinfo argument must be None or of a tzinfo subclass")
                return build(clock._local() if tz is None else clock._aware().astimezone(tz))
            return now
        if name == "utcnow":
            return lambda: build(clock._aware().astimezone(dt.timezone.utc).replace(tzinfo=None))
        return lambda: build(clock._local())

    def time_module(self) -> dict[str, Any]:
        import time as _time

        clock, state = self, self.state

        def time_():
            return clock._aware().timestamp()

        def time_ns():
            now = clock._aware()
            return int(now.timestamp()) * 10**9 + now.microsecond * 1000

        def gmtime(secs=None):
            return _time.gmtime(time_() if secs is None else secs)

        def localtime(secs=None):
            if secs is None:
                return clock._local().timetuple()
            return _time.gmtime(secs)

        def strftime(fmt, t=None):
            return _time.strftime(fmt, localtime() if t is None else t)

        def sleep(seconds):
            if not isinstance(seconds, (int, float)) or seconds < 0:
                raise ValueError("sleep length must be a non-negative number")
            end = _time.monotonic() + seconds
            while True:
                if state.halt or _ident() != state.thread:
                    state.stop()
                left = end - _time.monotonic()
                if left <= 0:
                    return None
                _time.sleep(min(left, 0.01))

        return {"time": time_, "time_ns": time_ns, "gmtime": gmtime, "localtime": localtime, "strftime": strftime,
                "sleep": sleep}


_CLOCK_METHODS = frozenset({"now", "today", "utcnow"})


def _bounded_codec(fn: Callable[..., Any]) -> Callable[..., Any]:
    def codec(data, *args, **kwargs):
        if isinstance(data, (str, bytes, bytearray)) and len(data) > MAX_STR_CHARS // 2:
            _refuse(f"{fn.__name__} of {len(data):,} characters", len(data), MAX_STR_CHARS // 2)
        return fn(data, *args, **kwargs)

    codec.__name__ = codec.__qualname__ = fn.__name__
    return codec
