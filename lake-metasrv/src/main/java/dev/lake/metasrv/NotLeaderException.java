package dev.lake.metasrv;

/** This node may not write now (not the lease holder, or its lease deadline passed). Maps to UNAVAILABLE. */
public class NotLeaderException extends RuntimeException {
  public NotLeaderException(String message) {
    super(message);
  }
}
