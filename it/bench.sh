#!/usr/bin/env bash
# Runs the side-by-side benchmarks and writes docs/BENCHMARKS.md (never part of mvn test / verify):
#   it/bench.sh [election|xds|startup|all|report] [--quick] [--reps N] [--streams N,N] [--changes N]
# election: Holdfast's LeaderElector vs fabric8's on the emulated API behind fault proxies (fast profile 4/3/1 s
#           and the default 15/10/2 s, 5 repetitions; --quick: fast only, 1). Full: about 15 min.
# xds:      XdsServer+XdsCache vs java-control-plane SimpleCache, 1,000 and 10,000 ADS streams (SotW and delta,
#           2 repetitions of 50 changes; --quick: 1,000 streams, 10 changes) from a child JVM,
#           plus 100 NACKing streams, all on loopback. Full: about 30 min.
#           --streams N,N sets the stream counts, --reps N the repetitions, --changes N the measured changes.
# startup:  time from `java` process start to an ADS client receiving a restored 10k-route snapshot, child JVMs
#           with and without an AppCDS archive (7 starts each; --quick: 1). About 1 min.
# all:      all three, and the JMH translation benchmark first (it/bench-translation.sh, about 3 min) unless
#           SKIP_JMH=1 or --quick (then its last results are kept).
# report:   measures nothing; assembles docs/BENCHMARKS.md again from the latest results (e.g. after
#           it/bench-translation.sh).
# --quick:  a sanity check under 3 minutes for `all`; it writes it/target/BENCHMARKS-quick.md and leaves
#           docs/BENCHMARKS.md alone. A full run of one section rewrites that section of docs/BENCHMARKS.md and
#           keeps the others.
# MAVEN_ARGS adds Maven flags (default none, so a fresh machine resolves plugins as the README's commands do;
# MAVEN_ARGS=-o for offline once ~/.m2 is filled). The dependency plugin is named by its full coordinates, so
# its prefix never has to be resolved from remote plugin-group metadata. BENCH_JAVA_OPTS adds flags to the
# server JVM, e.g. BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=it/target/bench.jfr to profile the fan-out.
set -euo pipefail
cd "$(dirname "$0")/.."

what=all
quick=0
for a in "$@"; do
  case "$a" in
    election|xds|startup|all|report) what="$a" ;;
    --quick) quick=1 ;;
  esac
done

# shellcheck disable=SC2086 # MAVEN_ARGS is a list of flags
mvn -B -q ${MAVEN_ARGS:-} -pl it -am -DskipTests package \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=runtime

if [[ "$what" == all && "${SKIP_JMH:-0}" != 1 && "$quick" == 0 ]]; then
  MAVEN_ARGS="${MAVEN_ARGS:-}" it/bench-translation.sh 1>&2
fi

# shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of flags
exec java -Xms2g -Xmx2g ${BENCH_JAVA_OPTS:-} -Dlogback.configurationFile=logback-it.xml -Dbench.command="it/bench.sh $*" \
  -cp "it/target/classes:$(cat it/target/bench.classpath)" io.holdfast.it.bench.BenchMain "$@" --root .
