"""One pyarrow client of ``bin/lake bench point`` (issue 22): point queries against a lake server, timed per query.

Started by ``dev.lake.it.tpch.PointBenchmark``, one process per client (Python has a GIL, so concurrent clients are
separate processes). It connects (``--url``, user and password from ``LAKE_USER`` / ``LAKE_PASSWORD``, default
lake/lake), reads the keys to ask for from ``--keys`` (one o_orderkey per line), prepares the statement once
(``--mode prepared``), runs one query (unrecorded) and prints ``ready``. It then waits for one line ``go START_NS`` on stdin (the wall clock in
nanoseconds since the epoch, the same for every client of a case) and runs queries until ``START_NS + warm-up +
seconds`` or ``--max`` queries, whichever comes first:

* ``--mode prepared``: bind one parameter row (DoPut), GetFlightInfo of the prepared statement, DoGet;
* ``--mode statement``: GetFlightInfo of a ``CommandStatementQuery`` with the value as a literal in the SQL, DoGet.

Every answer is checked (``--query key``: one row with that o_orderkey; ``--query priority``: ten rows with that
o_orderpriority); a wrong answer ends the process with exit code 1 and the reason on stderr. Queries started before
``START_NS + warm-up`` are not recorded. The output file gets ``finished NS cpu NS`` (wall clock when the last recorded
query ended; the process's CPU time over the recorded queries) and then one line per query: its latency and the time of its three steps in nanoseconds and when it
started (``total bind info get start``: the DoPut of the parameters, 0 for a statement; GetFlightInfo; DoGet and
reading; the start relative to the end of the warm-up), the warm-up's queries first, each line starting with ``#``.
"""

import argparse
import faulthandler
import os
import random
import signal
import sys
import time

import pyarrow as pa

from lake_flightsql import LakeClient

BY_KEY = "SELECT * FROM orders WHERE o_orderkey = ?"
BY_PRIORITY = "SELECT * FROM orders WHERE o_orderpriority = ? LIMIT 10"
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
GO_TIMEOUT_SECONDS = 300


def parse():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--mode", choices=["prepared", "statement"], required=True)
    parser.add_argument("--query", choices=["key", "priority"], required=True)
    parser.add_argument("--keys", required=True)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--max", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    return parser.parse_args()


def check(table, by_key, value):
    if by_key:
        keys = table.column("o_orderkey").to_pylist()
        if keys != [value]:
            raise AssertionError("o_orderkey = %d answered %s" % (value, keys))
    else:
        priorities = table.column("o_orderpriority").to_pylist()
        if len(priorities) != 10 or any(p != value for p in priorities):
            raise AssertionError("o_orderpriority = %r answered %d rows: %s" % (value, len(priorities),
                                                                              sorted(set(priorities))))


def process_cpu_ns():
    """This process's CPU time (user + system, all its threads: pyarrow's gRPC threads included)."""
    t = os.times()
    return int((t.user + t.system) * 1e9)


def wait_for_go():
    """The start time from the line ``go START_NS`` on stdin (bounded: the benchmark sends it or closes stdin)."""
    import select
    ready, _, _ = select.select([sys.stdin], [], [], GO_TIMEOUT_SECONDS)
    if not ready:
        raise TimeoutError("no 'go' line within %d s" % GO_TIMEOUT_SECONDS)
    line = sys.stdin.readline().split()
    if len(line) != 2 or line[0] != "go":
        raise ValueError("expected 'go START_NS', got %r" % line)
    return int(line[1])


def main():
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 PID prints every thread's stack to stderr
    args = parse()
    by_key = args.query == "key"
    with open(args.keys) as f:
        keys = [int(line) for line in f if line.strip()]
    if not keys:
        raise ValueError("no keys in " + args.keys)
    rng = random.Random(args.seed)
    client = LakeClient(args.url, os.environ.get("LAKE_USER", "lake"), os.environ.get("LAKE_PASSWORD", "lake"))
    try:
        handle = None
        parameter_type = None
        if args.mode == "prepared":
            handle, _, parameters = client.prepare(BY_KEY if by_key else BY_PRIORITY)
            if len(parameters) != 1:
                raise AssertionError("expected one parameter, the server reports %s" % parameters)
            parameter_type = parameters.field(0).type
            parameter_name = parameters.field(0).name

        def one(value):
            """One query, answer checked; returns (bind, info, get) times in ns."""
            t0 = time.perf_counter_ns()
            if handle is not None:
                bound = client.bind(handle, pa.table({parameter_name: pa.array([value], parameter_type)}))
                t1 = time.perf_counter_ns()
                info = client.prepared_info(bound)
            elif by_key:
                t1 = t0
                info = client.flight_info("SELECT * FROM orders WHERE o_orderkey = %d" % value)
            else:
                t1 = t0
                info = client.flight_info("SELECT * FROM orders WHERE o_orderpriority = '%s' LIMIT 10" % value)
            t2 = time.perf_counter_ns()
            table = client.read(info)
            t3 = time.perf_counter_ns()
            check(table, by_key, value)
            return t1 - t0, t2 - t1, t3 - t2

        # One query before 'ready': the first use of pyarrow's table and IPC code in a process costs ~0.3 s of CPU
        # (lazy imports), which 8 processes starting together would otherwise spend in the warm-up.
        one(keys[0] if by_key else PRIORITIES[0])
        print("ready", flush=True)
        start = wait_for_go()
        warm_until = start + int(args.warmup * 1e9)
        until = warm_until + int(args.seconds * 1e9)
        latencies = []
        warm_ups = []
        finished = warm_until
        cpu_from = None
        done = 0
        while done < args.max:
            now_wall = time.time_ns()
            if now_wall >= until:
                break
            if now_wall >= warm_until and cpu_from is None:
                cpu_from = process_cpu_ns()
            value = rng.choice(keys) if by_key else rng.choice(PRIORITIES)
            bind, info, get = one(value)
            done += 1
            line = (bind + info + get, bind, info, get, now_wall - warm_until)
            if now_wall >= warm_until:
                latencies.append(line)
                finished = time.time_ns()
            else:
                warm_ups.append(line)
        cpu = process_cpu_ns() - cpu_from if cpu_from is not None else 0
    finally:
        client.close()
    with open(args.out, "w") as f:
        f.write("finished %d cpu %d\n" % (finished, cpu))
        f.write("".join("# %d %d %d %d %d\n" % n for n in warm_ups))
        f.write("".join("%d %d %d %d %d\n" % n for n in latencies))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # one line for the benchmark's log, then the traceback
        print("point_client failed: %s: %s" % (type(e).__name__, e), file=sys.stderr, flush=True)
        raise
