/**
 * Internal values that the public model holds and the readers, rules and reports pass around: the
 * attempt a nested operation ran inside, JSON text kept as it is. Internal: not part of the API (see
 * {@code dev.retryaudit.api}); may change in any release.
 */
package dev.retryaudit.model.values;
