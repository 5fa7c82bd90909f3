package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.Policy;

/**
 * Whether an attempt failed in a way that repeating the same request cannot fix: a status in the
 * policy's {@code non_retryable_statuses}, or {@code error_class: validation}; for a gRPC attempt, a
 * status in the policy's {@code grpc.non_retryable_statuses} alone. Such a rejection of a write
 * belongs to validation-repeat, not to effect-verification.
 */
public final class NonRetryableFailure {
    private NonRetryableFailure() {
    }

    public static boolean is(Attempt a, Policy policy) {
        if (a.grpcStatus() != null) {
            return policy.grpcNonRetryableStatuses().contains(a.grpcStatus());
        }
        return a.status() != null && policy.nonRetryableStatuses().contains(a.status())
                || a.errorClass() == ErrorClass.VALIDATION;
    }

    /** How the attempt failed, for messages and evidence: {@code status 422}, {@code gRPC INVALID_ARGUMENT} or {@code error_class validation}. */
    public static String describe(Attempt a, Policy policy) {
        if (a.grpcStatus() != null) {
            return "gRPC " + a.grpcStatus();
        }
        return a.status() != null && policy.nonRetryableStatuses().contains(a.status())
                ? "status " + a.status() : "error_class validation";
    }
}
