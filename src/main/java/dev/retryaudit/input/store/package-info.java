/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. Traces
 * fetched from where they are stored (a Zipkin, Jaeger or Tempo server's query API) for
 * {@code audit --from}, as documents the readers of the foreign formats read, over bounded HTTP requests.
 */
package dev.retryaudit.input.store;
