package dev.lake.registry;

import java.util.List;
import java.util.Optional;

/** One page of a listing; {@code next} is the cursor (exclusive start) of the following page, if any. */
public record Page<T>(List<T> items, Optional<String> next) {
  public Page {
    items = List.copyOf(items);
  }
}
