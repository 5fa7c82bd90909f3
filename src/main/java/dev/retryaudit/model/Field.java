package dev.retryaudit.model;

import java.util.EnumSet;
import java.util.Set;

/** Fields that some input formats cannot carry; a rule that needs one stays silent where it is not carried. */
public enum Field {
    COMMIT_STATE,
    RETRY_REASON,
    REQUEST_HASH,
    IDEMPOTENCY_KEY,
    SPAN_ID,
    CHECKS,
    REPORTED_OUTCOME;

    /** Every field: what our own formats carry. */
    public static final Set<Field> ALL = Set.copyOf(EnumSet.allOf(Field.class));
}
