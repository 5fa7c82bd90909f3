/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * retry-trace reader (the probe's own trace format) and the diagnostic for curl traces given instead.
 */
package dev.retryaudit.input.foreign.retrytrace;
