#!/usr/bin/env bash
# Probe: the resource attacks of issue 17 against a real `bin/lake server` process on loopback, each bounded in time
# (--seconds, 8 by default): oversized HTTP/2 headers without credentials, a failed-login flood, DoGets whose reader
# stops reading, a PollFlightInfo spool flood, queries past their timeout (LIKE backtracking, a cross join) and
# DoPuts that never send a first message. For each it prints the victim client's `SELECT count(*)` median latency
# before, during and after the attack and whether the node recovered (it answers, and its latency is back near the
# baseline within 30 s). Not part of the test suite. Exits 1 unless the node recovered from every attack.
#
#   verification/probes/resource-abuse.sh [--seconds 8]
#
# The Java side is dev.lake.it.probes.ResourceAbuseProbe (lake-it test sources). It uses the server jar under
# lake-flight-server/target (rebuild it with `./mvnw -o -q -DskipTests -Dassembly.skipAssembly=true package -pl
# lake-flight-server -am` after changing the server). MVN_FLAGS defaults to -o (offline, using ~/.m2).
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_probe resource-abuse dev.lake.it.probes.ResourceAbuseProbe --data-dir data/lake "$@"
