/**
 * Transport security and location allowlists: TLS from PEM files (optionally requiring client certificates, whose
 * subject can then authenticate a configured user), the rule that plaintext is served only on loopback unless
 * explicitly allowed, and the data-root allowlist that keeps every engine operation under the configured root.
 */
package dev.lake.flight.security;
