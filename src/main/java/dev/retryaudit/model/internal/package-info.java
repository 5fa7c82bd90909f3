/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The error a
 * reader raises (which reports print), with the checks of the count limits that raise it.
 */
package dev.retryaudit.model.internal;
