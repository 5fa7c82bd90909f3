package dev.retryaudit.model;

import java.util.Locale;

/**
 * A limit an input can exceed while it is read. Each of the first five is one setting of the input
 * limits (raised through the command line's {@code --limit-*} options, the library's {@code Limits}, or
 * the MCP tool's {@code limits} argument); {@link #MEMORY} is the Java heap, which no setting raises.
 */
public enum Limit {
    /** Bytes read from all sources of one audit together. */
    BYTES,
    /** Operations in one audit. */
    OPERATIONS,
    /** Attempts in one operation. */
    ATTEMPTS,
    /** Characters in one string value; field names get at least 1,024. */
    STRING,
    /** Nesting depth of a JSON value. */
    DEPTH,
    /** The Java heap. */
    MEMORY;

    /** The lower-case name reports print ({@code "string"}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
