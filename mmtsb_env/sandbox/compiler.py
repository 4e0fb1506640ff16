"""Static layer: RestrictedPython compilation with the sandbox's own AST policy, plus an LRU cache.

The policy is RestrictedPython's ``RestrictingNodeTransformer`` (no dunder names or attributes,
no ``exec``/``eval``, attribute/item/iteration/write guards, print collector, ...) extended with:

* REPL semantics: a final bare expression is assigned to a hidden name so its value can be shown;
* ``except:`` becomes ``except Exception:`` (the sandbox's interrupts derive from
  ``BaseException`` and must stay uncatchable);
* a cooperative checkpoint ``_tick_()`` at the top of every ``for``/``while`` body and at every
  function entry; ``_enter_()``/``_exit_()`` around non-generator function bodies count the call
  depth (the recursion limit, enforced without touching ``sys.setrecursionlimit``);
* ``a * b``, ``a ** b``, ``a << b`` and ``a % b`` go through guards that refuse huge results, and
  f-string format specs through a guard that refuses huge widths;
* conveniences RestrictedPython refuses but which are safe under these guards: ``x[k] += 1`` /
  ``obj.attr += 1`` (rewritten into guarded reads/writes), annotated assignments, ``nonlocal``,
  ``super().__init__(...)`` and reading ``__name__``/``__qualname__``/``__doc__`` (strings only);
* the set of names a snippet binds, so the interpreter can refuse rebinding a provided function.
"""

from __future__ import annotations

import ast
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from types import CodeType

from RestrictedPython.transformer import IOPERATOR_TO_STR, RestrictingNodeTransformer, copy_locations

RESULT_NAME = "__sandbox_result__"
FILENAME_PREFIX = "<agent:"
MAX_SOURCE_CHARS = 200_000
CACHE_SIZE = 256
# dunder attributes agent code may read (the guard only hands out ``str`` values for them)
READABLE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__"})

_BINOP_GUARDS = {ast.Mult: "_mul_", ast.Pow: "_pow_", ast.LShift: "_lshift_", ast.Mod: "_mod_"}


@dataclass(frozen=True)
class CompiledUnit:
    """The outcome of compiling one snippet (cached by source text)."""

    source: str
    filename: str
    code: CodeType | None
    errors: tuple[str, ...]
    error_kind: str | None  # None, "syntax" or "violation"
    bound_names: frozenset[str]


def _call(name: str, args: list[ast.expr], like: ast.AST) -> ast.Call:
    node = ast.Call(func=ast.Name(name, ast.Load()), args=args, keywords=[])
    copy_locations(node, like)
    return node


def _stmt_call(name: str, like: ast.AST) -> ast.Expr:
    node = ast.Expr(_call(name, [], like))
    copy_locations(node, like)
    return node


