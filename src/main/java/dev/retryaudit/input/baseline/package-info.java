/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * reading of a baseline file (--baseline) into the model's baseline.
 */
package dev.retryaudit.input.baseline;
