"""SFT with TRL on exported trajectories: oracle episodes -> Parquet -> to_sft -> SFTTrainer on a tiny VLM.

The tool schemas each episode offered are rendered into the prompt (ToolsVisionCollator) and
the loss covers the assistant's tokens only (the tiny model's template has generation markers).

Run: python examples/sft_trl.py [OUT_DIR] [--steps N]
Needs pip install "mmtsb-env[trl]" and torch (CPU is fine).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.export import export_run, to_sft
from mmtsb_env.runner import run_suite

SCENARIOS = ("demo/note_from_receipt", "demo/compare_receipts")


def main(out_dir: Path, steps: int) -> None:
    from transformers import AutoModelForImageTextToText
    from trl import SFTConfig

    from mmtsb_env.integrations.trl import ToolsVisionCollator, sft_trainer
    from mmtsb_env.llm.processors import load_processor
    from mmtsb_env.llm.tiny import build_tiny_vlm

    demo = mmtsb_env.load_suite("demo")
    records = run_suite([s for s in demo if s.id in SCENARIOS], lambda: OracleAgent(demo), capture_images=True,
                        agent_name="oracle")
    paths = export_run(records, out_dir)
    dataset = to_sft(paths["trajectories"], only_passed=True)
    print(f"SFT rows: {dataset.num_rows}; tools offered per row: {[len(__import__('json').loads(t)) for t in dataset['tools']]}")

    model_dir = build_tiny_vlm(out_dir / "tiny-idefics3")
    model, processor = AutoModelForImageTextToText.from_pretrained(model_dir), load_processor(model_dir)
    batch = ToolsVisionCollator(processor, assistant_only_loss=True)([dataset[0]])
    trained = int((batch["labels"] != -100).sum())
    print(f"row 0: {batch['input_ids'].shape[1]} tokens, {trained} of them the assistant's (trained)")

    args = SFTConfig(output_dir=str(out_dir / "sft"), max_steps=steps, per_device_train_batch_size=1, learning_rate=1e-3,
                     assistant_only_loss=True, remove_unused_columns=False, gradient_checkpointing=False, max_length=None,
                     logging_steps=1, save_strategy="no", report_to=[], use_cpu=True, bf16=False)
    trainer = sft_trainer(model, processor, dataset, args)
    trainer.train()
    losses = [round(h["loss"], 3) for h in trainer.state.log_history if "loss" in h]
    print(f"trained {trainer.state.global_step} steps; losses {losses}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", type=Path)
    parser.add_argument("--steps", type=int, default=3)
    a = parser.parse_args()
    main(a.out_dir or Path(tempfile.mkdtemp()), a.steps)
