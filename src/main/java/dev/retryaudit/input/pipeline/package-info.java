/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * reading of an input set: sources and file names, format detection, the reader of each format and
 * the checks across files.
 */
package dev.retryaudit.input.pipeline;
