/**
 * Runtime filters (semi-join reduction) for Calcite's hash joins: which scans take the keys a join's build side
 * collects ({@link dev.lake.query.plan.runtime.RuntimeFilterPlanner}) and the node that collects them. The filter and
 * key types a scan reads at run time are part of the scan ({@code plan.lance}).
 *
 * <p>Rules: imports {@code plan.lance} and {@code plan.types} only.
 */
package dev.lake.query.plan.runtime;
