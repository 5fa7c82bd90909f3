package dev.retryaudit.probe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.retryaudit.model.Times;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Retry-After fixture: an HTTP server on 127.0.0.1 that answers GETs as its {@link Scenario}
 * says, answers other methods 405, and records every request with its arrival time. It never
 * sleeps: the client alone decides when to come back.
 */
public final class ProbeServer implements AutoCloseable {
    /** The path of the probe URL; any path is answered the same way. */
    public static final String PATH = "/retry-after-probe";

    private static final byte[] LOOPBACK = {127, 0, 0, 1};

    private final Scenario scenario;
    private final int maxRecorded;
    private final HttpServer server;
    private final String runId = UUID.randomUUID().toString();
    private final long createdMillis = System.currentTimeMillis();
    private final List<RecordedRequest> gets = new ArrayList<>();
    private final List<RecordedRequest> others = new ArrayList<>();
    private int getCount;
    private long unrecorded;

    private ProbeServer(Scenario scenario, int maxRecorded, HttpServer server) {
        this.scenario = scenario;
        this.maxRecorded = maxRecorded;
        this.server = server;
    }

    /**
     * Starts a server on 127.0.0.1:{@code port} (0 for an ephemeral port) that records at most
     * {@code maxRecorded} requests of each kind and counts the rest.
     */
    public static ProbeServer start(Scenario scenario, int port, int maxRecorded) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(LOOPBACK), port), 0);
        ProbeServer probe = new ProbeServer(scenario, maxRecorded, http);
        http.createContext("/", probe::handle);
        http.start();
        return probe;
    }

    /** The URL a client should call. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    /** Stops serving; requests already answered stay recorded. */
    @Override
    public void close() {
        server.stop(0);
    }

    /** What has been recorded so far. */
    public synchronized RecordedTrace trace() {
        return new RecordedTrace(runId, createdMillis, scenario, gets, others, unrecorded);
    }

    private void handle(HttpExchange ex) throws IOException {
        long received = System.currentTimeMillis();
        try (ex; InputStream body = ex.getRequestBody()) {
            body.transferTo(OutputStream.nullOutputStream());
            String method = ex.getRequestMethod();
            RecordedRequest r = record(received, method);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            if (r.retryAfter() != null) {
                ex.getResponseHeaders().set("Retry-After", r.retryAfter());
            }
            if (!r.isGet()) {
                ex.getResponseHeaders().set("Allow", "GET");
            }
            String what = r.isGet() ? "\"attempt\": " + r.sequence() : "\"allow\": \"GET\"";
            byte[] out = ("{" + what + ", \"status\": " + r.status() + ", \"server_received_at\": \""
                    + Times.format(received) + "\"}\n").getBytes(StandardCharsets.UTF_8);
            if (method.equals("HEAD")) {
                ex.sendResponseHeaders(r.status(), -1);
                return;
            }
            ex.sendResponseHeaders(r.status(), out.length);
            ex.getResponseBody().write(out);
        }
    }

    private synchronized RecordedRequest record(long received, String method) {
        if (!method.equals("GET")) {
            RecordedRequest r = new RecordedRequest(0, received, method, 405, null);
            keep(others, r);
            return r;
        }
        int n = ++getCount;
        int status = scenario.statusOf(n);
        String retryAfter = status == 200 || status == 410 ? null
                : scenario.headerFormat().retryAfter(received, scenario.delaySeconds());
        RecordedRequest r = new RecordedRequest(n, received, method, status, retryAfter);
        keep(gets, r);
        return r;
    }

    private void keep(List<RecordedRequest> list, RecordedRequest r) {
        if (list.size() < maxRecorded) {
            list.add(r);
        } else {
            unrecorded++;
        }
    }
}
