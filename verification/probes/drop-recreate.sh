#!/usr/bin/env bash
# Probe: concurrent drop / recreate / append rounds against a real `bin/lake server` process (design.md
# invariants 3, 4 and 10), then checks the outcomes against the SQL answers, the registry and the Lance datasets.
# Not part of the test suite. Prints counts of each outcome code and every violated check; exits 1 on a violation.
#
#   verification/probes/drop-recreate.sh [--rounds 500] [--threads 8] [--tables 4] [--seed N]
#
# The Java side is dev.lake.it.probes.DropRecreateProbe (lake-it test sources): it starts
# `bin/lake server --port 0 --data-dir <tmp>`, runs the rounds with 8 Flight SQL clients, queries every table,
# stops the server with SIGTERM, then reads the RocksDB registry and every registered Lance version.
# MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MVN_FLAGS="${MVN_FLAGS--o}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lake-drop-recreate.XXXXXX")"
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

mkdir -p "$WORK/tmp" "$WORK/data"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$JAVA" --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$WORK/tmp" -Duser.timezone=UTC \
  -Dlake.project.root="$ROOT" \
  -cp "$ROOT/lake-it/target/test-classes:$(cat "$WORK/classpath.txt")" \
  dev.lake.it.probes.DropRecreateProbe --data-dir "$WORK/data/lake" "$@"
