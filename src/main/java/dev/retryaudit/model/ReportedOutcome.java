package dev.retryaudit.model;

/** The wire enum for what the caller finally reported for an operation. */
public enum ReportedOutcome {
    SUCCESS,
    FAILURE
}
