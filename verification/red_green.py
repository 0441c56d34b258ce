#!/usr/bin/env python3
"""RED/GREEN evidence: for each acceptance test, remove the mechanism it pins (a one-line mutation of the
production code), show the test fails (RED), restore the code and show it passes (GREEN).

Usage: python3 verification/red_green.py [ISSUE] [TEST_NAME ...]   (offline build)

Each run builds the test's module with its upstream modules in one reactor (`-pl <module> -am`), so nothing is
installed into ~/.m2 and a checkout can be mutated without disturbing other builds; run it in its own clone.
Writes verification/red-green-<issue>.md. Each mutation must match its file exactly once, or the run stops.
"""
import subprocess, sys, time, pathlib, re

ROOT = pathlib.Path(__file__).resolve().parent.parent
MVN = [str(ROOT / "mvnw"), "-B", "-o"]

# (issue, test module, test selector, module to rebuild, file, old, new, what the mutation removes)
MUTATIONS = [
    ("2", "lake-it", "CommitProtocolTest#foreignLanceCommitIsNeverRegistered", "lake-engine-lance",
     "lake-engine-lance/src/main/java/dev/lake/engine/NeutralityCheck.java",
     "Optional<VersionOperation> foreign = between.stream().filter(v -> !v.dataNeutral()).findFirst();",
     "Optional<VersionOperation> foreign = Optional.empty();",
     "the engine's check that every version between the read version and the new one is data-neutral"),
    ("2", "lake-it", "CommitProtocolTest#failedIngestRowsNeverAppear", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/CommitRule.java",
     "if (unregistered.isEmpty()) {", "if (true) {",
     "the restore of the registered version when Lance holds unregistered data commits"),
    ("2", "lake-it", "CommitProtocolTest#ingestIsAcknowledgedOnlyAfterRegistryCas", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/WriteCoordinator.java",
     """          throw new WriteConflictException("the registration of '" + table + "' changed during the commit (another "
              + "leader?); version " + version + " was not registered and nothing was acknowledged: retry", e);""",
     """          return new WriteResult(next, staged.rowCount(), false);""",
     "failing the ingest when its registry CAS fails (acknowledging regardless)"),
    ("2", "lake-it", "FlightSqlEndToEndTest#badInputGetsClearErrors", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/StatusMapper.java",
     "|| e instanceof InvalidTicketException ", "",
     "the mapping of malformed tickets to INVALID_ARGUMENT"),
    ("2", "lake-it", "FlightSqlEndToEndTest#jdbcClientIngestsAndQueriesThroughFlightSql", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/LakeFlightSqlProducer.java",
     "MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);",
     "out.write(MessageSerializer.serializeMetadata(schema).array());",
     "the IPC framing of the prepared statement's schemas (the first bug the JDBC driver found)"),
    ("2", "lake-it", "FlightSqlEndToEndTest#preparedStatementBindsParameters", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/LakeFlightSqlProducer.java",
     "bound = ArrowParameters.row(root, 0);", "bound = List.of();",
     "binding the parameter values a client sends into the statement handle"),
    ("2", "lake-it", "JdbcMetadataTest#allDatabaseMetaDataGettersAnswer", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/metadata/LakeSqlInfo.java",
     'a.put(SqlInfo.FLIGHT_SQL_SERVER_NAME, utf8("lake"));', 'a.put(SqlInfo.FLIGHT_SQL_SERVER_NAME, utf8("other"));',
     "the truthful product name in GetSqlInfo"),
    ("2", "lake-it", "SqllineTest#sqllineSessionListsTablesAndQueries", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/metadata/FlightSqlMetadata.java",
     'public static final String TABLE_TYPE = "TABLE";', 'public static final String TABLE_TYPE = "VIEW";',
     "the TABLE type in GetTables (sqlline's !tables then shows the wrong type)"),
    ("2", "lake-engine-lance", "AlignedBatchesTest#misalignedBuffersAreAlignedBeforeLanceReadsThem", "lake-engine-lance",
     "lake-engine-lance/src/main/java/dev/lake/engine/CountingReader.java",
     "        AlignedBatches.align(root, allocator);", "",
     "aligning misaligned Flight buffers before Lance's native code reads them (without it the JVM aborts)"),
    ("2", "lake-query", "QueryServiceSnapshotTest#tableProviderReadsRequestedSnapshot", "lake-query",
     "lake-query/src/main/java/dev/lake/query/exec/QueryResources.java",
     "TableSnapshot snapshot = engine.open(pin.location(), pin.version(), allocator);",
     "TableSnapshot snapshot = engine.open(pin.location(), engine.latestVersion(pin.location()), allocator);",
     "opening exactly the pinned version (Lance's latest is opened instead)"),
    ("2", "lake-it", "FlightSqlEndToEndTest#readOnlySurfaceRejectsDdlAndDml", "lake-query",
     "lake-query/src/main/java/dev/lake/query/sql/SqlSurfacePolicy.java",
     "    if (!QUERY_KINDS.contains(kind)) {", "    if (false) {",
     "the read-only statement policy (a parsed INSERT/UPDATE/... goes on to validation)"),
]


