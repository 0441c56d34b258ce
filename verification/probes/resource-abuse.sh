#!/usr/bin/env bash
# Probe: the resource attacks of issue 17 against a real `bin/lake server` process on loopback, each bounded in time
# (--seconds, 12 by default; the node runs with query.timeout 10s): oversized HTTP/2 headers without credentials, a failed-login flood, DoGets whose reader
# stops reading, a PollFlightInfo spool flood, queries past their timeout (LIKE backtracking, a cross join) and
# DoPuts that never send a first message. For each it prints the victim client's `SELECT count(*)` median latency
# before, during and after the attack and whether the node recovered (it answers, and its latency is back near the
# baseline within 30 s). Not part of the test suite. Exits 1 unless the node recovered from every attack.
#
#   verification/probes/resource-abuse.sh [--seconds 12]
#
# The Java side is dev.lake.it.probes.ResourceAbuseProbe (lake-it test sources). The server jar and lake-it's test
# classes are built in one reactor (-pl lake-it -am, -DskipTests, into target/ only), so the probe always runs the
# checkout's code. MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
mvn_flags="${MVN_FLAGS--o}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lake-resource-abuse.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
echo "probe: building the server jar and lake-it's test classes" >&2
# shellcheck disable=SC2086
./mvnw -B -q $mvn_flags -Dassembly.skipAssembly=true -DskipTests -pl lake-it -am package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/classpath.txt" >&2
mkdir -p "$WORK/tmp" "$WORK/data"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$java" --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$WORK/tmp" -Duser.timezone=UTC \
  -Dlake.project.root="$root" -cp "$root/lake-it/target/test-classes:$(cat "$WORK/classpath.txt")" \
  dev.lake.it.probes.ResourceAbuseProbe --data-dir "$WORK/data/lake" "$@"
