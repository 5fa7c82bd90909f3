package dev.retryaudit.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.retryaudit.input.foreign.otlp.OtlpProtobuf;
import dev.retryaudit.text.Escaping;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * The HTTP side of {@code serve}, on the JDK's HTTP server: {@code POST /v1/traces} (OTLP/HTTP,
 * protobuf or JSON, gzip or identity), {@code POST /api/v2/spans} (Zipkin v2 JSON), {@code GET /metrics}
 * and {@code GET /healthz}; every other path is 404. Requests are handled on a fixed pool of threads
 * (connections wait in the server's selector, not on a thread), each body read no further than
 * {@code --limit-bytes} after decompression.
 */
final class TraceServer implements AutoCloseable {
    private static final String TRACES = "/v1/traces";
    private static final String ZIPKIN = "/api/v2/spans";
    private static final String METRICS = "/metrics";
    private static final String HEALTH = "/healthz";
    private static final JsonFactory JSON = new JsonFactory();
    private static final long DRAIN_BYTES = 64L << 20;

    private final HttpServer server;
    private final ExecutorService pool;
    private final Receiver receiver;
    private final Consumer<String> log;
    private final Metrics metrics;
    private final long limitBytes;
    private final int depth;
    private final long retryAfterSeconds;
    private final AtomicLong lastPost;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();

    /** A request refused with an HTTP status and a message for the client. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final int code;

        Refused(int status, int code, String message) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
        }
    }

    private TraceServer(HttpServer server, ExecutorService pool, Receiver receiver, Metrics metrics, long limitBytes,
            int depth, long retryAfterSeconds, AtomicLong lastPost, Consumer<String> log) {
        this.server = server;
        this.log = log;
        this.pool = pool;
        this.receiver = receiver;
        this.metrics = metrics;
        this.limitBytes = limitBytes;
        this.depth = depth;
        this.retryAfterSeconds = retryAfterSeconds;
        this.lastPost = lastPost;
    }

    /**
     * Listens on {@code address} and serves on {@code threads} threads; {@code lastPost} is set to the
     * clock's time at each POST, {@code retryAfterSeconds} is what a 503 asks a client to wait; an internal
     * error answering a request is told to {@code log}, a line each.
     */
    static TraceServer start(InetSocketAddress address, int threads, Receiver receiver, Metrics metrics,
            long limitBytes, int depth, long retryAfterSeconds, AtomicLong lastPost, java.util.function.LongSupplier clock,
            Consumer<String> log) throws IOException {
        HttpServer server = HttpServer.create(address, 1024);
        AtomicLong n = new AtomicLong();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "retry-audit-serve-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        TraceServer s = new TraceServer(server, pool, receiver, metrics, limitBytes, depth, retryAfterSeconds, lastPost,
                log);
        server.createContext("/", exchange -> s.handle(exchange, clock));
        server.setExecutor(pool);
        server.start();
        return s;
    }

    /** The posts being answered now. */
    int inFlight() {
        return inFlight.get();
    }

    /** The address listened on (the port chosen, for port 0). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange x, java.util.function.LongSupplier clock) throws IOException {
        String path = x.getRequestURI().getRawPath();
        String route = switch (path) {
            case TRACES, ZIPKIN, METRICS, HEALTH -> path;
            default -> "other";
        };
        int status;
        try (x) {
            try {
                status = route(x, path, clock);
            } catch (Refused r) {
                status = refuse(x, r);
            }
        } catch (IOException e) {
            // The client went away mid-request or mid-answer: nothing to answer.
            status = 0;
        } catch (RuntimeException | Error e) {
            // A bug: the client gets a 500 (which OTLP exporters do not resend), the run goes on.
            status = 500;
            internal(x, e);
        }
        if (status > 0) {
            metrics.request(route, status);
        }
    }

    private int route(HttpExchange x, String path, java.util.function.LongSupplier clock) throws IOException, Refused {
        String method = x.getRequestMethod();
        switch (path) {
            case TRACES, ZIPKIN -> {
                if (!method.equals("POST")) {
                    x.getResponseHeaders().set("Allow", "POST");
                    throw new Refused(405, Exchanges.INVALID_ARGUMENT, path + " takes POST, not " + method);
                }
                inFlight.incrementAndGet();
                lastPost.set(clock.getAsLong());
                try {
                    return path.equals(TRACES) ? traces(x) : zipkin(x);
                } finally {
                    // The run is quiet from the end of the last post, not its start: a slow one keeps it open.
                    lastPost.set(clock.getAsLong());
                    inFlight.decrementAndGet();
                }
            }
            case METRICS, HEALTH -> {
                if (!method.equals("GET") && !method.equals("HEAD")) {
                    x.getResponseHeaders().set("Allow", "GET, HEAD");
                    throw new Refused(405, Exchanges.INVALID_ARGUMENT, path + " takes GET, not " + method);
                }
                byte[] body = (path.equals(METRICS) ? metrics.text() : "ok\n").getBytes(StandardCharsets.UTF_8);
                return send(x, 200, path.equals(METRICS) ? Metrics.CONTENT_TYPE : "text/plain; charset=utf-8", body);
            }
            default -> throw new Refused(404, Exchanges.NOT_FOUND, "no such path: the receiver serves POST " + TRACES
                    + ", POST " + ZIPKIN + ", GET " + METRICS + " and GET " + HEALTH);
        }
    }

    private int traces(HttpExchange x) throws IOException, Refused {
        String type = mediaType(x);
        boolean protobuf = Exchanges.PROTOBUF.equals(type);
        if (!protobuf && !Exchanges.JSON.equals(type)) {
            throw new Refused(415, Exchanges.INVALID_ARGUMENT, "unsupported Content-Type " + shown(type)
                    + ": OTLP/HTTP is application/x-protobuf or application/json");
        }
        byte[] body = body(x);
        Receiver.Receipt receipt;
        try {
            if (protobuf) {
                ExportTraceServiceRequest export;
                try {
                    export = OtlpProtobuf.parse(body, 0, body.length, depth);
                } catch (InvalidProtocolBufferException e) {
                    throw new Refused(400, Exchanges.INVALID_ARGUMENT, OtlpProtobuf.why(e));
                }
                receipt = receiver.otlp(OtlpProtobuf.json(export), spans(export), true);
            } else {
                receipt = receiver.otlp(body, jsonSpans(body), false);
            }
        } catch (Receiver.FullException e) {
            return unavailable(x, protobuf);
        } catch (Receiver.BadExportException e) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, e.getMessage());
        }
        return send(x, 200, protobuf ? Exchanges.PROTOBUF : Exchanges.JSON,
                Exchanges.response(protobuf, receipt.rejected(), receipt.message()));
    }

    private int zipkin(HttpExchange x) throws IOException, Refused {
        String type = mediaType(x);
        if (!Exchanges.JSON.equals(type)) {
            throw new Refused(415, Exchanges.INVALID_ARGUMENT, "unsupported Content-Type " + shown(type)
                    + ": the receiver takes Zipkin v2 spans as application/json");
        }
        byte[] body = body(x);
        long spans;
        try {
            spans = zipkinSpans(body);
        } catch (IOException e) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, "malformed JSON: expected a JSON array of Zipkin v2 spans");
        }
        Receiver.Receipt receipt;
        try {
            receipt = receiver.zipkin(body, spans);
        } catch (Receiver.FullException e) {
            return unavailable(x, false);
        }
        if (receipt.rejected() > 0) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, receipt.message());
        }
        return send(x, 202, null, new byte[0]);
    }

    private int unavailable(HttpExchange x, boolean protobuf) throws IOException {
        drain(x);
        x.getResponseHeaders().set("Retry-After", Long.toString(retryAfterSeconds));
        return send(x, 503, protobuf ? Exchanges.PROTOBUF : Exchanges.JSON, Exchanges.status(protobuf,
                Exchanges.UNAVAILABLE, "the receiver holds as many spans as --max-held-spans allows until their "
                        + "operations are audited; retry after " + retryAfterSeconds + " s"));
    }

    private void internal(HttpExchange x, Throwable e) {
        log.accept("retry-audit: error: internal error answering " + Escaping.controls(x.getRequestMethod()) + " "
                + Escaping.controls(x.getRequestURI().getRawPath()) + ": " + Escaping.controls(String.valueOf(e)));
        try {
            send(x, 500, Exchanges.JSON, Exchanges.status(false, Exchanges.INTERNAL, "internal error: " + e));
        } catch (IOException | RuntimeException ignored) {
            // The answer may already have started: the connection closes.
        }
    }

    private int refuse(HttpExchange x, Refused r) throws IOException {
        drain(x);
        boolean protobuf = Exchanges.PROTOBUF.equals(mediaType(x));
        return send(x, r.status, protobuf ? Exchanges.PROTOBUF : Exchanges.JSON,
                Exchanges.status(protobuf, r.code, r.getMessage()));
    }

    /**
     * Reads what is left of a refused request's body, up to {@value #DRAIN_BYTES} bytes: closing a
     * connection with request bytes unread resets it, and the client would never see the answer.
     */
    private static void drain(HttpExchange x) {
        try (InputStream in = new Bounded(x.getRequestBody(), DRAIN_BYTES)) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // Past the bound, or the client went away: the answer is sent regardless.
        }
    }

    private static int send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        if (type != null) {
            x.getResponseHeaders().set("Content-Type", type);
        }
        boolean head = x.getRequestMethod().equals("HEAD");
        x.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
        return status;
    }

    /** The request's media type in lower case, without parameters; null when it sent none. */
    private static String mediaType(HttpExchange x) {
        String t = x.getRequestHeaders().getFirst("Content-Type");
        if (t == null) {
            return null;
        }
        int semi = t.indexOf(';');
        return (semi < 0 ? t : t.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    private static String shown(String type) {
        return type == null ? "(none)" : Exchanges.quoted(type.length() > 100 ? type.substring(0, 100) + "..." : type);
    }

    /**
     * The body, decompressed as {@code Content-Encoding} says (gzip or identity), refused with 413 past
     * {@code --limit-bytes} of either the bytes sent or what they decompress to.
     */
    private byte[] body(HttpExchange x) throws IOException, Refused {
        String length = x.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.strip()) > limitBytes) {
                    throw tooLarge();
                }
            } catch (NumberFormatException e) {
                throw new Refused(400, Exchanges.INVALID_ARGUMENT, "Content-Length is not a number");
            }
        }
        String encoding = x.getRequestHeaders().getFirst("Content-Encoding");
        String e = encoding == null ? "identity" : encoding.strip().toLowerCase(Locale.ROOT);
        InputStream raw = x.getRequestBody();
        if (e.equals("identity")) {
            return bounded(raw);
        }
        if (!e.equals("gzip")) {
            throw new Refused(415, Exchanges.INVALID_ARGUMENT, "unsupported Content-Encoding " + shown(e)
                    + ": the receiver takes gzip or identity");
        }
        try (InputStream in = new GZIPInputStream(new Bounded(raw, limitBytes), 8192)) {
            return bounded(in);
        } catch (ZipException | java.io.EOFException ex) {
            throw new Refused(400, Exchanges.INVALID_ARGUMENT, "the gzip body is corrupt or cut short");
        } catch (Bounded.Over ex) {
            throw tooLarge();
        }
    }

    private byte[] bounded(InputStream in) throws IOException, Refused {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        byte[] buf = new byte[8192];
        long total = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            total += n;
            if (total > limitBytes) {
                throw tooLarge();
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private Refused tooLarge() {
        return new Refused(413, Exchanges.RESOURCE_EXHAUSTED, "the body is larger than --limit-bytes (" + limitBytes
                + " bytes, after decompression)");
    }

    /** A stream that fails once more than a limit has been read from it: the compressed side of a body. */
    private static final class Bounded extends java.io.FilterInputStream {
        static final class Over extends IOException {
            private static final long serialVersionUID = 1L;
        }

        private long left;

        Bounded(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && --left < 0) {
                throw new Over();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0 && (left -= n) < 0) {
                throw new Over();
            }
            return n;
        }
    }

    private static long spans(ExportTraceServiceRequest export) {
        long n = 0;
        for (ResourceSpans rs : export.getResourceSpansList()) {
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                n += ss.getSpansCount();
            }
        }
        return n;
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

    /** The spans of a Zipkin v2 body: the elements of its top-level array. */
    private static long zipkinSpans(byte[] body) throws IOException {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new IOException("not an array");
            }
            long n = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                n++;
                p.skipChildren();
            }
            return n;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
