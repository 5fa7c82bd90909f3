/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What
 * the foreign span formats share: the span scratch and attribute values, HTTP conventions, hops and
 * the linking of spans into operations and retries.
 */
package dev.retryaudit.input.foreign;
