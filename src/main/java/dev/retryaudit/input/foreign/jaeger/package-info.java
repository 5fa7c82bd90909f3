/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * Jaeger JSON reader (query API and UI downloads).
 */
package dev.retryaudit.input.foreign.jaeger;
