#!/usr/bin/env bash
# Measures `holdfast validate` on every hostile input of the corpus (server/src/test/.../hostile/HostileCorpus.java):
# time, peak heap and the verdict's first matching line, each in a fresh JVM with -Xmx256m and a time cap.
#
#   scripts/hostile-inputs.sh JAR [LABEL]   # JAR: a built server/target/holdfast.jar (any revision)
#
# Before/after: build the jar of the old revision elsewhere (git archive REV | tar -x -C DIR; cd DIR;
# mvn -o -q -pl server -am package -DskipTests) and run this script with each jar.
set -euo pipefail
jar=$(realpath "$1")
label=${2:-$(basename "$(dirname "$(dirname "$jar")")")}
cap=${HOSTILE_CAP_SECONDS:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/server/src/test/java/io/holdfast/server/hostile
javac -d "$work/classes" -cp "$jar" "$src/HostileCorpus.java" "$src/ValidateProbe.java"
cp -r "$here/server/src/test/resources/hostile" "$work/classes/"
java -cp "$work/classes" io.holdfast.server.hostile.HostileCorpus "$work/corpus" > /dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-24s %-8s %10s %8s %9s  %s\n' input "($label)" "wall ms" "cpu ms" "heap MiB" verdict
for file in "$work"/corpus/*.yaml; do
  name=$(basename "$file" .yaml)
  set +e
  timeout -s KILL "$cap" java -Xmx256m -cp "$work/classes:$jar" io.holdfast.server.hostile.ValidateProbe "$file" \
    > "$work/out" 2> "$work/err"
  code=$?
  set -e
  probe=$(grep '^PROBE' "$work/err" || true)
  if [ -z "$probe" ]; then
    time="> ${cap}000"; cpu="?"; heap="?"; outcome="killed"
  else
    time=$(sed -E 's/.*elapsedMs=([0-9]+).*/\1/' <<<"$probe")
    heap=$(sed -E 's/.*peakHeapMiB=([0-9]+).*/\1/' <<<"$probe")
    cpu=$(sed -E 's/.*cpuMs=([0-9]+).*/\1/' <<<"$probe")
    outcome=$(sed -E 's/^PROBE ([^ ]+).*/\1/' <<<"$probe")
  fi
  traces=$(cat "$work/out" "$work/err" | grep -c $'^\tat ' || true)
  verdict=$(grep -m1 -oE '(RegexTooComplex|DelegationTooDeep|TooManyRoutes|DuplicateDomain|InvalidDomain|YAML aliases are not supported|nesting depth[^;]{0,40}|OutOfMemoryError|StackOverflowError|InvalidRegex)' \
    "$work/out" "$work/err" 2>/dev/null | head -1 | sed -E 's/^[^:]*://' || true)
  printf '%-24s %-8s %10s %8s %9s  %s%s\n' "$name" "$outcome" "$time" "$cpu" "$heap" "${verdict:-(no named reason)}" \
    "$([ "$traces" -gt 0 ] && echo " [stack trace: $traces lines]")"
done
