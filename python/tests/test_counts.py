"""Counts, the solutions iterator stopped early, and Ctrl-C."""

import _thread
import itertools
import signal
import threading
import time

import pytest

import puzzlec


def test_count_with_sat_agrees(models):
    model = puzzlec.load(models / "queens-8.toml")
    assert model.count(backend="sat") == 92


def test_solutions_are_every_optimum(models):
    model = puzzlec.load(models / "queens-8.toml")
    solutions = list(model.solutions())
    assert len(solutions) == 92
    assert len({tuple(s.rows) for s in solutions}) == 92
    assert all(s.value == 8 for s in solutions)
    assert len(list(model.solutions(unique=True))) == 12


def test_iterator_stopped_early():
    # 14200 solutions; five are read, then the search is stopped.
    solutions = puzzlec.queens(size=12).solutions()
    first = list(itertools.islice(solutions, 5))
    assert len(first) == 5 and all(len(s.coordinates["queens"]) == 12 for s in first)
    solutions.close()
    # At most what was already on its way to the reader.
    assert len(list(solutions)) <= 65
    assert solutions.complete is False


def test_iterator_runs_to_the_end(models):
    solutions = puzzlec.load(models / "halves-asahi-2005.toml").solutions()
    assert solutions.complete is None
    assert len(list(solutions)) == 1 and solutions.complete is True


def interrupt_after(seconds, sent):
    """Sends Ctrl-C to the main thread after `seconds`, noting when."""

    def later():
        time.sleep(seconds)
        sent.append(time.monotonic())
        _thread.interrupt_main()

    threading.Thread(target=later, daemon=True).start()


@pytest.mark.parametrize(
    "work",
    [
        # Minutes of native counting (39 billion solutions).
        lambda: puzzlec.queens(size=20).count(),
        # The native packing search on a box far too large to settle.
        lambda: puzzlec.packing(20, 22, [["..#..", "..#..", "#####", "..#..", "..#.."]]).solve(),
    ],
    ids=["count", "solve"],
)
def test_ctrl_c_stops_within_half_a_second(work):
    # A process started with SIGINT ignored (`nohup`, a background job of a shell without
    # job control) has no Python handler, and `interrupt_main` would then do nothing.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sent = []
        interrupt_after(0.5, sent)
        with pytest.raises(KeyboardInterrupt):
            work()
        assert time.monotonic() - sent[0] < 0.5
    finally:
        signal.signal(signal.SIGINT, previous)


def test_other_threads_run_during_a_search():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    start = time.monotonic()
    try:
        assert puzzlec.queens(size=16).count() == 14772512
    finally:
        done.set()
        ticker.join()
    # The GIL was released: the other thread ticked while the count ran.
    assert len([t for t in ticks if t > start]) >= 10


def test_time_limit_stops_a_count():
    count = puzzlec.queens(size=20).count(time_limit=0.3)
    assert not count.complete and count.evidence_text.startswith("time limit reached")
