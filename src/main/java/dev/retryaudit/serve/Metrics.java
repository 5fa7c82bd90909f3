package dev.retryaudit.serve;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Severity;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The counters {@code serve} shows at {@code GET /metrics}, in the Prometheus text exposition format
 * (version 0.0.4): spans received and rejected, requests by outcome, operations audited, findings by
 * rule and severity, spans held, refusals for holding too many. Thread-safe.
 */
final class Metrics {
    /** The content type of the exposition format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final AtomicLong received = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong audited = new AtomicLong();
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong full = new AtomicLong();
    private final long maxHeld;
    private final Map<String, AtomicLong> requests = new TreeMap<>();
    private final Map<String, Long> findings = new TreeMap<>();
    /** The labels of {@link #findings} by rule, one a severity, made once each; guarded by {@link #findings}. */
    private final Map<String, String[]> labels = new HashMap<>();

    Metrics(long maxHeld) {
        this.maxHeld = maxHeld;
    }

    void received(long spans) {
        received.addAndGet(spans);
    }

    long spansReceived() {
        return received.get();
    }

    void rejected(long spans) {
        rejected.addAndGet(spans);
    }

    void audited(long operations) {
        audited.addAndGet(operations);
    }

    void held(long spans) {
        held.set(spans);
    }

    void full() {
        full.incrementAndGet();
    }

    /** One request answered: its path (one of the routes, or {@code other}) and status code. */
    void request(String path, int status) {
        String key = "path=\"" + path + "\",code=\"" + status + "\"";
        synchronized (requests) {
            requests.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
        }
    }

    void finding(Finding f) {
        synchronized (findings) {
            String[] keys = labels.computeIfAbsent(f.rule(), r -> new String[Severity.values().length]);
            int s = f.severity().ordinal();
            if (keys[s] == null) {
                keys[s] = "rule=\"" + label(f.rule()) + "\",severity=\"" + f.severity().id() + "\"";
            }
            findings.merge(keys[s], 1L, Long::sum);
        }
    }

    /** Rule ids are {@code family/name} in lower case; anything else in a label value is escaped as the format says. */
    private static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** The exposition, every metric with its HELP and TYPE lines. */
    String text() {
        StringBuilder b = new StringBuilder(1024);
        counter(b, "retry_audit_spans_received_total", "Spans received in exports the receiver took.", received.get());
        counter(b, "retry_audit_spans_rejected_total",
                "Spans of exports the audit could not use (partial_success.rejected_spans).", rejected.get());
        counter(b, "retry_audit_operations_audited_total", "Operations linked from the spans and audited.", audited.get());
        gauge(b, "retry_audit_spans_held", "Attempt spans held until their linking context goes idle.", held.get());
        gauge(b, "retry_audit_spans_held_max", "The most spans held before exports are refused (--max-held-spans).",
                maxHeld);
        counter(b, "retry_audit_exports_refused_total",
                "Exports answered 503 because the receiver held --max-held-spans spans.", full.get());
        b.append("# HELP retry_audit_findings_total Findings made, by rule and severity.\n");
        b.append("# TYPE retry_audit_findings_total counter\n");
        synchronized (findings) {
            findings.forEach((k, v) -> b.append("retry_audit_findings_total{").append(k).append("} ").append(v)
                    .append('\n'));
        }
        b.append("# HELP retry_audit_http_requests_total HTTP requests answered, by path and status code.\n");
        b.append("# TYPE retry_audit_http_requests_total counter\n");
        synchronized (requests) {
            requests.forEach((k, v) -> b.append("retry_audit_http_requests_total{").append(k).append("} ")
                    .append(v.get()).append('\n'));
        }
        return b.toString();
    }

    private static void counter(StringBuilder b, String name, String help, long value) {
        metric(b, name, help, "counter", value);
    }

    private static void gauge(StringBuilder b, String name, String help, long value) {
        metric(b, name, help, "gauge", value);
    }

    private static void metric(StringBuilder b, String name, String help, String type, long value) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        b.append(name).append(' ').append(value).append('\n');
    }
}
