/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. The
 * OpenTelemetry OTLP/JSON reader (trace exports and the file exporter's JSON Lines).
 */
package dev.retryaudit.input.foreign.otlp;
