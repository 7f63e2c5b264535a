#!/usr/bin/env bash
# Runs the demo, io.holdfast.it.demo.DemoMain (the outage story: emulated Kubernetes API, three replicas, a backend and a grpc-java xDS
# client, the leader cut off, then everyone, then recovery; under 90 s) with what it needs on the class path:
# the server, the test kit's emulated API and grpc-xds, as the it module's test class path has them.
# MAVEN_ARGS adds Maven flags (e.g. MAVEN_ARGS=-o for offline).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2086 # MAVEN_ARGS is a list of flags
mvn -B -q ${MAVEN_ARGS:-} -pl it -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile="$PWD/it/target/demo.classpath" -Dmdep.includeScope=test

exec java -Dlogback.configurationFile=logback-it.xml -cp "it/target/classes:$(cat it/target/demo.classpath)" io.holdfast.it.demo.DemoMain "$@"
