#!/usr/bin/env bash
# Probe: an expired leader must not write, not even once (design.md invariant 5). Two real `bin/lake server`
# processes on dynoxide (DynamoDB) + s3proxy (S3) with short leases. Each round sends an ingest straight to the
# leader, freezes the leader with SIGSTOP while it writes (mid-stream, or after a random 0-400 ms: anywhere between
# its write gate and its registry write), lets the other node take over and commit to another table, then SIGCONT.
# Checks that the frozen leader changes nothing after the take-over, that acknowledged means committed, that the
# resumed node demotes itself, and that every registered version is readable. Exits 1 on a violation.
# Not part of the test suite.
#
#   verification/probes/expired-leader.sh [--rounds 6] [--seed N]
#
# The Java side is dev.lake.it.probes.ExpiredLeaderProbe (lake-it test sources). Needs `npm ci` (dynoxide) and the
# server jar. MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MVN_FLAGS="${MVN_FLAGS--o}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lake-expired-leader.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

if [[ ! -f lake-flight-server/target/lake-server.jar && ! -f lib/lake-server.jar ]]; then
  echo "probe: building the server jar" >&2
  ./mvnw -B -q $MVN_FLAGS -DskipTests package -pl lake-flight-server -am >&2
fi
echo "probe: compiling lake-it test classes and resolving the classpath" >&2
./mvnw -B -q $MVN_FLAGS -pl lake-it test-compile >&2
./mvnw -B -q $MVN_FLAGS -pl lake-it dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/classpath.txt" >&2

mkdir -p "$WORK/tmp" "$WORK/nodes"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$JAVA" --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$WORK/tmp" -Duser.timezone=UTC \
  -Dlake.project.root="$ROOT" \
  -cp "$ROOT/lake-it/target/test-classes:$(cat "$WORK/classpath.txt")" \
  dev.lake.it.probes.ExpiredLeaderProbe --dir "$WORK/nodes" "$@"
