/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The door
 * to the model's compact forms for the readers, the builders and the rules: its long constructors and
 * its times as primitive epoch milliseconds; and the error a reader raises (which reports print), with the
 * checks of the count limits that raise it.
 */
package dev.retryaudit.model.internal;
