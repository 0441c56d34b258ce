#!/usr/bin/env bash
# Probe: failover loses nothing (docs/design.md invariant 10). Three real `bin/lake server` processes on dynoxide
# (DynamoDB) + s3proxy (S3) with short leases; client threads stream ingests (each with its own idempotency key)
# through all nodes while the current leader is killed with SIGKILL again and again (each victim restarts and
# rejoins). Every unacknowledged ingest is retried with the same key on another node. Checks that every ingest is
# present exactly once on every node and that every version the registry names is readable. Exits 1 on a violation.
# Not part of the test suite.
#
#   verification/probes/failover.sh [--kills 3] [--clients 4]
#
# The Java side is dev.lake.it.probes.FailoverProbe (lake-it test sources). Needs `npm ci` (dynoxide) and the
# server jar.
# MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_probe failover dev.lake.it.probes.FailoverProbe --dir nodes "$@"
