#!/usr/bin/env bash
# Probe: concurrent drop / recreate / append rounds against a real `bin/lake server` process (docs/design.md
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

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_probe drop-recreate dev.lake.it.probes.DropRecreateProbe --data-dir data/lake "$@"
