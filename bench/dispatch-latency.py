#!/usr/bin/env python3
"""Dispatch latency from a slurmctld log: for every task start, the time
since the latest task end on the same node (only starts that follow an end
within --window seconds count: those are the slots that turned over).

    dispatch-latency.py SLURMCTLD_LOG [--window S]

Prints "n p50 p90 max" in milliseconds.  Reads the lines
  [T] _job_complete: JobId=A_T(J) done
  [T] sched: Allocate JobId=A_T(J) NodeList=nX ...
  [T] sched/backfill: _start_job: Started JobId=A_T(J) in P on nX
"""
import argparse
import datetime
import re
import sys

TS = re.compile(r'^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\] (.*)$')
ALLOC = re.compile(r'sched: Allocate JobId=\S*?\((\d+)\) NodeList=(\S+)')
BF = re.compile(r'_start_job: Started JobId=\S*?\((\d+)\) in \S+ on (\S+)')
DONE = re.compile(r'_job_complete: JobId=\S*?\((\d+)\) done')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--window', type=float, default=10.0)
    a = ap.parse_args()
    node_of = {}
    last_end = {}
    gaps = []
    with open(a.log, errors='replace') as f:
        for line in f:
            m = TS.match(line)
            if not m:
                continue
            t = datetime.datetime.fromisoformat(m.group(1)).timestamp()
            msg = m.group(2)
            s = ALLOC.search(msg) or BF.search(msg)
            if s:
                job, node = s.group(1), s.group(2)
                node_of[job] = node
                end = last_end.pop(node, None)
                if end is not None and t - end <= a.window:
                    gaps.append((t - end) * 1000.0)
                continue
            d = DONE.search(msg)
            if d and d.group(1) in node_of:
                last_end[node_of[d.group(1)]] = t
    if not gaps:
        print("0 0 0 0")
        return 1
    gaps.sort()
    n = len(gaps)
    print("%d %.0f %.0f %.0f" % (n, gaps[n // 2], gaps[min(n - 1, int(n * 0.9))],
                                 gaps[-1]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
