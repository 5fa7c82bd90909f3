/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What configures
 * an audit, read from its files: the policy (--policy), the baseline (--baseline) and the ids of rules and
 * families that both name.
 */
package dev.retryaudit.config;
