#!/usr/bin/env bash
# Builds the xds and it modules and runs TranslationBenchmark briefly (1k and 10k routes, validate+translate and
# translate only; 5 warm-up and 3 measured 2 s iterations in one fork, about 90 s: the 10k case needs the
# warm-up), printing JMH's result table. Extra arguments go to JMH, e.g. `-p routes=1000` or `-wi 10`.
# MAVEN_ARGS adds Maven flags (e.g. MAVEN_ARGS=-o for offline).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2086 # MAVEN_ARGS is a list of flags
mvn -B -q ${MAVEN_ARGS:-} -pl it -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=runtime

exec java -cp "it/target/classes:$(cat it/target/bench.classpath)" org.openjdk.jmh.Main \
  'io.holdfast.it.bench.TranslationBenchmark' -wi 5 -w 2 -i 3 -r 2 -f 1 -rf text -rff it/target/bench-translation.txt "$@"
