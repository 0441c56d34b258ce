/**
 * lake's hostile-input fuzzer ({@link dev.lake.it.fuzz.HostileInputFuzzer}): seeded, bounded requests of every class
 * a client can send, judged against docs/api.md's status table; run in the suite and by {@code bin/lake fuzz}.
 */
package dev.lake.it.fuzz;
