/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The entry of
 * reading: an input set's sources and file names, decompression, format detection, the reader of each format
 * and the checks across files. Below it lie the JSON plumbing ({@code json}), the reader contract
 * ({@code input.reader}), the native formats ({@code input.operations}) and the foreign formats with their
 * linker ({@code input.foreign} and its subpackages).
 */
package dev.retryaudit.input;
