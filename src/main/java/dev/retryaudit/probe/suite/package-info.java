/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. Probe suites:
 * named lists of probe scenarios, shipped as data, run one after another against the same client command,
 * and the scorecard that grades the client across them, in five formats.
 */
package dev.retryaudit.probe.suite;
