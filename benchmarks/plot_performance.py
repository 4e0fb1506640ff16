"""Draw docs/images/performance.png from the JSON files the benchmarks save in benchmarks/results/.

Run after the benchmarks: python benchmarks/plot_performance.py
Panels: entity F1 per step vs rows, app search vs table size, env step cost vs call index,
episodes/s vs processes (whichever results exist).
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from common import RESULTS  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "performance.png"


def _read(name: str) -> dict | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def main() -> None:
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.5))
    f1, search, env, scaling = _read("f1_sweep"), _read("search"), _read("env"), _read("scaling")
    ax = axes[0][0]
    if f1:
        ks = sorted(int(k) for k in f1["matched"])
        ax.loglog(ks, [f1["matched"][str(k)]["per_step_ms"] for k in ks], "o-", label="k expected, k rows: per step")
        ax.loglog(ks, [f1["matched"][str(k)]["scratch_ms"] for k in ks], "s--", label="same, from scratch")
        js = sorted(int(k) for k in f1["junk"])
        ax.loglog(js, [f1["junk"][str(k)] for k in js], "^-", label="20 expected + k junk rows: per step")
        ax.set_title(f"entity F1 ({f1['load']})", fontsize=9)
    ax.set_xlabel("rows")
    ax.set_ylabel("ms")
    ax.legend(fontsize=7)
    ax = axes[0][1]
    if search:
        curve = search.get("base_songs_ms", {})
        ns = sorted(int(k) for k in curve)
        ax.plot(ns, [curve[str(k)] for k in ns], "o-", label="songs: base catalog of N (indexed)")
        for tool, rows in search.get("written_rows", {}).items():
            ns = sorted(int(k) for k in rows)
            ax.plot(ns, [rows[str(k)]["write_then_search_ms"] for k in ns], "s--",
                    label=f"{tool.split('_search_')[0]}: N rows written, write+search")
        ax.legend(fontsize=7)
        ax.set_title(f"app searches ({search['load']})", fontsize=9)
    ax.set_xlabel("N rows")
    ax.set_ylabel("ms per call")
    ax = axes[1][0]
    if env:
        curve = env["step_us_by_call"]
        ax.plot(range(1, len(curve) + 1), curve, ".-")
        ax.set_ylim(0, max(curve) * 1.2)
        ax.set_title(f"cheap real tool step ({env['load']})", fontsize=9)
    ax.set_xlabel("call index in the episode")
    ax.set_ylabel("µs")
    ax = axes[1][1]
    if scaling:
        eps = scaling["episodes_per_s"]
        ax.bar(list(eps), list(eps.values()))
        ax.set_title(f"oracle, nominal, default options ({scaling['load_before']})", fontsize=9)
    ax.set_xlabel("processes")
    ax.set_ylabel("episodes/s")
    fig.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    fig.savefig(OUT, dpi=90)
    print(OUT)


if __name__ == "__main__":
    main()
