/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The JSON kit
 * below reading and reporting: the strict parser and its cursor, byte budgets, parse failures turned into
 * input errors, JSON pointers, RFC 3339 times and decimals, and the one JSON output setup that the reports,
 * the rule list and the probe's traces write through. Readers of the inputs, the configuration files, serve
 * and the probe use it without going through {@code input}.
 */
package dev.retryaudit.json;