def _is_generator(fn: ast.FunctionDef) -> bool:
    """True when ``fn`` itself (not a nested scope) contains ``yield``."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _is_zero_arg_super(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and not node.args
        and not node.keywords
    )


class SandboxTransformer(RestrictingNodeTransformer):
    """RestrictedPython's policy plus the sandbox extensions described in the module doc."""

    def __init__(self, errors=None, warnings=None, used_names=None):
        super().__init__(errors, warnings, used_names)
        self.bound_names: set[str] = set()

    # -- names bound by the snippet --------------------------------------------------------------
    def visit_Name(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.bound_names.add(node.id)
        return super().visit_Name(node)

    def visit_ClassDef(self, node):
        self.bound_names.add(node.name)
        return super().visit_ClassDef(node)

    def check_import_names(self, node):
        for alias in node.names:
            self.bound_names.add((alias.asname or alias.name).split(".")[0])
        return super().check_import_names(node)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.bound_names.add(node.name)
        node = super().visit_ExceptHandler(node)
        if node.type is None:  # bare ``except:`` must not catch the sandbox's interrupts
            node.type = ast.Name("Exception", ast.Load())
            copy_locations(node.type, node)
        return node

    # -- REPL: the value of a final bare expression -------------------------------------------------
    def visit_Module(self, node):
        last_is_expr = bool(node.body) and isinstance(node.body[-1], ast.Expr)
        node = super().visit_Module(node)
        if last_is_expr and node.body and isinstance(node.body[-1], ast.Expr):
            last = node.body[-1]
            assign = ast.Assign(targets=[ast.Name(RESULT_NAME, ast.Store())], value=last.value)
            copy_locations(assign, last)
            node.body[-1] = assign
        return node

    # -- checkpoints -------------------------------------------------------------------------------
    def visit_While(self, node):
        node = super().visit_While(node)
        node.body.insert(0, _stmt_call("_tick_", node))
        return node

    def visit_For(self, node):
        node = super().visit_For(node)
        node.body.insert(0, _stmt_call("_tick_", node))
        return node

    def visit_FunctionDef(self, node):
        self.bound_names.add(node.name)
        generator = _is_generator(node)
        node = super().visit_FunctionDef(node)
        if generator:
            node.body.insert(0, _stmt_call("_tick_", node))
        else:
            guarded = ast.Try(body=node.body, handlers=[], orelse=[], finalbody=[_stmt_call("_exit_", node)])
            copy_locations(guarded, node)
            node.body = [_stmt_call("_enter_", node), guarded]
        return node

    # -- context managers: ``with m:`` becomes ``with _with_(m):`` -----------------------------------
    def visit_With(self, node):
        node = super().visit_With(node)
        for item in node.items:
            item.context_expr = _call("_with_", [item.context_expr], item.context_expr)
        return node

    # -- resource guards on operators -----------------------------------------------------------
    def visit_BinOp(self, node):
        node = super().visit_BinOp(node)
        guard = _BINOP_GUARDS.get(type(node.op))
        if guard is None:
            return node
        return _call(guard, [node.left, node.right], node)

    def visit_FormattedValue(self, node):
        node = super().visit_FormattedValue(node)
        if node.format_spec is None:
            return node
        # f"{v!r:{spec}}" -> f"{_fmt_(v, 'r', f'{spec}')}": conversion and spec applied by the guard
        conversion = ast.Constant(chr(node.conversion) if node.conversion and node.conversion > 0 else "")
        copy_locations(conversion, node)
        node.value = _call("_fmt_", [node.value, conversion, node.format_spec], node)
        node.conversion = -1
        node.format_spec = None
        return node

    # -- conveniences ------------------------------------------------------------------------------
    def visit_AnnAssign(self, node):
        if isinstance(node.target, ast.Name):
            self.bound_names.add(node.target.id)
        return self.node_contents_visit(node)

    def visit_Nonlocal(self, node):
        for name in node.names:
            self.check_name(node, name)
        return node

    def visit_Attribute(self, node):
        if isinstance(node.ctx, ast.Load) and (
            node.attr in READABLE_DUNDERS or (node.attr == "__init__" and _is_zero_arg_super(node.value))
        ):
            # ``type(e).__name__`` and ``super().__init__(...)``: checked again at run time
            value = self.visit(node.value)
            return _call("_getattr_", [value, ast.Constant(node.attr)], node)
        return super().visit_Attribute(node)

    def visit_AugAssign(self, node):
        target = node.target
        if isinstance(target, ast.Name):
            self.bound_names.add(target.id)
            new = super().visit_AugAssign(node)
            # ``x *= n`` / ``x **= n`` / ``x <<= n`` are checked inside ``_inplacevar_``.
            return new
        if isinstance(target, ast.Attribute) and (target.attr.startswith("_") or target.attr.endswith("__roles__")):
            self.error(node, f'"{target.attr}" is an invalid attribute name because it starts with "_".')
            return node
        if not isinstance(target, (ast.Attribute, ast.Subscript)):  # pragma: no cover - grammar
            self.error(node, "Unsupported augmented assignment target.")
            return node
        op = IOPERATOR_TO_STR[type(node.op)]
        obj_value = self.visit(target.value)
        value = self.visit(node.value)
        obj_tmp = self.gen_tmp_name()
        stmts: list[ast.stmt] = [ast.Assign(targets=[ast.Name(obj_tmp, ast.Store())], value=obj_value)]
        if isinstance(target, ast.Attribute):
            current = _call("_getattr_", [ast.Name(obj_tmp, ast.Load()), ast.Constant(target.attr)], node)
            store = ast.Attribute(
                value=_call("_write_", [ast.Name(obj_tmp, ast.Load())], node), attr=target.attr, ctx=ast.Store()
            )
            temps = [obj_tmp]
        else:
            key_tmp = self.gen_tmp_name()
            stmts.append(ast.Assign(targets=[ast.Name(key_tmp, ast.Store())], value=self.visit(target.slice)))
            current = _call("_getitem_", [ast.Name(obj_tmp, ast.Load()), ast.Name(key_tmp, ast.Load())], node)
            store = ast.Subscript(
                value=_call("_write_", [ast.Name(obj_tmp, ast.Load())], node),
                slice=ast.Name(key_tmp, ast.Load()),
                ctx=ast.Store(),
            )
            temps = [obj_tmp, key_tmp]
        new_value = _call("_inplacevar_", [ast.Constant(op), current, value], node)
        stmts.append(ast.Assign(targets=[store], value=new_value))
        cleanup = ast.Assign(targets=[ast.Name(t, ast.Store()) for t in temps], value=ast.Constant(None))
        wrapper = ast.Try(body=stmts, handlers=[], orelse=[], finalbody=[cleanup])
        for stmt in [*stmts, cleanup, wrapper]:
            copy_locations(stmt, node)
        return wrapper


def _filename(source: str) -> str:
    return FILENAME_PREFIX + hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest() + ">"


def _compile_uncached(source: str) -> CompiledUnit:
    filename = _filename(source)
    if len(source) > MAX_SOURCE_CHARS:
        msg = f"code is too long ({len(source):,} characters; the limit is {MAX_SOURCE_CHARS:,})"
        return CompiledUnit(source, filename, None, (msg,), "syntax", frozenset())
    try:
        tree = ast.parse(source, filename, "exec")
    except SyntaxError as exc:
        text = (exc.text or "").strip()
        msg = f"Line {exc.lineno}: {type(exc).__name__}: {exc.msg}" + (f" at statement: {text!r}" if text else "")
        return CompiledUnit(source, filename, None, (msg,), "syntax", frozenset())
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        return CompiledUnit(source, filename, None, (f"{type(exc).__name__}: {exc}",), "syntax", frozenset())

    errors: list[str] = []
    transformer = SandboxTransformer(errors, [], {})
    try:
        tree = transformer.visit(tree)
        bound = frozenset(transformer.bound_names)
        if errors:
            return CompiledUnit(source, filename, None, tuple(errors), "violation", bound)
        # dont_inherit: this module's ``from __future__ import annotations`` must not leak into
        # agent code (its annotations are evaluated normally, under the guards).
        code = compile(tree, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError) as exc:
        return CompiledUnit(source, filename, None, (f"{type(exc).__name__}: {exc}",), "syntax", frozenset())
    return CompiledUnit(source, filename, code, (), None, bound)


class _LRU:
    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[str, CompiledUnit] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = 0
        self.misses = 0


_cache = _LRU(CACHE_SIZE)


def compile_snippet(source: str) -> CompiledUnit:
    """Compile ``source`` under the sandbox policy (LRU-cached by source text; thread-safe)."""
    with _cache.lock:
        unit = _cache.data.get(source)
        if unit is not None:
            _cache.data.move_to_end(source)
            _cache.hits += 1
            return unit
    unit = _compile_uncached(source)
    with _cache.lock:
        _cache.misses += 1
        _cache.data[source] = unit
        _cache.data.move_to_end(source)
        while len(_cache.data) > _cache.size:
            _cache.data.popitem(last=False)
    return unit


def compile_unguarded(source: str) -> CompiledUnit:
    """Test-only (``interpreter.GUARD_DISABLED_FOR_TESTS``): plain ``compile``, no policy at all."""
    filename = _filename(source)
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return CompiledUnit(source, filename, None, (f"SyntaxError: {exc}",), "syntax", frozenset())
    return CompiledUnit(source, filename, code, (), None, frozenset())


def clear_cache() -> None:
    with _cache.lock:
        _cache.data.clear()


def cache_info() -> dict[str, int]:
    with _cache.lock:
        return {"size": len(_cache.data), "maxsize": _cache.size, "hits": _cache.hits, "misses": _cache.misses}
