/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What
 * several rules ask of attempts: whether a failure is one a retry cannot fix, and what tells two
 * requests apart.
 */
package dev.retryaudit.rules.shared;
