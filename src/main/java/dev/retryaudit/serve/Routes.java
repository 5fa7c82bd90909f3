package dev.retryaudit.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.retryaudit.input.foreign.otlp.OtlpProtobuf;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * What {@code serve} answers to one whole request, whatever server carried it: {@code POST /v1/traces}
 * (OTLP/HTTP, protobuf or JSON, gzip or identity), {@code POST /api/v2/spans} (Zipkin v2 JSON),
 * {@code POST /v1/metrics} and {@code /v1/logs} (taken and dropped), {@code GET /metrics} and
 * {@code GET /healthz}; every other path is 404. A gzip body is decompressed as a stream, refused
 * with 413 once it passes the limit, so a bomb never takes more than the limit of memory.
 */
final class Routes {
    static final String TRACES = "/v1/traces";
    static final String ZIPKIN = "/api/v2/spans";
    static final String OTLP_METRICS = "/v1/metrics";
    static final String OTLP_LOGS = "/v1/logs";
    static final String METRICS = "/metrics";
    static final String HEALTH = "/healthz";
    private static final JsonFactory JSON = new JsonFactory();

    private final Receiver receiver;
    private final Metrics metrics;
    private final long limitBytes;
    private final int depth;
    private final long retryAfterSeconds;
    private final BodyBudget budget;

    /** One request as read: its method, path, a header by name (null when absent), and its body as sent. */
    record Call(String method, String path, UnaryOperator<String> header, byte[] body) {
    }

    /** One answer: status, content type (null for none), extra headers, body. */
    record Reply(int status, String type, Map<String, String> headers, byte[] body) {
        Reply(int status, String type, byte[] body) {
            this(status, type, Map.of(), body);
        }
    }

    /** A request refused with an HTTP status and a message for the client. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final int code;
        final transient Map<String, String> headers;

        Refused(int status, int code, String message) {
            this(status, code, message, Map.of());
        }

        Refused(int status, int code, String message, Map<String, String> headers) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
            this.headers = headers;
        }
    }

    Routes(Receiver receiver, Metrics metrics, long limitBytes, int depth, long retryAfterSeconds) {
        this.receiver = receiver;
        this.metrics = metrics;
        this.limitBytes = limitBytes;
        this.depth = depth;
        this.retryAfterSeconds = retryAfterSeconds;
        this.budget = BodyBudget.ofHeap();
    }

    /** The memory that bodies, as sent and decompressed, share. */
    BodyBudget budget() {
        return budget;
    }

    /** The path as the metrics count it: one of the routes, or {@code other}. */
    static String route(String path) {
        return switch (path) {
            case TRACES, ZIPKIN, OTLP_METRICS, OTLP_LOGS, METRICS, HEALTH -> path;
            default -> "other";
        };
    }

    /** Whether a request to {@code path} with {@code method} posts spans: it keeps a run open while it is answered. */
    static boolean posting(String method, String path) {
        return method.equals("POST") && (path.equals(TRACES) || path.equals(ZIPKIN));
    }

    /** Whether the body of a request to {@code path} is read at all; others are answered without it. */
    static boolean takesBody(String method, String path) {
        return method.equals("POST") && !route(path).equals("other") && !path.equals(METRICS) && !path.equals(HEALTH);
    }

    /** The answer to {@code call}; counted in the metrics by route and status. */
    Reply answer(Call call) {
        try {
            return counted(call, routed(call));
        } catch (Refused e) {
            return refused(call, e);
        }
    }

    /** The answer to a body over the limit, refused before or while it is read. */
    Reply tooLarge(Call call) {
        return refused(call, tooLarge());
    }

    /** The answer when the client sent nothing of the body for the read timeout; the connection then closes. */
    Reply timedOut(Call call) {
        return refused(call, new Refused(408, Exchanges.INVALID_ARGUMENT, "no byte of the body came for the read "
                + "timeout", Map.of("Connection", "close")));
    }

    /** The answer when the bodies being read already fill the memory they may take. */
    Reply busy(Call call) {
        return refused(call, busy());
    }

    private Reply refused(Call call, Refused r) {
        return counted(call, refusal(call, r));
    }

