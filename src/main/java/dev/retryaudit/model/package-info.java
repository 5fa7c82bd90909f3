/**
 * Public API: the immutable, serializable values that cross the API: operations, attempts, checks,
 * locations, the policy and findings.
 */
package dev.retryaudit.model;
