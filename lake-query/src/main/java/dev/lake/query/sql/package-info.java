/**
 * The SQL surface: parsing with lake's lexical rules, the read-only statement policy, and the rewrite of
 * FOR SYSTEM_TIME AS OF into table references. Echoed input in messages is
 * truncated.
 */
package dev.lake.query.sql;
