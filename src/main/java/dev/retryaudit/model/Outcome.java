package dev.retryaudit.model;

/** The wire enum for what the caller saw of one attempt. */
public enum Outcome {
    SUCCESS,
    ERROR,
    TIMEOUT,
    CONNECTION_ERROR,
    CANCELLED
}
