/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * Zipkin v2 JSON reader.
 */
package dev.retryaudit.input.foreign.zipkin;
