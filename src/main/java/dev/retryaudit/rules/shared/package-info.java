/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What
 * several built-in rules share: the adapters that loop over an operation's pairs of attempts and a
 * write's retries, the commit-gate table that governs each retry, whether a failure is one a retry
 * cannot fix, and what tells two requests apart.
 */
package dev.retryaudit.rules.shared;
