"""Atomic writes: a writer that dies mid-write leaves nothing at the target path."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pyarrow.parquet as pq
import pytest

from mmtsb_env.export import TrajectoryWriter, read_parquet, write_parquet


def _records_then_crash(records, n):
    for i, rec in enumerate(records):
        if i == n:
            raise RuntimeError("the rollout worker died")
        yield rec


def test_exception_mid_write_leaves_no_file(demo_records, tmp_path):
    target = tmp_path / "out.parquet"
    with pytest.raises(RuntimeError, match="rollout worker died"):
        # row groups of 2 rows: several groups are already on disk when the crash comes
        write_parquet(_records_then_crash(demo_records, 7), target, row_group_size=2, steps_path=tmp_path / "steps.parquet")
    assert os.listdir(tmp_path) == []


def test_failed_rewrite_keeps_the_previous_complete_file(demo_records, tmp_path):
    target = tmp_path / "out.parquet"
    write_parquet(demo_records[:2], target)
    before = target.read_bytes()
    with pytest.raises(RuntimeError):
        write_parquet(_records_then_crash(demo_records, 5), target, row_group_size=1)
    assert target.read_bytes() == before and os.listdir(tmp_path) == ["out.parquet"]
    assert len(read_parquet(target)) == 2


def test_abandoned_writer_cleans_up_and_commit_is_all_or_nothing(demo_records, tmp_path):
    writer = TrajectoryWriter(tmp_path / "x.parquet", row_group_size=1)
    writer.write(demo_records[0])
    assert not (tmp_path / "x.parquet").exists() and len(os.listdir(tmp_path)) == 1  # only the hidden temp file
    del writer
    import gc

    gc.collect()
    assert os.listdir(tmp_path) == []
    empty = write_parquet([], tmp_path / "empty.parquet")
    assert pq.read_table(empty).num_rows == 0


def test_killed_process_leaves_no_file_at_the_target(tmp_path):
    target = tmp_path / "killed.parquet"
    script = textwrap.dedent(f"""
        import sys, time
        import mmtsb_env
        from mmtsb_env.baselines import OracleAgent
        from mmtsb_env.export import TrajectoryWriter
        from mmtsb_env.runner import run_episode
        demo = mmtsb_env.load_suite("demo")
        rec = run_episode(demo[0], OracleAgent(demo), capture_images=True)
        with TrajectoryWriter({str(target)!r}, row_group_size=1) as w:
            for i in range(10_000):
                w.write(rec)
                if i == 3:
                    print("writing", flush=True)
                time.sleep(0.01)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "writing"
        time.sleep(0.1)
        tmp = [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
        assert len(tmp) == 1 and tmp[0].startswith(".killed.parquet.")  # the stream is in the hidden temp file
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert not target.exists()
    # Readers of a folder skip the hidden leftovers of a killed writer.
    from mmtsb_env.export import write_parquet as wp

    import mmtsb_env
    from mmtsb_env.baselines import OracleAgent
    from mmtsb_env.runner import run_episode

    demo = mmtsb_env.load_suite("demo")
    wp([run_episode(demo[0], OracleAgent(demo), capture_images=True)], tmp_path / "good.parquet")
    assert len(read_parquet(tmp_path)) == 1
