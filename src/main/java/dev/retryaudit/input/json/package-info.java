/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The JSON
 * plumbing every reader shares: the strict parser and its cursor, byte budgets, parse failures turned
 * into input errors, JSON pointers, RFC 3339 times and decimals.
 */
package dev.retryaudit.input.json;