    private Reply counted(Call call, Reply r) {
        metrics.request(route(call.path()), r.status());
        return r;
    }

    private static Refused busy() {
        return new Refused(503, Exchanges.UNAVAILABLE, "the receiver is reading as many bodies as its memory allows; "
                + "retry after 1 s", Map.of("Retry-After", "1"));
    }

    private Reply routed(Call x) throws Refused {
        String method = x.method();
        String path = x.path();
        switch (path) {
            case TRACES, ZIPKIN, OTLP_METRICS, OTLP_LOGS -> {
                if (!method.equals("POST")) {
                    throw new Refused(405, Exchanges.INVALID_ARGUMENT, path + " takes POST, not " + method,
                            Map.of("Allow", "POST"));
                }
                return switch (path) {
                    case TRACES -> traces(x);
                    case ZIPKIN -> zipkin(x);
                    default -> dropped(x);
                };
            }
            case METRICS, HEALTH -> {
                if (!method.equals("GET") && !method.equals("HEAD")) {
                    throw new Refused(405, Exchanges.INVALID_ARGUMENT, path + " takes GET, not " + method,
                            Map.of("Allow", "GET, HEAD"));
                }
                byte[] body = (path.equals(METRICS) ? metrics.text() : "ok\n").getBytes(StandardCharsets.UTF_8);
                return new Reply(200, path.equals(METRICS) ? Metrics.CONTENT_TYPE : "text/plain; charset=utf-8", body);
            }
            default -> throw new Refused(404, Exchanges.NOT_FOUND, "no such path: the receiver serves POST " + TRACES
                    + ", POST " + ZIPKIN + ", GET " + METRICS + " and GET " + HEALTH);
        }
    }

    /** Metrics and logs exports: answered as taken (an empty response), not read; the receiver audits traces only. */
    private Reply dropped(Call x) throws Refused {
        boolean protobuf = otlpType(x);
        return new Reply(200, protobuf ? Exchanges.PROTOBUF : Exchanges.JSON, protobuf ? new byte[0]
                : "{}".getBytes(StandardCharsets.UTF_8));
    }

    private static boolean otlpType(Call x) throws Refused {
        String type = mediaType(x);
        boolean protobuf = Exchanges.PROTOBUF.equals(type);
        if (!protobuf && !Exchanges.JSON.equals(type)) {
            throw new Refused(415, Exchanges.INVALID_ARGUMENT, "unsupported Content-Type " + shown(type)
                    + ": OTLP/HTTP is application/x-protobuf or application/json");
        }
        return protobuf;
    }

    private Reply traces(Call x) throws Refused {
        boolean protobuf = otlpType(x);
        byte[] body = body(x);
        try {
            return traces(protobuf, body);
        } finally {
            giveBack(x, body);
        }
    }

