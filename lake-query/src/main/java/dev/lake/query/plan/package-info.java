/**
 * Planning: the Arrow/SQL type mapping, lake's Calcite type system, the per-statement schema {@code lake.main},
 * Lance scans and the rules that push projections, filters and limits into them, the Lance filter translator,
 * parameter binding, and the choice between pass-through and Calcite's Enumerable runtime.
 */
package dev.lake.query.plan;
