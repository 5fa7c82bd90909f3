/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. Every report
 * format: the report value, its writers, and the summaries and rule lists the command line prints.
 */
package dev.retryaudit.report;
