"""The ``mmtsb`` command: play a scenario by hand, evaluate a baseline on a suite, list tools."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help="MM-ToolSandBox RL environment.")


@app.command()
def play(
    scenario: Optional[str] = typer.Option(None, help="scenario id, e.g. demo/note_from_receipt (default: seeded draw)"),
    suite: str = typer.Option("demo", help="suite name or folder"),
    mode: str = typer.Option("tool", help="tool | code"),
    seed: int = typer.Option(0),
    image_dir: Optional[Path] = typer.Option(None, help="where new images are written (default: a temp folder)"),
) -> None:
    """Play the assistant seat in the terminal against the scripted user.

    Type a tool call as JSON ({"name": ..., "arguments": {...}}), a ```python block in code mode,
    or plain text to answer the user. ':tools' lists tools, ':quit' leaves.
    """
    import mmtsb_env

    env = mmtsb_env.make_env(suite=suite, mode=mode)
    options = {"scenario": scenario} if scenario else None
    obs, info = env.reset(seed=seed, options=options)
    out = image_dir or Path(tempfile.mkdtemp(prefix="mmtsb_play_"))
    out.mkdir(parents=True, exist_ok=True)
    typer.echo(f"Scenario {info['scenario_id']} ({mode} mode). Images are written to {out}")

    def show(obs, info) -> None:
        typer.echo(obs["text"])
        for image_id, image in info["images"].items():
            path = out / f"image_{image_id}.png"
            image.save(path)
            typer.echo(f"  [image {image_id}] -> {path}")

    show(obs, info)
    while True:
        try:
            lines = [input("\nassistant> ")]
            if lines[0].strip().startswith("```"):
                while not lines[-1].strip().endswith("```") or len(lines) == 1:
                    lines.append(input("... "))
        except EOFError:
            break
        action = "\n".join(lines)
        if action.strip() == ":quit":
            break
        if action.strip() == ":tools":
            typer.echo(", ".join(t["function"]["name"] for t in info["tools"]))
            continue
        obs, reward, terminated, truncated, info = env.step(action)
        show(obs, info)
        typer.echo(f"  (reward {reward:+.3f}, entity F1 {info['reward_components']['entity_f1']:.3f})")
        if terminated or truncated:
            verdict = info.get("verdict", {})
            typer.echo(f"Episode over: {'PASS' if verdict.get('pass') else 'FAIL'}")
            for c in verdict.get("criteria", []):
                typer.echo(f"  {'✓' if c['pass'] else '✗'} {c['criterion']}: {c['reason']}")
            break


@app.command(name="eval")
def evaluate(
    suite: str = typer.Option("demo", help="suite name or folder"),
    agent: str = typer.Option("oracle", help="oracle | random"),
    mode: str = typer.Option("tool", help="tool | code"),
    limit: Optional[int] = typer.Option(None, help="evaluate only the first N scenarios"),
    out: Optional[Path] = typer.Option(None, help="write results.json here"),
    seed: int = typer.Option(0),
) -> None:
    """Run an agent over a suite and report Agent SR, mean entity F1 and average steps."""
    from tqdm import tqdm

    import mmtsb_env
    from mmtsb_env.baselines import OracleAgent, RandomAgent

    scenarios = mmtsb_env.load_suite(suite)[:limit]
    env = mmtsb_env.make_env(suite=scenarios, mode=mode)
    results = []
    for scenario in tqdm(scenarios, desc=f"{agent} on {suite}", file=sys.stderr):
        policy = OracleAgent(scenarios, mode=mode) if agent == "oracle" else RandomAgent(seed=seed)
        obs, info = env.reset(seed=seed, options={"scenario": scenario.id})
        steps, done = 0, False
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy.act(obs, info))
            steps += 1
            done = terminated or truncated
        results.append({"scenario_id": scenario.id, "entity_f1": info["entity_f1"], "pass": info["verdict"]["pass"],
                        "steps": steps, "verdict": info["verdict"], "metadata": scenario.metadata})
    n = len(results)
    summary = {
        "suite": suite, "agent": agent, "mode": mode, "episodes": n,
        "agent_sr": sum(r["pass"] for r in results) / n,
        "mean_entity_f1": sum(r["entity_f1"] for r in results) / n,
        "avg_steps": sum(r["steps"] for r in results) / n,
    }
    typer.echo(json.dumps(summary, indent=2))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps({"summary": summary, "episodes": results}, indent=2))


@app.command()
def tools(toolbox: str = typer.Option("full"), app_name: Optional[str] = typer.Option(None, "--app", help="only this app")) -> None:
    """Print the OpenAI-format schemas of the assistant's tools (JSON lines)."""
    from mmtsb_env.tools import tools_in

    for t in tools_in(toolbox):
        if app_name is None or t.app == app_name:
            typer.echo(json.dumps(t.schema, ensure_ascii=False))


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
