package dev.retryaudit.input.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.model.InputFormat;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fetches the traces a {@link StoreQuery} asks for through the store's query API, as documents the
 * existing readers read:
 * <ul>
 * <li>Zipkin (API v2): {@code GET /api/v2/trace/{id}}, or {@code GET /api/v2/traces?serviceName&endTs&lookback&limit},
 * whose list of traces the Zipkin reader reads as it came, once;
 * <li>Jaeger: the query API v3 ({@code GET /api/v3/traces/{id}}, {@code GET /api/v3/traces?query.service_name...}),
 * which answers OTLP JSON in {@code {"result": ...}}, and where a server has no v3 (404) the v1 API
 * ({@code /api/traces/{id}}, {@code /api/traces?service&start&end&limit}, Jaeger JSON);
 * <li>Tempo: {@code GET /api/traces/{id}}, or {@code GET /api/search?q={TraceQL}&start&end&limit} and then each
 * trace found; their {@code {"batches": [...]}} (or {@code resourceSpans}, or the v2 {@code {"trace": {...}}}) read
 * as one OTLP JSON export named by the search.
 * </ul>
 * At most two requests plus one a trace are made, each bounded by {@link StoreClient}.
 */
public final class TraceStores {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one fetch gave: a document in {@code format}, named by the request that gave it ({@code zipkin:http://...}). */
    public record Fetched(InputFormat format, String name, byte[] body) {
    }

    private TraceStores() {
    }

    /** The traces {@code q} asks for, each answer at most {@code maxBytes} long. */
    public static Fetched fetch(StoreQuery q, long maxBytes) throws StoreException {
        StoreClient http = new StoreClient(q.name(), maxBytes, q.limit() + 2);
        return switch (q.kind()) {
            case ZIPKIN -> zipkin(q, http);
            case JAEGER -> jaeger(q, http);
            case TEMPO -> tempo(q, http);
        };
    }

    private static Fetched zipkin(StoreQuery q, StoreClient http) throws StoreException {
        if (q.traceId() != null) {
            StoreClient.Answer a = found(q, http, http.get(q.base().resolve("api/v2/trace/" + q.traceId())));
            if (!startsArray(a.body())) {
                throw http.bad(a, "a Zipkin v2 trace (an array of spans)");
            }
            return one(InputFormat.ZIPKIN, q, a.uri(), a.body());
        }
        long end = q.now().toEpochMilli();
        StoreClient.Answer a = http.get(q.base().resolve("api/v2/traces?serviceName=" + encode(q.service()) + "&endTs="
                + end + "&lookback=" + q.since().toMillis() + "&limit=" + q.limit()));
        // The list is read once, by the Zipkin reader, which takes a list of traces as it is; what is no JSON array is refused here.
        if (!startsArray(found(q, http, a).body())) {
            throw http.bad(a, "a Zipkin v2 list of traces (an array of arrays of spans)");
        }
        return one(InputFormat.ZIPKIN, q, a.uri(), a.body());
    }

    private static Fetched jaeger(StoreQuery q, StoreClient http) throws StoreException {
        long startMicros = (q.now().toEpochMilli() - q.since().toMillis()) * 1000;
        long endMicros = q.now().toEpochMilli() * 1000;
        URI v3 = q.traceId() != null ? q.base().resolve("api/v3/traces/" + q.traceId())
                : q.base().resolve("api/v3/traces?query.service_name=" + encode(q.service()) + "&query.start_time_min="
                        + encode(q.now().minus(q.since()).toString()) + "&query.start_time_max=" + encode(q.now().toString())
                        + "&query.search_depth=" + q.limit());
        StoreClient.Answer a = http.get(v3);
        if (a.status() != 404) {
            object(http, found(q, http, a), "OTLP JSON in {\"result\": ...} (Jaeger query API v3)");
            return one(InputFormat.OTLP, q, a.uri(), a.body());
        }
        URI v1 = q.traceId() != null ? q.base().resolve("api/traces/" + q.traceId())
                : q.base().resolve("api/traces?service=" + encode(q.service()) + "&start=" + startMicros + "&end="
                        + endMicros + "&limit=" + q.limit());
        StoreClient.Answer b = found(q, http, http.get(v1));
        object(http, b, "Jaeger JSON in {\"data\": [...]} (Jaeger query API v1)");
        return one(InputFormat.JAEGER, q, b.uri(), b.body());
    }

    private static Fetched tempo(StoreQuery q, StoreClient http) throws StoreException {
        List<String> ids = new ArrayList<>();
        URI search = null;
        if (q.traceId() != null) {
            ids.add(q.traceId());
        } else {
            String traceQl = q.service() == null ? "{}" : "{resource.service.name=\"" + q.service().replace("\\", "\\\\")
                    .replace("\"", "\\\"") + "\"}";
            long end = q.now().getEpochSecond();
            search = q.base().resolve("api/search?q=" + encode(traceQl) + "&start=" + (end - q.since().toSeconds())
                    + "&end=" + end + "&limit=" + q.limit());
            StoreClient.Answer a = http.get(search);
            JsonNode traces = object(http, found(q, http, a), "a Tempo search result ({\"traces\": [...]})").get("traces");
            if (traces != null && !traces.isArray()) {
                throw http.bad(a, "a Tempo search result ({\"traces\": [...]})");
            }
            for (JsonNode t : traces == null ? JSON.createArrayNode() : traces) {
                JsonNode id = t.get("traceID");
                if (id == null || !id.isTextual() || !id.asText().matches("[0-9a-fA-F]{1,32}")) {
                    throw http.bad(a, "a Tempo search result whose traces each have a traceID of hex digits");
                }
                if (ids.size() < q.limit()) {
                    ids.add(id.asText());
                }
            }
        }
        // One export of every trace's resource spans: an input set reads one stream.
        ArrayNode all = JSON.createArrayNode();
        URI first = null;
        for (String id : ids) {
            StoreClient.Answer a = found(q, http, http.get(q.base().resolve("api/traces/" + id)));
            ObjectNode trace = object(http, a, "a Tempo trace ({\"batches\": [...]})");
            JsonNode batches = trace.has("batches") ? trace.get("batches")
                    : trace.has("trace") ? trace.get("trace").get("resourceSpans") : trace.get("resourceSpans");
            if (batches == null || !batches.isArray()) {
                throw http.bad(a, "a Tempo trace ({\"batches\": [...]})");
            }
            all.addAll((ArrayNode) batches);
            first = first == null ? a.uri() : first;
        }
        ObjectNode export = JSON.createObjectNode();
        export.set("resourceSpans", all);
        return one(InputFormat.OTLP, q, search != null ? search : first != null ? first : q.base(), bytes(export));
    }

    /** The answer when it holds the trace; a 404 is a store that holds no such trace (as a missing file). */
    private static StoreClient.Answer found(StoreQuery q, StoreClient http, StoreClient.Answer a) throws StoreException {
        if (a.status() == 404 && q.traceId() != null) {
            throw new StoreException(q.name(), true, "the trace store holds no trace " + q.traceId() + " (HTTP 404 from "
                    + a.uri() + ")");
        }
        if (!a.ok()) {
            throw http.bad(a, "a 2xx answer");
        }
        return a;
    }

    private static ObjectNode object(StoreClient http, StoreClient.Answer a, String expected) throws StoreException {
        JsonNode n = parse(http, a, expected);
        if (!n.isObject()) {
            throw http.bad(a, expected);
        }
        return (ObjectNode) n;
    }

    private static JsonNode parse(StoreClient http, StoreClient.Answer a, String expected) throws StoreException {
        try {
            JsonNode n = JSON.readTree(a.body());
            if (n == null || n.isMissingNode()) {
                throw http.bad(a, expected);
            }
            return n;
        } catch (IOException e) {
            throw http.bad(a, expected);
        }
    }

    /** Whether the body's first byte past white space (and a UTF-8 byte order mark) opens a JSON array. */
    private static boolean startsArray(byte[] body) {
        int i = body.length >= 3 && body[0] == (byte) 0xEF && body[1] == (byte) 0xBB && body[2] == (byte) 0xBF ? 3 : 0;
        while (i < body.length && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t')) {
            i++;
        }
        return i < body.length && body[i] == '[';
    }

    private static Fetched one(InputFormat format, StoreQuery q, URI uri, byte[] body) {
        return new Fetched(format, name(q, uri), body);
    }

    private static String name(StoreQuery q, URI uri) {
        return q.kind().name().toLowerCase(java.util.Locale.ROOT) + ":" + uri;
    }

    private static byte[] bytes(JsonNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
