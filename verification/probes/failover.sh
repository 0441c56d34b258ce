#!/usr/bin/env bash
# Probe: failover loses nothing (design.md invariant 10). Three real `bin/lake server` processes on dynoxide
# (DynamoDB) + s3proxy (S3) with short leases; client threads stream ingests (each with its own idempotency key)
# through all nodes while the current leader is killed with SIGKILL again and again (each victim restarts and
# rejoins). Every unacknowledged ingest is retried with the same key on another node. Checks that every ingest is
# present exactly once on every node and that every version the registry names is readable. Exits 1 on a violation.
# Not part of the test suite.
#
#   verification/probes/failover.sh [--kills 3] [--clients 4]
#
# The Java side is dev.lake.it.probes.FailoverProbe (lake-it test sources). Needs `npm ci` (dynoxide) and the
# server jar. MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MVN_FLAGS="${MVN_FLAGS--o}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lake-failover.XXXXXX")"
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
  dev.lake.it.probes.FailoverProbe --dir "$WORK/nodes" "$@"
