/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. HTTP's own
 * syntax that the rules and the reports both read: HTTP dates and Retry-After values.
 */
package dev.retryaudit.http;
