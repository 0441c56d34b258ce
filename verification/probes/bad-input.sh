#!/usr/bin/env bash
# Probe: at least 1,000 malformed or hostile requests against a real `bin/lake server` process — random and mutated
# SQL, truncated and bit-flipped protobufs, garbage tickets and handles, oversized metadata, wrong credentials,
# hostile action bodies and ingests — reporting crashes, hangs and answers outside docs/design.md's status table
# (INTERNAL and UNKNOWN count as wrong for bad input). Not part of the test suite. Exits 1 unless all three are zero
# and the server still answers a valid query afterwards.
#
#   verification/probes/bad-input.sh [--requests 1500] [--threads 4] [--seed N] [--deadline-seconds 30]
#
# The Java side is dev.lake.it.probes.BadInputProbe (lake-it test sources): it writes a config with three users
# (reader, writer, admin), starts `bin/lake server --port 0 --data-dir <tmp> --config <file>`, sets up two tables,
# a ticket, a prepared statement and a spooled result, fires the requests from several threads, checks the server
# still answers, and stops it with SIGTERM.
# MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_probe bad-input dev.lake.it.probes.BadInputProbe --data-dir data/lake "$@"
