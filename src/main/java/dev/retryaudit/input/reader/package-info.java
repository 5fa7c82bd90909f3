/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What a
 * format reader is given and gives back: its context (source, limits, cursor), the reader interface,
 * the sink of operations and the errors drafts share.
 */
package dev.retryaudit.input.reader;
