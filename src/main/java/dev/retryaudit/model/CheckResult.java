package dev.retryaudit.model;

/** The wire enum for what a reconcile read found. */
public enum CheckResult {
    COMMITTED,
    NOT_FOUND,
    FAILED
}
