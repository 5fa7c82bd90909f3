/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * native formats: operations (one JSON document) and spans (JSON Lines), read into drafts.
 */
package dev.retryaudit.input.operations;
