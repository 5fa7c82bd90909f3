/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The one
 * JSON output setup that the JSON and SARIF reports, the rule list and the probe's traces write through.
 */
package dev.retryaudit.report.json;
