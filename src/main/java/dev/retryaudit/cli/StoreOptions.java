package dev.retryaudit.cli;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.text.Escaping;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code audit --from STORE:URL} and what it asks the store for, as a picocli mixin: the query is checked
 * before anything is fetched (a usage error), the traces fetched become the input set, and a store that
 * cannot be reached is exit 66, a wrong answer exit 65, each one line.
 */
final class StoreOptions {
    @Option(names = "--from", paramLabel = "STORE:URL",
            description = "Audit traces a trace store holds instead of files: zipkin:URL (Zipkin API v2), jaeger:URL "
                    + "(Jaeger query API v3, else v1) or tempo:URL (Tempo API), e.g. zipkin:http://127.0.0.1:9411.")
    String from;

    @Option(names = "--service", paramLabel = "NAME", description = "With --from: the traces of this service.")
    String service;

    @Option(names = "--since", paramLabel = "DURATION", defaultValue = "1h",
            description = "With --from: traces that started this long ago or later: 30m, 6h, 7d (default: ${DEFAULT-VALUE}).")
    String since;

    @Option(names = "--trace-id", paramLabel = "ID", description = "With --from: this one trace (hex).")
    String traceId;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "With --from: at most N traces (1 to 1000; default: ${DEFAULT-VALUE}).")
    int limit;

    /** The traces these options ask the store for, the query checked; a usage error of {@code options}' command otherwise. */
    AuditInput input(AuditOptions options) {
        Duration d = Durations.parse(since);
        if (d == null) {
            throw options.usage("invalid value for option '--since': expected a duration such as 30m, 6h or 7d, found "
                    + Escaping.controls(since));
        }
        try {
            return AuditInput.store(from, service, d, traceId, limit);
        } catch (IllegalArgumentException e) {
            throw options.usage(Escaping.controls(e.getMessage()));
        }
    }
}
