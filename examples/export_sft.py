"""Export: run the oracle on the demo suite, write Parquet, load it with `datasets`, convert to SFT.

Run: python examples/export_sft.py [OUT_DIR]
Needs the `datasets` package (pip install "mmtsb-env[export]").
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.export import export_run, read_table, to_sft
from mmtsb_env.runner import run_suite


def main(out_dir: Path) -> None:
    demo = mmtsb_env.load_suite("demo")
    records = run_suite(demo, lambda: OracleAgent(demo), capture_images=True, agent_name="oracle")
    print(f"played {len(records)} episodes; passed {sum(r.passed for r in records)}")

    paths = export_run(records, out_dir)  # trajectories.parquet (episode x seat) + steps.parquet (one row per action)
    table = read_table(paths["trajectories"])
    print(f"wrote {paths['trajectories']} ({paths['trajectories'].stat().st_size // 1024} KiB): "
          f"{table.num_rows} rows, {table.num_columns} columns")

    import datasets

    datasets.disable_progress_bars()
    ds = datasets.load_dataset("parquet", data_files=str(paths["trajectories"]), split="train")
    first = ds[0]
    print(f"datasets: {ds.num_rows} rows; row 0 = {first['scenario_id']} ({first['seat']}), "
          f"{len(first['messages'])} messages, {len(first['images'])} images {[im.size for im in first['images']]}")

    sft = to_sft(paths["trajectories"], only_passed=True)  # assistant seat, TRL vision format
    example = sft[0]
    roles = [m["role"] for m in example["messages"]]
    n_image_parts = sum(p["type"] == "image" for m in example["messages"] for p in m["content"])
    print(f"SFT dataset: {sft.num_rows} rows, columns {sft.column_names}")
    print(f"example 0 roles {roles}; {n_image_parts} image parts for {len(example['images'])} images")
    sft.save_to_disk(str(out_dir / "sft"))
    print(f"saved the SFT dataset to {out_dir / 'sft'} (load it with datasets.load_from_disk)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="mmtsb_export_")))
