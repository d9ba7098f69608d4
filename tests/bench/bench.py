#!/usr/bin/env python3
"""Benchmarks of qbc (make bench): wall time and peak memory of `qbc check`
and `qbc build` on generated banks of growing size, so that throughput and
linear memory growth are measured, never asserted in tests.

usage: bench.py QBC [SIZES...]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time


def make_bank(path, n):
    with open(path, "w", encoding="utf-8") as f:
        f.write("bank: bench\nlanguages: en sw\npass-mark: 80%\n"
                "title:\n  en: Benchmark\n  sw: Kipimo\n")
        for i in range(n):
            f.write(
                f"{i + 1}. q-{i}\n   tags: bench t{i % 10}\n"
                f"   en: Question {i}: which option is *right*? `code {i}`\n"
                f"   sw: Swali {i}: chaguo gani ni *sahihi*? `code {i}`\n")
            for k in range(4):
                mark = "*" if k == i % 4 else "-"
                f.write(f"   {mark} en: Option {k} of question {i}\n"
                        f"     sw: Chaguo {k} cha swali {i}\n"
                        f"     > en: Feedback {k} for question {i}.\n"
                        f"       sw: Maoni {k} kwa swali {i}.\n")
            f.write(f"   explanation:\n     en: Because option {i % 4} is right.\n"
                    f"     sw: Kwa sababu chaguo {i % 4} ni sahihi.\n")


def run(cmd, cwd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, "SOURCE_DATE_EPOCH": "1764680000", "NO_COLOR": "1"})
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed with exit {p.returncode}")
    # This child's own peak resident set (KiB on Linux).
    return dt, usage.ru_maxrss


def main():
    qbc = os.path.abspath(sys.argv[1])
    sizes = [int(s) for s in sys.argv[2:]] or [100, 1000, 5000]
    formats = subprocess.run([qbc, "build", "--help"], capture_output=True, text=True).stdout
    fmts = [f for f in ("anki", "scorm12", "scorm2004", "json") if f" {f} " in formats]
    print(f"{'questions':>9} {'command':<32} {'seconds':>8} {'q/s':>9} {'max RSS MiB':>12}")
    for n in sizes:
        d = tempfile.mkdtemp(prefix="qbc-bench-")
        try:
            make_bank(os.path.join(d, "bench.qb"), n)
            for name, cmd in [("check", [qbc, "check", "bench.qb"])] + [
                    (f"build --format {f}", [qbc, "build", "--format", f, "-o", "out", "bench.qb"])
                    for f in fmts]:
                lock = os.path.join(d, "bench.lock")
                if os.path.exists(lock) and name != "check":
                    os.remove(lock)
                # The first run of a build writes the revision record; the
                # next ones are rebuilds with the record present.
                first, rss = run(cmd, d)
                rows = [(name, first, rss)]
                if name != "check":
                    again = [run(cmd, d) for _ in range(2)]
                    rows = [(name + " (first)", first, rss),
                            (name + " (again)", min(a[0] for a in again), again[-1][1])]
                for label, dt, r in rows:
                    print(f"{n:>9} {label:<32} {dt:>8.3f} {n / dt:>9.0f} {r / 1024:>12.1f}")
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    main()
