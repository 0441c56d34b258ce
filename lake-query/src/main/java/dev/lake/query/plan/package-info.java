/**
 * Planning: the Arrow/SQL type mapping, lake's Calcite type system, the per-statement schema {@code lake.main},
 * Lance scans and the rules that push projections, filters and limits into them, the Lance filter translator,
 * parameter binding, the choice between pass-through and Calcite's Enumerable runtime, and compiled plans that hold
 * nothing of an execution (scan sources are bound per execution), so they can be cached.
 */
package dev.lake.query.plan;
