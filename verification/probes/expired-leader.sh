#!/usr/bin/env bash
# Probe: an expired leader must not write, not even once (docs/design.md invariant 5). Two real `bin/lake server`
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
# server jar.
# MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_probe expired-leader dev.lake.it.probes.ExpiredLeaderProbe --dir nodes "$@"
