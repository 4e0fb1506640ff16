"""Distributed evaluation with Ray: the demo suite on two workers, records gathered and written to Parquet.

Run: python examples/distributed_eval.py [OUT_DIR] [RAY_ADDRESS]
Starts a local 2-CPU Ray unless an address is given. Needs ray (pip install "mmtsb-env[ray]").
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import mmtsb_env
from mmtsb_env.distributed import run_distributed


def main(out_dir: Path, address: str | None) -> None:
    import ray

    if address is None:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    demo = mmtsb_env.load_suite("demo")
    start = time.perf_counter()
    records = run_distributed(demo, "oracle", num_workers=2, address=address, seed=0, out_dir=out_dir)
    elapsed = time.perf_counter() - start
    passed = sum(r.passed for r in records)
    print(f"{len(records)} episodes on 2 workers in {elapsed:.1f}s: Agent SR {passed / len(records):.2f}, "
          f"mean entity F1 {sum(r.entity_f1 for r in records) / len(records):.2f}")
    for r in records[:3]:
        print(f"  {r.scenario_id}: steps {r.steps}, reward {r.total_reward:.2f}, passed {r.passed}")
    print(f"wrote {out_dir / 'trajectories.parquet'} and {out_dir / 'steps.parquet'}")
    if ray.is_initialized():
        ray.shutdown()


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="mmtsb_ray_"))
    main(out, sys.argv[2] if len(sys.argv) > 2 else None)
