/**
 * gRPC facts that rules share: the retry pushback a server sends.
 *
 * <p>Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release.
 */
package dev.retryaudit.rules.grpc;
