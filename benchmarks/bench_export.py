"""Export throughput benchmarks (figures for docs/export.md; never used as timed tests).

Run: python benchmarks/bench_export.py [--episodes N]
Prints medians over repeats: episodes/s written to Parquet (episode table, with and without the
step table), bytes per episode, episodes/s read back (Arrow, EpisodeRecords, `datasets`), and
episodes/s converted to a TRL SFT dataset.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.export import read_parquet, read_table, to_sft, write_parquet
from mmtsb_env.runner import run_suite


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(n_episodes: int, repeats: int) -> None:
    demo = mmtsb_env.load_suite("demo")
    base = run_suite(demo, lambda: OracleAgent(demo), capture_images=True, agent_name="oracle")
    records = [base[i % len(base)] for i in range(n_episodes)]  # repeats get distinct episode ids
    n_images = sum(len(r.images) for r in records)
    tmp = Path(tempfile.mkdtemp(prefix="bench_export_"))
    try:
        path, steps = tmp / "t.parquet", tmp / "s.parquet"
        t_write = timed(lambda: write_parquet(records, path), repeats)
        size = path.stat().st_size
        t_write_steps = timed(lambda: write_parquet(records, path, steps_path=steps), repeats)
        t_arrow = timed(lambda: read_table(path), repeats)
        t_records = timed(lambda: read_parquet(path), repeats)
        import datasets

        datasets.disable_progress_bars()
        cache = tmp / "hf"

        def load() -> None:
            shutil.rmtree(cache, ignore_errors=True)
            datasets.load_dataset("parquet", data_files=str(path), split="train", cache_dir=str(cache))

        t_datasets = timed(load, repeats)
        t_sft = timed(lambda: to_sft(path), repeats)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{n_episodes} episodes (demo suite, oracle, {n_images} images in total), 2 rows per episode, zstd")
    print(f"write episode table:          {n_episodes / t_write:8.0f} episodes/s  ({size / n_episodes / 1024:.0f} KiB per episode)")
    print(f"write episode + step tables:  {n_episodes / t_write_steps:8.0f} episodes/s")
    print(f"read as Arrow table:          {n_episodes / t_arrow:8.0f} episodes/s")
    print(f"read back as EpisodeRecords:  {n_episodes / t_records:8.0f} episodes/s")
    print(f"datasets.load_dataset:        {n_episodes / t_datasets:8.0f} episodes/s")
    print(f"to_sft (TRL vision format):   {n_episodes / t_sft:8.0f} episodes/s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=240)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    main(args.episodes, args.repeats)
