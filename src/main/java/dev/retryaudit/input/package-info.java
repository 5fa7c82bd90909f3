/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}), except {@link
 * dev.retryaudit.input.InputFormat} and {@link dev.retryaudit.input.Limits}, which the API takes
 * (the module exports the package for them); may change in any release. The values every part of the reading of inputs shares: the input
 * error, the limits and the input formats. The reading itself lives in the packages below this one.
 */
package dev.retryaudit.input;
