package dev.lake.registry.dynamodb;

import dev.lake.registry.CommitStateUnknownException;
import dev.lake.registry.DuplicateIdempotencyKeyException;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.RegistryException;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.support.Failures;
import dev.lake.registry.support.RetryPolicy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/**
 * Runs a {@link DynamoMutation} as one {@code TransactWriteItems} and classifies how it ended.
 *
 * <ul>
 *   <li>Cancelled with only transient reasons (TransactionConflict, throttling), throttled, or refused before
 *       sending: nothing was written; retried with bounded backoff, then {@link RegistryUnavailableException}.
 *   <li>Cancelled on a condition: the lease check -> {@link dev.lake.registry.LeaseRejectedException}; the
 *       idempotency key -> {@link DuplicateIdempotencyKeyException} with the original record; the target item ->
 *       the mutation's conflict ({@code TableExistsException}, a moved registration...). Precedence in that order.
 *   <li>An attempt that may have landed without an answer (a lost response, a 5xx, a time-out, an SDK retry)
 *       makes every later condition failure ambiguous: the store re-reads; if the state carries this mutation's
 *       token it succeeded, otherwise {@link CommitStateUnknownException} — never a plain conflict, and since
 *       all attempts share one ClientRequestToken and every condition excludes a second application, never
 *       applied twice.
 * </ul>
 */
