/**
 * The SQL surface: parsing with lake's lexical rules and the read-only statement policy. Echoed input in messages is
 * truncated.
 */
package dev.lake.query.sql;
