"""The worker threads (pandas_agree._threads): results, errors, and a forked child."""

from __future__ import annotations

import os
import sys

import pytest

from pandas_agree import _threads


def test_started_gives_the_result_or_the_error_on_both_roads(monkeypatch):
    for cpus in (1, 2):
        monkeypatch.setattr(_threads, "usable_cpus", lambda cpus=cpus: cpus)
        for parallel in (False, True):
            assert _threads.started(lambda: 6 * 7, parallel)() == 42
            with pytest.raises(ZeroDivisionError):  # raised here, or by the result's call
                _threads.started(lambda: 1 / 0, parallel)()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_gets_workers_of_its_own(monkeypatch):
    """The parent's worker threads are not in a forked child: the child must not hand its
    work to them (it would wait for ever)."""
    monkeypatch.setattr(_threads, "usable_cpus", lambda: 2)
    assert _threads.started(lambda: 1, True)() == 1  # the parent's workers exist now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer through the pipe, then leave at once
        try:
            ok = _threads.started(lambda: 2, True)() == 2
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    try:
        import select

        ready, _, _ = select.select([read], [], [], 30)
        assert ready, "the forked child did not answer within 30 s"
        assert os.read(read, 1) == b"1"
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    sys.stdout.flush()


def test_work_handed_over_at_interpreter_shutdown_runs_here(tmp_path):
    """At shutdown (an atexit handler) no new thread may start: the work runs on the calling
    thread instead of raising RuntimeError (found in review)."""
    import subprocess
    import textwrap

    script = tmp_path / "at_exit.py"
    script.write_text(textwrap.dedent("""
        import atexit
        from pandas_agree import _threads

        _threads.usable_cpus = lambda: 2

        def late():
            print(_threads.started(lambda: 6 * 7, True)())

        atexit.register(late)
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"
