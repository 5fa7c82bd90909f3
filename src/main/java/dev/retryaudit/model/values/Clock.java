package dev.retryaudit.model.values;

/** The wire enum for whose clock an operation's timestamps were taken from; absent means the client's. */
public enum Clock {
    CLIENT,
    SERVER
}
