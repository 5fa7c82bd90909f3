/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * reading of a policy file (--policy) into the model's policy.
 */
package dev.retryaudit.input.policy;
