/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}), except {@link
 * dev.retryaudit.report.ReportFormat} and {@link dev.retryaudit.report.FailOn}, which the API
 * takes (the module exports the package for them); may change in any release.
 */
package dev.retryaudit.report;