def run(cmd, log):
    """Runs cmd, appending its output to log; returns (exit code, the output of this run)."""
    start = pathlib.Path(log).stat().st_size if pathlib.Path(log).exists() else 0
    with open(log, "a") as f:
        f.write("\n$ " + " ".join(cmd) + "\n")
        f.flush()
        rc = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT).returncode
    with open(log, "rb") as f:
        f.seek(start)
        return rc, f.read().decode("utf-8", "replace")


def summary(text):
    runs = re.findall(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Time|$)", text, re.M)
    crashed = "Crashed tests" in text or "panicked" in text
    if runs:
        t, f, e, s = runs[-1]
        return f"tests {t}, failures {f}, errors {e}" + (", JVM crashed" if crashed else "")
    return "JVM crashed" if crashed else "no test summary (build failed)"


def main():
    issue = sys.argv[1] if len(sys.argv) > 1 else "2"
    only = set(sys.argv[2:])
    rows = []
    log = ROOT / "verification" / f"red-green-{issue}.log"
    log.write_text("")
    for (iss, test_module, selector, module, path, old, new, what) in MUTATIONS:
        if iss != issue or (only and selector.split("#")[1] not in only):
            continue
        file = ROOT / path
        original = file.read_text()
        if original.count(old) != 1:
            sys.exit(f"mutation for {selector} does not match {path} exactly once")
        test_cmd = MVN + ["-pl", test_module, "-am", "test", f"-Dtest={selector}",
                          "-Dsurefire.failIfNoSpecifiedTests=false"]
        try:
            file.write_text(original.replace(old, new))
            red_rc, out = run(test_cmd, log)
            red = summary(out)
        finally:
            file.write_text(original)
        green_rc, out = run(test_cmd, log)
        green = summary(out)
        rows.append((selector, what, red_rc, red, green_rc, green))
        print(f"{selector}: RED rc={red_rc} ({red}); GREEN rc={green_rc} ({green})", flush=True)
    out = ROOT / "verification" / f"red-green-{issue}.md"
    with open(out, "w") as f:
        f.write(f"# RED/GREEN for issue {issue}\n\nGenerated by `python3 verification/red_green.py {issue}`: each "
                "row removes one mechanism (RED: the test must fail), then restores it (GREEN: it must pass).\n\n")
        f.write("| test | mechanism removed for RED | RED | GREEN |\n|---|---|---|---|\n")
        for (sel, what, rrc, red, grc, green) in rows:
            f.write(f"| `{sel}` | {what} | {'FAIL' if rrc else 'PASS (!)'}: {red} | "
                    f"{'PASS' if grc == 0 else 'FAIL (!)'}: {green} |\n")
    print(f"wrote {out}")
    bad = [r for r in rows if r[2] == 0 or r[4] != 0]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
