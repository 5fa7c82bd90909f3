/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}), except {@link
 * dev.retryaudit.input.InputFormat} and {@link dev.retryaudit.input.Limits}, which the API takes;
 * may change in any release.
 */
package dev.retryaudit.input;
