#!/usr/bin/env bash
# Runs the side-by-side benchmarks and writes docs/BENCHMARKS.md (never part of mvn test / verify):
#   it/bench.sh [election|xds|startup|all] [--quick] [--reps N]
# election: Holdfast's LeaderElector vs fabric8's on the emulated API behind fault proxies (fast profile 4/3/1 s
#           and the default 15/10/2 s, 5 repetitions; --quick: fast only, 3). Full: about 15 min; quick: about 3 min.
# xds:      XdsServer+XdsCache vs java-control-plane SimpleCache, 100 and 1,000 ADS streams from a child JVM,
#           plus 100 NACKing streams, all on loopback. About 2 min.
# startup:  time from `java` process start to an ADS client receiving a restored 10k-route snapshot, child JVMs
#           with and without an AppCDS archive (7 starts each; --quick: 3). About 1 min.
# all:      all three, and the JMH translation benchmark first (it/bench-translation.sh, about 90 s) unless
#           SKIP_JMH=1 (then its last results file, if any, is included).
# MAVEN_ARGS adds Maven flags (default -o, offline).
set -euo pipefail
cd "$(dirname "$0")/.."

what=all
for a in "$@"; do
  case "$a" in election|xds|startup|all) what="$a" ;; esac
done

# shellcheck disable=SC2086 # MAVEN_ARGS is a list of flags
mvn -B -q ${MAVEN_ARGS:--o} -pl it -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=runtime

if [[ "$what" == all && "${SKIP_JMH:-0}" != 1 ]]; then
  MAVEN_ARGS="${MAVEN_ARGS:--o}" it/bench-translation.sh 1>&2
fi

exec java -Xms2g -Xmx2g -Dbench.command="it/bench.sh $*" \
  -cp "it/target/classes:$(cat it/target/bench.classpath)" io.holdfast.it.bench.BenchMain "$@" --root .
