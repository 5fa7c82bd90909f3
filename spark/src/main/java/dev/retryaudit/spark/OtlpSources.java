package dev.retryaudit.spark;

import java.io.Serializable;
import java.util.Set;

/**
 * What the OTLP reader decides from a whole source, decided once on the driver: the sources (by index)
 * that hold one export, whose locations carry JSON Pointers, and those that are logs of a span
 * exporter, whose lines carry exports after a log prefix.
 */
record OtlpSources(Set<Integer> single, Set<Integer> logs) implements Serializable {
}
