#!/usr/bin/env bash
# Builds the xds and it modules and runs TranslationBenchmark briefly (1k and 10k routes: validate+translate and
# translate only with a fresh translator, and incremental re-translation of an edit; 5 warm-up and 3 measured 2 s
# iterations in one fork, about 3 min: the 10k case needs the warm-up), printing JMH's result table, then
# TranslationCpuTime (the same operations in thread CPU time). Extra arguments go to JMH, e.g. `-p routes=1000` or `-wi 10`.
# MAVEN_ARGS adds Maven flags (e.g. MAVEN_ARGS=-o for offline).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2086 # MAVEN_ARGS is a list of flags
# The dependency plugin is named by its full coordinates so its prefix never has to be resolved (see it/bench.sh).
mvn -B -q ${MAVEN_ARGS:-} -pl it -am -DskipTests package \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=runtime

java -Dlogback.configurationFile=logback-it.xml -cp "it/target/classes:$(cat it/target/bench.classpath)" org.openjdk.jmh.Main \
  'io.holdfast.it.bench.TranslationBenchmark' -wi 5 -w 2 -i 3 -r 2 -f 1 -rf text -rff it/target/bench-translation.txt "$@"
# The same operations for 10k routes in CPU time of the benchmark thread (robust on a shared machine), about 30 s.
java -Xms1g -Xmx1g -Dlogback.configurationFile=logback-it.xml -cp "it/target/classes:$(cat it/target/bench.classpath)" io.holdfast.it.bench.TranslationCpuTime \
  | grep -v -e " |-INFO" -e " |-WARN" | tee it/target/bench-translation-cpu.txt
