/** Configuration: one YAML file, overridden by LAKE_* environment variables, overridden by CLI flags. */
package dev.lake.flight.config;
