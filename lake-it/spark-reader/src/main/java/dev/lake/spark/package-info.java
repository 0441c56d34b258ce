/**
 * The Spark side of lake's Lance REST Namespace: {@link dev.lake.spark.LakeCatalog}, lance-spark's namespace catalog
 * with every write refused inside Spark (docs/operations.md, "When one node is not enough"), and a line-oriented SQL
 * runner that lake's tests (and an operator trying the recipe) start in a JVM of its own, because lance-spark 0.4.0
 * is built on lance-core 4.0.0 and cannot share lake's class path.
 */
package dev.lake.spark;
