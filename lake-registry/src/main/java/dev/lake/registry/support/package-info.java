/**
 * Implementation helpers shared by the registry backends: argument checks every backend applies the same way,
 * bounded retry with backoff. Not an API for other modules.
 */
package dev.lake.registry.support;
