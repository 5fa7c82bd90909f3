package dev.retryaudit.model;

/** The wire enum for the class of a tool-call failure that has no HTTP status. */
public enum ErrorClass {
    VALIDATION,
    AUTH,
    NOT_FOUND,
    CONFLICT,
    RATE_LIMITED,
    UNAVAILABLE,
    SERVER,
    OTHER
}
