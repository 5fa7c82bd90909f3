package dev.retryaudit.serve;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The environment a wrapped test command runs with: the OpenTelemetry SDKs' and the Java agent's
 * settings that send its traces to the receiver as OTLP/HTTP protobuf, capture the headers the rules
 * read, and turn metrics and logs exports off unless the user chose an exporter for them.
 */
public final class ExporterEnvironment {
    /** Request headers the rules read (key reuse, idempotency). */
    static final List<String> REQUEST_HEADERS = List.of("idempotency-key");
    /** Response headers the rules read (Retry-After in both forms, and the Date it may count from). */
    static final List<String> RESPONSE_HEADERS = List.of("retry-after", "retry-after-ms", "date");

    /** Capture settings, each a comma-separated list of header names, by the SDK that reads them. */
    private static final Map<String, List<String>> CAPTURE = captures();

    private ExporterEnvironment() {
    }

    private static Map<String, List<String>> captures() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        // The OpenTelemetry Java agent (and the Java instrumentation libraries' autoconfigure).
        m.put("OTEL_INSTRUMENTATION_HTTP_CLIENT_CAPTURE_REQUEST_HEADERS", REQUEST_HEADERS);
        m.put("OTEL_INSTRUMENTATION_HTTP_CLIENT_CAPTURE_RESPONSE_HEADERS", RESPONSE_HEADERS);
        // Python's contrib instrumentations.
        m.put("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_REQUEST", REQUEST_HEADERS);
        m.put("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_RESPONSE", RESPONSE_HEADERS);
        // Elastic's distribution of the Node SDK.
        m.put("ELASTIC_OTEL_INSTRUMENTATION_HTTP_CLIENT_CAPTURE_REQUEST_HEADERS", REQUEST_HEADERS);
        m.put("ELASTIC_OTEL_INSTRUMENTATION_HTTP_CLIENT_CAPTURE_RESPONSE_HEADERS", RESPONSE_HEADERS);
        return m;
    }

    /**
     * The settings to add to {@code env} (the user's environment) for a command whose traces go to
     * {@code endpoint} ({@code http://HOST:PORT}): the traces endpoint, protocol and exporter replace the
     * user's; a capture list keeps the user's names and adds the missing ones; metrics and logs
     * exporters are {@code none} unless the user set them.
     */
    public static Map<String, String> settings(String endpoint, Map<String, String> env) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
        s.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
        s.put("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", endpoint + "/v1/traces");
        s.put("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf");
        s.put("OTEL_TRACES_EXPORTER", "otlp");
        for (String signal : new String[] {"OTEL_METRICS_EXPORTER", "OTEL_LOGS_EXPORTER"}) {
            if (blank(env.get(signal))) {
                s.put(signal, "none");
            }
        }
        CAPTURE.forEach((name, headers) -> s.put(name, merged(env.get(name), headers)));
        return s;
    }

    /** The user's comma-separated header names, then those of {@code headers} not among them. */
    private static String merged(String user, List<String> headers) {
        List<String> names = new ArrayList<>();
        if (!blank(user)) {
            for (String n : user.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.strip());
                }
            }
        }
        for (String h : headers) {
            if (names.stream().noneMatch(n -> n.toLowerCase(Locale.ROOT).equals(h))) {
                names.add(h);
            }
        }
        return String.join(",", names);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
