package dev.retryaudit.model;

/** The wire enum for whose clock an operation's timestamps were taken from. */
public enum Clock {
    CLIENT,
    SERVER
}
