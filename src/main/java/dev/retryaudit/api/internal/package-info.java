/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What the
 * command line, MCP, the probe and serve take from an audit beyond the API: the reader's error behind a
 * library error, which they word in their own terms.
 */
package dev.retryaudit.api.internal;