final class DynamoTransactions {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoTransactions.class);
  private static final Set<String> TRANSIENT_REASONS = Set.of(
      "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded");
  private static final String CONDITION_FAILED = "ConditionalCheckFailed";

  /**
   * Turns the SDK's own retries off for transactions: this class retries them itself, so it knows of every
   * attempt whether it may have landed (a connection refused did not; a lost response may have).
   */
  private static final SdkPlugin NO_SDK_RETRIES = config -> config.overrideConfiguration(
      config.overrideConfiguration().toBuilder().retryStrategy(AwsRetryStrategy.doNotRetry()).build());

  private final DynamoAccess access;

  DynamoTransactions(DynamoAccess access) {
    this.access = access;
  }

  void run(DynamoMutation m) {
    TransactWriteItemsRequest request = TransactWriteItemsRequest.builder()
        .transactItems(m.entries().stream().map(DynamoMutation.Entry::item).toList())
        .clientRequestToken(m.token())
        .overrideConfiguration(o -> o.addPlugin(NO_SDK_RETRIES))
        .build();
    RetryPolicy retry = access.retry;
    boolean mayHaveLanded = false;
    RuntimeException last = null;
    for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
      try {
        retry.pauseBefore(attempt, m.what());
      } catch (RegistryUnavailableException interrupted) {
        if (mayHaveLanded) throw unknown(m, "interrupted before the outcome was learnt", interrupted);
        throw interrupted;
      }
      if (mayHaveLanded && access.isClosed()) {
        throw unknown(m, "the registry was closed while the outcome was unknown", last);
      }
      access.ensureOpen(m.what());
      try {
        access.client.transactWriteItems(request);
        if (mayHaveLanded) LOG.info("registry write confirmed after retry op={} txn={}", m.what(), m.token());
        return;
      } catch (TransactionCanceledException e) {
        mayHaveLanded |= DynamoAccess.attempts(e) > 1;
        List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        if (!reasons.isEmpty() && reasons.stream().noneMatch(r -> CONDITION_FAILED.equals(r.code()))
            && reasons.stream().anyMatch(r -> TRANSIENT_REASONS.contains(r.code()))) {
          last = e;
          continue;
        }
        if (mayHaveLanded) {
          resolveAfterConditionFailure(m, reasons, e);
          return;
        }
        throw classify(m, reasons, e);
      } catch (TransactionInProgressException e) {
        mayHaveLanded = true;
        last = e;
      } catch (IdempotentParameterMismatchException e) {
        throw new IllegalStateException("client request token " + m.token() + " of " + m.what()
            + " was reused for a different request: a bug in lake", e);
      } catch (ResourceNotFoundException e) {
        if (mayHaveLanded) throw unknown(m, "the table disappeared", e);
        throw access.tableMissing(m.what(), e);
      } catch (DynamoDbException e) {
        mayHaveLanded |= DynamoAccess.attempts(e) > 1 || e.statusCode() >= 500;
        if (!DynamoAccess.throttled(e) && e.statusCode() < 500) {
          if (mayHaveLanded) {
            resolve(m, e);
            return;
          }
          throw new RegistryUnavailableException(m.what() + " was refused by DynamoDB (" + e.getMessage()
              + "); nothing was written", e);
        }
        last = e;
      } catch (SdkClientException e) {
        mayHaveLanded |= DynamoAccess.attempts(e) > 1 || !DynamoAccess.neverSent(e);
        last = e;
      } catch (RuntimeException e) {
        if (e instanceof RegistryException) throw e;
        if (mayHaveLanded) {
          resolve(m, e);
          return;
        }
        throw access.closedDuring(m.what(), e);
      }
      LOG.debug("registry transaction retry op={} attempt={} mayHaveLanded={} error={}", m.what(), attempt,
          mayHaveLanded, last.toString());
    }
    if (mayHaveLanded) {
      resolve(m, last);
      return;
    }
    throw access.unavailable(m.what(), last);
  }

  /** Returns when a re-read shows the mutation applied; throws {@link CommitStateUnknownException} otherwise. */
  private void resolve(DynamoMutation m, Exception cause) {
    RuntimeException outcome = unknownUnlessApplied(m, cause);
    if (outcome != null) throw outcome;
  }

  /** A condition failed after an attempt that may have landed: our own write, a real duplicate, or unknown. */
  private void resolveAfterConditionFailure(DynamoMutation m, List<CancellationReason> reasons, RuntimeException e) {
    RuntimeException outcome = unknownUnlessApplied(m, e);
    if (outcome == null) return;
    Optional<IdempotencyRecord> foreignKey = failedItem(m, reasons, DynamoMutation.Role.KEY)
        .filter(item -> !m.token().equals(DynamoItems.txn(item)))
        .map(DynamoItems::idempotency);
    if (foreignKey.isPresent()) throw new DuplicateIdempotencyKeyException(foreignKey.get());
    throw outcome;
  }

  /** Null when a consistent re-read shows this mutation applied; otherwise the exception to throw. */
  private RuntimeException unknownUnlessApplied(DynamoMutation m, Exception cause) {
    try {
      if (m.appliedAccordingTo(access)) {
        LOG.info("registry write recognised as applied by an earlier attempt op={} txn={}", m.what(), m.token());
        return null;
      }
      return unknown(m, "an earlier attempt got no answer and the registry does not show this write", cause);
    } catch (RuntimeException readFailure) {
      readFailure.addSuppressed(cause);
      return unknown(m, "an earlier attempt got no answer and the registry could not be re-read", readFailure);
    }
  }

  private CommitStateUnknownException unknown(DynamoMutation m, String why, Exception cause) {
    return new CommitStateUnknownException(m.what() + ": outcome unknown, " + why + " (request token "
        + m.token() + "); re-read the registration before acting, retry with the same idempotency key, and do "
        + "not delete anything this write would reference", cause);
  }

  private RuntimeException classify(DynamoMutation m, List<CancellationReason> reasons, RuntimeException e) {
    if (failed(m, reasons, DynamoMutation.Role.LEASE) || (reasons.isEmpty() && leaseMoved(m))) {
      LeaseFence fence = m.fence().orElseThrow();
      return Failures.leaseRejected(m.what(), fence,
          itemOf(m, reasons, DynamoMutation.Role.LEASE).map(DynamoItems::lease));
    }
    Optional<Map<String, AttributeValue>> key = failedItem(m, reasons, DynamoMutation.Role.KEY);
    if (key.isPresent()) return new DuplicateIdempotencyKeyException(DynamoItems.idempotency(key.get()));
    if (failed(m, reasons, DynamoMutation.Role.TARGET) || reasons.isEmpty()) {
      return m.targetFailed(itemOf(m, reasons, DynamoMutation.Role.TARGET));
    }
    return new RegistryUnavailableException(m.what() + " was cancelled by DynamoDB for reasons lake does not "
        + "expect (" + reasons + "); nothing was written", e);
  }

  private boolean leaseMoved(DynamoMutation m) {
    return m.fence().isPresent() && itemOf(m, List.of(), DynamoMutation.Role.LEASE)
        .map(DynamoItems::lease).map(l -> !l.fence().equals(m.fence().get())).orElse(true);
  }

  private static boolean failed(DynamoMutation m, List<CancellationReason> reasons, DynamoMutation.Role role) {
    List<DynamoMutation.Entry> entries = m.entries();
    for (int i = 0; i < entries.size() && i < reasons.size(); i++) {
      if (entries.get(i).role() == role && CONDITION_FAILED.equals(reasons.get(i).code())) return true;
    }
    return false;
  }

  /** The item of the failed entry with {@code role}, from the reason (ALL_OLD) or a consistent read. */
  private Optional<Map<String, AttributeValue>> failedItem(
      DynamoMutation m, List<CancellationReason> reasons, DynamoMutation.Role role) {
    if (reasons.isEmpty()) {
      return m.entries().stream().anyMatch(en -> en.role() == role) ? itemOf(m, reasons, role) : Optional.empty();
    }
    return failed(m, reasons, role) ? itemOf(m, reasons, role) : Optional.empty();
  }

  /** The current item of the first entry with {@code role}: from its cancellation reason, else re-read. */
  private Optional<Map<String, AttributeValue>> itemOf(
      DynamoMutation m, List<CancellationReason> reasons, DynamoMutation.Role role) {
    List<DynamoMutation.Entry> entries = m.entries();
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).role() != role) continue;
      if (i < reasons.size() && reasons.get(i).hasItem() && !reasons.get(i).item().isEmpty()) {
        return Optional.of(reasons.get(i).item());
      }
      return access.get(m.what() + " (classify)", entries.get(i).key());
    }
    return Optional.empty();
  }
}