    private Reply traces(boolean protobuf, byte[] body) throws Refused {
        Receiver.Receipt receipt;
        try {
            if (protobuf) {
                OtlpProtobuf.Decoded export;
                try {
                    export = OtlpProtobuf.decode(body, depth);
                } catch (InvalidProtocolBufferException e) {
                    throw new Refused(400, Exchanges.INVALID_ARGUMENT, OtlpProtobuf.why(e));
                }
                receipt = receiver.otlp(null, export.message(), export.spans());
            } else {
                receipt = receiver.otlp(body, null, jsonSpans(body));
            }
        } catch (Receiver.FullException e) {
            throw unavailable();
        } catch (Receiver.BadExportException e) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, e.getMessage());
        }
        return new Reply(200, protobuf ? Exchanges.PROTOBUF : Exchanges.JSON,
                Exchanges.response(protobuf, receipt.rejected(), receipt.message()));
    }

    private Reply zipkin(Call x) throws Refused {
        String type = mediaType(x);
        if (!Exchanges.JSON.equals(type)) {
            throw new Refused(415, Exchanges.INVALID_ARGUMENT, "unsupported Content-Type " + shown(type)
                    + ": the receiver takes Zipkin v2 spans as application/json");
        }
        byte[] body = body(x);
        try {
            return zipkin(body);
        } finally {
            giveBack(x, body);
        }
    }

    private Reply zipkin(byte[] body) throws Refused {
        try {
            receiver.zipkin(body);
        } catch (Receiver.FullException e) {
            throw unavailable();
        } catch (Receiver.BadExportException e) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, e.getMessage());
        }
        return new Reply(202, null, new byte[0]);
    }

    private Refused unavailable() {
        return new Refused(503, Exchanges.UNAVAILABLE, "the receiver holds as many spans as --max-held-spans allows "
                + "until their operations are audited; retry after " + retryAfterSeconds + " s",
                Map.of("Retry-After", Long.toString(retryAfterSeconds)));
    }

    private static Reply refusal(Call x, Refused r) {
        boolean protobuf = Exchanges.PROTOBUF.equals(mediaType(x));
        return new Reply(r.status, protobuf ? Exchanges.PROTOBUF : Exchanges.JSON, r.headers,
                Exchanges.status(protobuf, r.code, r.getMessage()));
    }

    /** The request's media type in lower case, without parameters; null when it sent none. */
    private static String mediaType(Call x) {
        String t = x.header().apply("Content-Type");
        if (t == null) {
            return null;
        }
        int semi = t.indexOf(';');
        return (semi < 0 ? t : t.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    private static String shown(String type) {
        return type == null ? "(none)" : Exchanges.quoted(type.length() > 100 ? type.substring(0, 100) + "..." : type);
    }

    /** Gives back the budget a decompressed body took; a body as sent is given back by the server that read it. */
    private void giveBack(Call x, byte[] body) {
        if (body != x.body()) {
            budget.give(body.length);
        }
    }

    /**
     * The body, decompressed as {@code Content-Encoding} says (gzip or identity) as a stream: refused with 413
     * once what it decompresses to passes {@code --limit-bytes}, and with 503 when the bodies held already fill
     * the budget; once the budget is full the rest is counted, not kept, so a bomb is always a 413. The
     * body returned holds its length of the budget.
     */
    private byte[] body(Call x) throws Refused {
        String encoding = x.header().apply("Content-Encoding");
        String e = encoding == null ? "identity" : encoding.strip().toLowerCase(Locale.ROOT);
        if (e.equals("identity")) {
            return x.body();
        }
        if (!e.equals("gzip")) {
            throw new Refused(415, Exchanges.INVALID_ARGUMENT, "unsupported Content-Encoding " + shown(e)
                    + ": the receiver takes gzip or identity");
        }
        Blocks out = new Blocks(budget);
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(x.body()), 8192)) {
            byte[] buf = new byte[8192];
            long total = 0;
            for (int n; (n = in.read(buf)) > 0; ) {
                total += n;
                if (total > limitBytes) {
                    throw tooLarge();
                }
                out.write(buf, n);
            }
            byte[] body = out.whole();
            if (body == null) {
                throw busy();
            }
            return body;
        } catch (ZipException | java.io.EOFException ex) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, "the gzip body is corrupt or cut short");
        } catch (IOException ex) {
            throw new IllegalStateException("reading memory", ex);
        } finally {
            out.release();
        }
    }

    private Refused tooLarge() {
        return new Refused(413, Exchanges.RESOURCE_EXHAUSTED, "the body is larger than --limit-bytes (" + limitBytes
                + " bytes, as sent or after decompression)");
    }

    /** The spans of an OTLP/JSON export: the objects of every array named {@code spans}; 0 for JSON it cannot count. */
    private static long jsonSpans(byte[] body) {
        long n = 0;
        try (JsonParser p = JSON.createParser(body)) {
            int inSpans = -1;
            int depth = 0;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
                    if (t == JsonToken.START_OBJECT && inSpans == depth) {
                        n++;
                    }
                    depth++;
                    if (t == JsonToken.START_ARRAY && "spans".equals(p.currentName()) && inSpans < 0) {
                        inSpans = depth;
                    }
                } else if (t == JsonToken.END_ARRAY || t == JsonToken.END_OBJECT) {
                    if (t == JsonToken.END_ARRAY && inSpans == depth) {
                        inSpans = -1;
                    }
                    depth--;
                }
            }
        } catch (IOException e) {
            return n;
        }
        return n;
    }
}
