package dev.retryaudit.model;

/** The wire enum for whether an operation changes state on the remote side. */
public enum Effect {
    READ,
    WRITE
}
