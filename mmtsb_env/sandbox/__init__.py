"""Code-execution sandbox for code mode: a persistent, restricted Python REPL.

>>> from mmtsb_env.sandbox import Interpreter, Limits
>>> interp = Interpreter(functions={"double": lambda x: 2 * x}, limits=Limits(timeout_s=2.0))
>>> interp.run("y = double(21)\\ny").output
'42'
>>> interp.run("import os").error_kind
'violation'
>>> interp.close()

Three layers (see ``compiler``, ``policy``, ``engine``, ``worker``, ``isolated`` and ``zygote``): RestrictedPython
compilation with an extended AST policy; runtime guards, safe builtins and read-only proxies of
whitelisted modules; and limits (timeout from any thread, output cap, recursion depth, memory).
By default agent code runs in a clean worker process forked from a freshly started template (never
from the host) inside a kernel jail (``jail``: bubblewrap namespaces, seccomp, rlimits, a read-only
view of the runtime only), which is killed when a single C call overruns the timeout;
``Limits(jail="off")`` drops the jail and ``Limits(isolation="thread")`` runs code in-process
(both for trusted code only). See ``docs/security.md``.
"""

from .errors import SandboxViolation, ToolError
from .interpreter import ExecResult, Interpreter, Limits

__all__ = ["ExecResult", "Interpreter", "Limits", "SandboxViolation", "ToolError"]
