/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release.
 */
package dev.retryaudit.report.html;
