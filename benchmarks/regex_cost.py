"""What a deadline on users' regular expressions costs per match, on the patterns rules really use.

Three ways to search a rule's pattern in a frame's text: Python's ``re`` (no deadline: the old way), the
``regex`` package with ``timeout=`` (``droidpilot.regexguard``, what the checkers use now), and a search
in a persistent worker process with a deadline (the alternative: a pipe round trip per match). Also the
regex_match checker over the verify_scale chain (text_match nodes turned into regex_match ones), and how
long an evil pattern takes to be declared timed out.

Prints one figure per line (``name value``).

    .venv/bin/python benchmarks/regex_cost.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing as mp
import re
import time
from multiprocessing.connection import Connection

from droidpilot.regexguard import GuardedPattern, PatternTimeout, guarded
from droidpilot.verify.engine import verify
from droidpilot.verify.rule import Condition, Node, Task

# The MobiFlow corpus's patterns, the world suite's oracle patterns (placeholders filled) and the
# typed-reply patterns of the checker docs: what rules in this format write.
PATTERNS = [r"(搜索|查询)", r"(购物车|cart)", r"(高|低)", r"(?i)(temperature|degrees|°).*\b(1\d|2\d)\b",
            r"(?i)\bcaps?\b", r"(?i)today is .*(november 22|2026-11-22|22 november|11/22)", r"118\s*-\s*112",
            r"^\$?450?$", r"Total: (.+)", r"click\((.+?)\)"]
TEXTS = ["Reasoning: the cart shows two items. Action: click(去结算) text=Checkout",
         "Today is Sunday, November 22; temperature 21 degrees. Action: answer(21)",
         "Reasoning: open 搜索 and type caps. Action: type(text='red caps') Total: $45.00"]


def per_match(search, repeat: int) -> float:
    """Microseconds per search of every pattern in every text, ``repeat`` rounds."""
    start = time.perf_counter()
    for _ in range(repeat):
        for p in PATTERNS:
            for t in TEXTS:
                search(p, t)
    return (time.perf_counter() - start) / (repeat * len(PATTERNS) * len(TEXTS)) * 1e6


def _worker(conn: Connection) -> None:
    cache: dict[str, re.Pattern[str]] = {}
    while True:
        msg = conn.recv()
        if msg is None:
            return
        pattern, text = msg
        rx = cache.get(pattern) or cache.setdefault(pattern, re.compile(pattern))
        found = rx.search(text)
        conn.send(None if found is None else found.span())


def worker_cost(repeat: int) -> float:
    parent, child = mp.Pipe()
    proc = mp.get_context("fork").Process(target=_worker, args=(child,), daemon=True)
    proc.start()

    def search(p: str, t: str) -> object:
        parent.send((p, t))
        if not parent.poll(0.5):  # the deadline; a real version would kill and restart the worker
            raise TimeoutError(p)
        return parent.recv()

    try:
        return per_match(search, repeat)
    finally:
        parent.send(None)
        proc.join(5)


def chain_seconds(checker: str, n_nodes: int = 60, n_frames: int = 3000) -> float:
    """verify_scale's chain with every node a ``checker`` on the frame's text."""
    params = (lambda k: {"pattern": rf"step-{k}\b"}) if checker == "regex_match" else \
        (lambda k: {"any": [f"step-{k}"]})
    nodes = [Node(id=f"n{k}", next=[f"n{k + 1}"] if k + 1 < n_nodes else [],
                  condition=Condition(type=checker, params=params(k))) for k in range(n_nodes)]
    gap = n_frames // n_nodes
    frames = [{"text": f"frame {f}" + (f" step-{f // gap}" if f % gap == gap - 1 else "")}
              for f in range(n_frames)]
    start = time.perf_counter()
    result = verify(Task(task_id="chain", nodes=nodes), frames)
    assert result.ok, result.reason
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=2000)
    args = ap.parse_args()
    compiled = {p: re.compile(p) for p in PATTERNS}
    print(f"re.search_us {per_match(lambda p, t: compiled[p].search(t), args.repeat):.2f}")
    print(f"regexguard.search_us {per_match(lambda p, t: guarded(p).search(t), args.repeat):.2f}")
    print(f"worker_deadline.search_us {worker_cost(max(1, args.repeat // 10)):.2f}")
    print(f"chain.text_match_seconds {chain_seconds('text_match'):.3f}")
    print(f"chain.regex_match_seconds {chain_seconds('regex_match'):.3f}")
    for seconds in (0.1, 0.5):
        start = time.perf_counter()
        with contextlib.suppress(PatternTimeout):
            GuardedPattern(r"(a|aa)+$", seconds=seconds).search("a" * 40 + "!")
        print(f"evil.timeout_{seconds:g}s_took_seconds {time.perf_counter() - start:.3f}")


if __name__ == "__main__":
    main()
