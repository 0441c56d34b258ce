#!/usr/bin/env bash
# Probe: a paused leader (issue 18). Three real `bin/lake server` processes on dynoxide (DynamoDB) + s3proxy (S3)
# with short leases; client threads stream ingests (each with its own idempotency key) through the nodes that are
# not paused while the current leader is paused with SIGSTOP for longer than its lease and resumed with SIGCONT,
# round after round (bounded). Prints, per fault, the longest write stall and the storage commits the resumed node
# made while it was not the leader, and a SUMMARY line (acknowledged, lost, duplicated, storage commits by a
# non-leader). Exits 1 on a violation (a lost or duplicated ingest, a storage commit by a non-leader, an INTERNAL
# answer). Not part of the test suite.
#
#   verification/probes/pause-resume.sh [--rounds 3] [--clients 4] [--pause-ms 8000]
#
# The Java side is dev.lake.it.probes.PauseResumeProbe (lake-it test sources). Needs `npm ci` (dynoxide) and the
# server jar.
# MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_probe pause-resume dev.lake.it.probes.PauseResumeProbe --dir nodes "$@"
