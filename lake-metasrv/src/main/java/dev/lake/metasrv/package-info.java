/**
 * The write coordinator: per-table locks, the write gate (leadership), the commit protocol of docs/design.md
 * invariant 2 (restore unregistered data commits, commit on the version read, check what lies between, one atomic
 * registry write before acknowledging), and maintenance. Imports lake-registry and lake-engine-lance only; never
 * plans SQL.
 */
package dev.lake.metasrv;
