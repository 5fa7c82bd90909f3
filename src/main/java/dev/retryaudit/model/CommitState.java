package dev.retryaudit.model;

/** The wire enum for whether an attempt's side effect landed. */
public enum CommitState {
    UNKNOWN,
    COMMITTED,
    REJECTED,
    NOT_SENT
}
