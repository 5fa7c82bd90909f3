/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The HAR
 * (HTTP Archive) reader.
 */
package dev.retryaudit.input.foreign.har;
