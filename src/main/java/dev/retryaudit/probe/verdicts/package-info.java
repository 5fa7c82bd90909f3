/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The probe's
 * verdicts as rules: their ids, severities and documentation, which the engine lists beside the audit's rules
 * and a policy may not name, and which only {@code retry-audit probe} reports.
 */
package dev.retryaudit.probe.verdicts;
