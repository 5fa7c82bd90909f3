package dev.retryaudit.input;

import java.nio.charset.StandardCharsets;

/**
 * Generates one-document inputs of a given size in the foreign formats that hold a whole export in one
 * JSON value: a client GET span (or HAR entry) per operation, each to its own URL, all in the first
 * trace, so that the first document is as large as the whole input.
 */
public final class LargeDocuments {
    private LargeDocuments() {
    }

    /** The formats generated, by the {@code --input-format} id that reads them. */
    public enum Shape {
        JAEGER_DATA("jaeger"),
        JAEGER_ARRAY("jaeger"),
        JAEGER_V3_RESULT("otlp"),
        OTLP("otlp"),
        ZIPKIN_ARRAY("zipkin"),
        HAR("har");

        public final String format;

        Shape(String format) {
            this.format = format;
        }
    }

    /** A document of {@code shape} of at least {@code bytes} bytes. */
    public static byte[] of(Shape shape, int bytes) {
        StringBuilder b = new StringBuilder(bytes + 4096);
        b.append(switch (shape) {
            case JAEGER_DATA -> "{\"data\": [{\"traceID\": \"7d1c4e9a2b3f4a5c\", \"spans\": [\n";
            case JAEGER_ARRAY -> "[{\"traceID\": \"7d1c4e9a2b3f4a5c\", \"spans\": [\n";
            case JAEGER_V3_RESULT -> "{\"result\": {\"resourceSpans\": [{" + OTLP_RESOURCE;
            case OTLP -> "{\"resourceSpans\": [{" + OTLP_RESOURCE;
            case ZIPKIN_ARRAY -> "[\n";
            case HAR -> "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"generated\", \"version\": \"1\"}, "
                    + "\"entries\": [\n";
        });
        for (int i = 0; b.length() < bytes; i++) {
            if (i > 0) {
                b.append(",\n");
            }
            b.append(element(shape, i));
        }
        b.append(switch (shape) {
            case JAEGER_DATA -> "\n], \"processes\": {\"p1\": {\"serviceName\": \"checkout\", \"tags\": []}}}]}\n";
            case JAEGER_ARRAY -> "\n], \"processes\": {\"p1\": {\"serviceName\": \"checkout\", \"tags\": []}}}]\n";
            case JAEGER_V3_RESULT -> "\n]}]}]}}\n";
            case OTLP -> "\n]}]}]}\n";
            case ZIPKIN_ARRAY -> "\n]\n";
            case HAR -> "\n]}}\n";
        });
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static final String OTLP_RESOURCE = "\"resource\": {\"attributes\": [{\"key\": \"service.name\", "
            + "\"value\": {\"stringValue\": \"checkout\"}}]}, \"scopeSpans\": [{\"scope\": {\"name\": \"generated\"}, "
            + "\"spans\": [\n";

    private static String element(Shape shape, int i) {
        long startMicros = 1_788_789_720_000_000L + i * 1_000_000L;
        String url = "https://api.example/v1/items/" + i;
        return switch (shape) {
            case JAEGER_DATA, JAEGER_ARRAY -> String.format("{\"traceID\": \"7d1c4e9a2b3f4a5c\", \"spanID\": \"%016x\", "
                    + "\"operationName\": \"HTTP GET\", \"references\": [], \"startTime\": %d, \"duration\": 40000, "
                    + "\"tags\": [{\"key\": \"span.kind\", \"type\": \"string\", \"value\": \"client\"}, "
                    + "{\"key\": \"http.method\", \"type\": \"string\", \"value\": \"GET\"}, "
                    + "{\"key\": \"http.url\", \"type\": \"string\", \"value\": \"%s\"}, "
                    + "{\"key\": \"http.status_code\", \"type\": \"int64\", \"value\": 200}], "
                    + "\"logs\": [], \"processID\": \"p1\"}", 0x1000L + i, startMicros, url);
            case JAEGER_V3_RESULT, OTLP -> String.format("{\"traceId\": \"5f2a7c10d3e94b8a9c61e0b7a4d2f381\", "
                    + "\"spanId\": \"%016x\", \"name\": \"GET\", \"kind\": 3, \"startTimeUnixNano\": \"%d000\", "
                    + "\"endTimeUnixNano\": \"%d000\", \"attributes\": ["
                    + "{\"key\": \"http.request.method\", \"value\": {\"stringValue\": \"GET\"}}, "
                    + "{\"key\": \"url.full\", \"value\": {\"stringValue\": \"%s\"}}, "
                    + "{\"key\": \"http.response.status_code\", \"value\": {\"intValue\": \"200\"}}]}",
                    0x1000L + i, startMicros, startMicros + 40_000, url);
            case ZIPKIN_ARRAY -> String.format("{\"traceId\": \"7d1c4e9a2b3f4a5c\", \"id\": \"%016x\", \"kind\": \"CLIENT\", "
                    + "\"name\": \"get\", \"timestamp\": %d, \"duration\": 40000, "
                    + "\"localEndpoint\": {\"serviceName\": \"checkout\"}, "
                    + "\"tags\": {\"http.method\": \"GET\", \"http.url\": \"%s\", \"http.status_code\": \"200\"}}",
                    0x1000L + i, startMicros, url);
            case HAR -> String.format("{\"startedDateTime\": \"2026-09-07T14:%02d:%02d.000Z\", \"time\": 40, "
                    + "\"request\": {\"method\": \"GET\", \"url\": \"%s\", \"httpVersion\": \"HTTP/1.1\", \"cookies\": [], "
                    + "\"headers\": [], \"queryString\": [], \"headersSize\": -1, \"bodySize\": -1}, "
                    + "\"response\": {\"status\": 200, \"statusText\": \"OK\", \"httpVersion\": \"HTTP/1.1\", "
                    + "\"cookies\": [], \"headers\": [], \"content\": {\"size\": 0, \"mimeType\": \"text/plain\"}, "
                    + "\"redirectURL\": \"\", \"headersSize\": -1, \"bodySize\": -1}, \"cache\": {}, "
                    + "\"timings\": {\"send\": 0, \"wait\": 40, \"receive\": 0}}", (i / 60) % 60, i % 60, url);
        };
    }
}
