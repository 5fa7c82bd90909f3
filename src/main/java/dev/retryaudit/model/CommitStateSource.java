package dev.retryaudit.model;

/** The wire enum for who set an attempt's commit state. */
public enum CommitStateSource {
    RUNNER,
    TOOL,
    SERVER,
    LEDGER,
    MODEL
}
