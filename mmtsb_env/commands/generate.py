"""``mmtsb generate``: write verified procedurally generated scenarios (format v1) to a folder."""

from __future__ import annotations

import json
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, List, Optional

import typer

from ._common import fail, setup_logging


def generate_command(
    n: int = typer.Option(20, "--n", help="number of scenarios"),
    seed: int = typer.Option(0, help="generation seed (same seed, same scenarios)"),
    out: Path = typer.Option(..., help="output folder"),
    flow: Optional[List[str]] = typer.Option(None, help="keep to these information flows (repeatable)"),
    challenge: Optional[List[str]] = typer.Option(None, help="keep to these challenge types (repeatable)"),
    arrival: Optional[List[str]] = typer.Option(None, help="keep to these image arrival patterns (repeatable)"),
    category: Optional[str] = typer.Option(None, help="only this image category"),
    domain: Optional[List[str]] = typer.Option(None, help="only scenarios touching one of these domains (repeatable)"),
    verify: str = typer.Option("full", help="full (oracle, tool + code mode when available) | tool | static | none"),
    id_prefix: str = typer.Option("gen", help="scenario ids are <prefix>/<seed>-<index>"),
    numbered: bool = typer.Option(False, help="ids <prefix>/<index> instead (built-in suites)"),
    by_flow: bool = typer.Option(False, help="one JSON list per flow (built-in suite layout) instead of one file per scenario"),
    world_seed: int = typer.Option(0, help="base world seed"),
    workers: int = typer.Option(1, min=1, help="processes running the oracle episodes (same scenarios whatever the number)"),
    legible: bool = typer.Option(False, "--legible", help="check with tesseract that each level 2-3 image's needed values "
                                 "read with the visual tools; redraw it a level lower otherwise (~1 s per such image)"),
    gzip: bool = typer.Option(False, "--gzip", help="write compact .json.gz files (large suites shipped as package data)"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="log more"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar, warnings only"),
) -> None:
    """Generate scenarios over the design axes and write them as format-v1 JSON."""
    from mmtsb_env.generation import GenerationStats, generate
    from mmtsb_env.generation.suite import write_scenarios

    setup_logging(verbose, quiet)
    mode = {"full": True, "tool": "tool", "static": "static", "none": False}.get(verify)
    if mode is None:
        fail(f"--verify must be full, tool, static or none, got {verify!r}")
    if n < 1:
        fail(f"--n must be >= 1, got {n}")
    if legible:
        from mmtsb_env.generation.ocr import tesseract_available

        if not tesseract_available():
            fail("--legible needs Debian's tesseract (apt-get install -y tesseract-ocr)")
    stats = GenerationStats()
    _settle_heap(world_seed)
    try:
        with _progress(stats, n, enabled=not quiet):
            scenarios = generate(n, seed, flow=flow or None, challenge=challenge or None, arrival=arrival or None,
                                 category=category, domains=domain or None, verify=mode, id_prefix=id_prefix,
                                 id_format="{prefix}/{index:04d}" if numbered else None, stats=stats,
                                 world_seed=world_seed, workers=workers, legible=legible)
    except ValueError as exc:
        fail(str(exc))
    files = write_scenarios(scenarios, out, group_by="flow_type" if by_flow else None, compress=gzip,
                            report={"seed": seed, "verify": verify, "stats": stats.to_json()})
    typer.echo(json.dumps({"written": len(scenarios), "files": len(files), "out": str(out), **stats.to_json()}, indent=2))


@contextmanager
def _progress(stats: Any, total: int, *, enabled: bool) -> Iterator[None]:
    """A progress bar on stderr that follows ``stats.produced`` while the block runs."""
    if not enabled:
        yield
        return
    from tqdm import tqdm

    bar = tqdm(total=total, desc="scenarios", file=sys.stderr)
    stop = threading.Event()

    def follow() -> None:
        while not stop.wait(0.25):
            bar.update(stats.produced - bar.n)

    watcher = threading.Thread(target=follow, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()
        bar.update(stats.produced - bar.n)
        bar.close()


def _settle_heap(world_seed: int) -> None:
    """Build the base world now and take it out of the cyclic GC's sight (this process is ours)."""
    import gc

    from mmtsb_env.generation.world_index import world_index

    world_index(world_seed)
    gc.collect()
    gc.freeze()


def register(app: typer.Typer) -> None:
    app.command(name="generate")(generate_command)
