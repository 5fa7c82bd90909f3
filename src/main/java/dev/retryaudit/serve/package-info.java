/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * {@code serve} receiver: OTLP/HTTP and Zipkin spans received over HTTP, held by linking context and
 * audited as each context goes idle, with findings as JSON Lines and Prometheus metrics.
 */
package dev.retryaudit.serve;
