/**
 * Transport security and location allowlists: TLS from PEM files (optionally requiring client certificates, whose
 * subject can then authenticate a configured user), the rule that plaintext is served only on loopback unless
 * explicitly allowed, the data-root allowlist that keeps every engine operation under the configured root, the
 * transport of node-to-node calls (mutual TLS), and what one client may cost a node ({@link GuardSettings}).
 */
package dev.lake.flight.security;
