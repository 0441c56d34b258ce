/**
 * The cluster registry backend: one DynamoDB table (string keys {@code pk}/{@code sk}). Every mutation is one
 * {@code TransactWriteItems} with a {@code ConditionCheck} on the lease item; failures are classified by their
 * cancellation reasons, and a retried request whose earlier attempt may have landed is resolved by re-reading
 * (success, or {@link dev.lake.registry.CommitStateUnknownException}; never a plain conflict).
 */
package dev.lake.registry.dynamodb;
