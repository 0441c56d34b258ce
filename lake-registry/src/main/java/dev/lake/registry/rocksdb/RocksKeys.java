package dev.lake.registry.rocksdb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key layout: one ASCII letter per item kind, then the item's identity, NUL-separated. Table names are
 * lower-case identifiers and generations contain no NUL, so byte order is name order and every listing is a
 * bounded iterator over one prefix.
 *
 * <pre>
 *   m\0format                              layout version
 *   l\0lease                               the leader lease
 *   r\0{name}                              registration
 *   h\0{name}\0{generation}\0{%020d ver}   history item
 *   k\0{name}\0{generation}\0{key}         idempotency record
 *   t\0{name}\0{generation}                tombstone
 *   n\0{nodeId}                            node heartbeat
 *   p\0{pinId}                             snapshot pin
 * </pre>
 */
final class RocksKeys {
  static final byte[] FORMAT = bytes("m\0format");
  static final byte[] LEASE = bytes("l\0lease");
  static final byte[] REGISTRATIONS = bytes("r\0");
  static final byte[] TOMBSTONES = bytes("t\0");
  static final byte[] NODES = bytes("n\0");
  static final byte[] PINS = bytes("p\0");

  private RocksKeys() {}

  static byte[] registration(String name) {
    return bytes("r\0" + name);
  }

  static byte[] historyPrefix(String name, String generation) {
    return bytes("h\0" + name + "\0" + generation + "\0");
  }

  static byte[] history(String name, String generation, long version) {
    return bytes("h\0" + name + "\0" + generation + "\0" + String.format("%020d", version));
  }

  static byte[] keyPrefix(String name, String generation) {
    return bytes("k\0" + name + "\0" + generation + "\0");
  }

  static byte[] key(String name, String generation, String key) {
    return bytes("k\0" + name + "\0" + generation + "\0" + key);
  }

  static byte[] tombstone(String name, String generation) {
    return bytes("t\0" + name + "\0" + generation);
  }

  static byte[] pin(String id) {
    return bytes("p\0" + id);
  }

  static byte[] node(String nodeId) {
    return bytes("n\0" + nodeId);
  }

  /** {@code prefix + suffix}: where a listing resumes. */
  static byte[] concat(byte[] prefix, String suffix) {
    byte[] tail = bytes(suffix);
    byte[] out = Arrays.copyOf(prefix, prefix.length + tail.length);
    System.arraycopy(tail, 0, out, prefix.length, tail.length);
    return out;
  }

  /** The smallest key greater than every key starting with {@code prefix} (prefixes end in NUL: never 0xFF). */
  static byte[] upperBound(byte[] prefix) {
    byte[] upper = prefix.clone();
    upper[upper.length - 1]++;
    return upper;
  }

  /** The part of {@code key} after {@code prefix}. */
  static String suffix(byte[] key, byte[] prefix) {
    return new String(key, prefix.length, key.length - prefix.length, StandardCharsets.UTF_8);
  }

  /** A readable form of a key for messages: the NUL separators shown as '/'. */
  static String describe(byte[] key) {
    return new String(key, StandardCharsets.UTF_8).replace('\0', '/');
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
