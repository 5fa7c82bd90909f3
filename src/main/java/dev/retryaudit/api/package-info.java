/**
 * Public API of retry-audit: {@link dev.retryaudit.api.RetryAudit}, an immutable, thread-safe
 * auditor, and the builders of the operations it audits. With the value types of {@code
 * dev.retryaudit.model} and the rule API of {@code dev.retryaudit.rules}, this is what a library
 * user may depend on; every other package is internal.
 */
package dev.retryaudit.api;
