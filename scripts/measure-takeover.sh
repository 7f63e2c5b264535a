#!/usr/bin/env bash
# Measures elector takeover times (kill, graceful shutdown, cut-off by blackhole and reset) over several runs
# of ElectionFaultIT against the emulated API, and prints the median of each figure.
# Usage: scripts/measure-takeover.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
out=$(mktemp)
for i in $(seq 1 "$runs"); do
  mvn -q -B -o verify -pl election -am -Dit.test=ElectionFaultIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false >/dev/null
  grep -h '^FIGURE' election/target/failsafe-reports/io.holdfast.election.ElectionFaultIT-output.txt >>"$out"
done
python3 - "$out" "$runs" <<'PY'
import re, statistics, sys, collections
vals = collections.defaultdict(list)
for line in open(sys.argv[1]):
    parts = line.split()
    for kv in parts[2:]:
        k, v = kv.split('=')
        vals[f"{parts[1]} {k}"].append(int(v))
print(f"| figure (lease 2s, renew 1.5s, retry 0.3s; graceful: 4/3/1s) | median ms | min | max | runs |")
print("|---|---|---|---|---|")
for k, v in vals.items():
    print(f"| {k} | {statistics.median(v):.0f} | {min(v)} | {max(v)} | {len(v)} |")
PY
rm -f "$out"
