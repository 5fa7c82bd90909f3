package dev.retryaudit.probe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.Times;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The fixture: an HTTP server on 127.0.0.1 that answers the requests of its {@link Scenario}'s
 * method as the scenario says, answers other methods 405, and journals every request with its
 * arrival time. It never sleeps on its own account: the client alone decides when to come back,
 * except that the scenario may hold a response past the client's timeout. Each exchange runs on a
 * thread of its own pool, with TCP_NODELAY and a per-connection limit on the time to read a
 * request, so one slow or stalled connection never holds up another.
 */
public final class ProbeServer implements AutoCloseable {
    /** The path of the probe URL; any path is answered the same way. */
    public static final String PATH = "/retry-after-probe";

    /** Seconds a connection may take to send one request before the server closes it. */
    public static final int READ_TIMEOUT_SECONDS = 10;

    /** Exchanges served at once; more wait for a free thread. */
    private static final int THREADS = 64;

    private static final byte[] LOOPBACK = {127, 0, 0, 1};

    static {
        // Read once by the JDK's server when it first starts; a value the user set on the command line wins.
        setDefault("sun.net.httpserver.nodelay", "true");
        setDefault("sun.net.httpserver.maxReqTime", Integer.toString(READ_TIMEOUT_SECONDS));
    }

    private final Scenario scenario;
    private final String client;
    private final int maxRecorded;
    private final HttpServer server;
    private final ExecutorService pool;
    private final String runId = UUID.randomUUID().toString();
    private final long createdMillis = System.currentTimeMillis();
    private final List<RecordedRequest> attempts = new ArrayList<>();
    private final List<RecordedRequest> others = new ArrayList<>();
    private final Map<String, Integer> connections = new HashMap<>();
    private final Map<String, Integer> committedKeys = new HashMap<>();
    private int count;
    private long unrecorded;
    /** The receipt time of the request recorded last: the journal's times never go back. */
    private long lastReceived;

    private ProbeServer(Scenario scenario, String client, int maxRecorded, HttpServer server, ExecutorService pool) {
        this.scenario = scenario;
        this.client = client;
        this.maxRecorded = maxRecorded;
        this.server = server;
        this.pool = pool;
    }

    /**
     * Starts a server on 127.0.0.1:{@code port} (0 for an ephemeral port) for the client command
     * {@code client} (null when none is run) that journals at most {@code maxRecorded} requests of
     * each kind and counts the rest.
     */
    public static ProbeServer start(Scenario scenario, String client, int port, int maxRecorded) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(LOOPBACK), port), 0);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "probe-exchange");
            t.setDaemon(true);
            return t;
        });
        ProbeServer probe = new ProbeServer(scenario, client, maxRecorded, http, pool);
        http.createContext("/", probe::handle);
        http.setExecutor(pool);
        http.start();
        return probe;
    }

    /** The URL a client should call. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    /** Stops serving and ends held responses; requests already journaled stay recorded. */
    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What has been recorded so far. */
    public synchronized RecordedTrace trace() {
        return new RecordedTrace(runId, createdMillis, scenario, client, attempts, others, unrecorded);
    }

    private void handle(HttpExchange ex) throws IOException {
        long received = System.currentTimeMillis();
        try (ex; InputStream body = ex.getRequestBody()) {
            MessageDigest sha = sha256();
            long length = 0;
            byte[] buf = new byte[8192];
            for (int n; (n = body.read(buf)) > 0; length += n) {
                sha.update(buf, 0, n);
            }
            RecordedRequest r = record(received, ex, "sha256:" + HexFormat.of().formatHex(sha.digest()), length);
            if (r.stalledMillis() > 0 && !hold(r.stalledMillis())) {
                return;
            }
            respond(ex, r);
        }
    }

    private void respond(HttpExchange ex, RecordedRequest r) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        if (r.ask() != null && r.ask().retryAfter() != null) {
            ex.getResponseHeaders().set("Retry-After", r.ask().retryAfter());
        }
        if (r.ask() != null && r.ask().retryAfterMs() != null) {
            ex.getResponseHeaders().set(HeaderFormat.MS_HEADER, r.ask().retryAfterMs());
        }
        if (!r.inScenario()) {
            ex.getResponseHeaders().set("Allow", scenario.method());
        }
        String what = r.inScenario() ? "\"attempt\": " + r.sequence() : "\"allow\": \"" + scenario.method() + "\"";
        byte[] out = ("{\"fixture\": \"retry-audit probe test server\", " + what + ", \"status\": " + r.status()
                + (r.replayOf() > 0 ? ", \"replay_of\": " + r.replayOf() : "")
                + ", \"server_received_at\": \"" + Times.format(r.receivedMillis()) + "\"}\n")
                .getBytes(StandardCharsets.UTF_8);
        if (r.method().equals("HEAD")) {
            ex.sendResponseHeaders(r.status(), -1);
            return;
        }
        ex.sendResponseHeaders(r.status(), out.length);
        ex.getResponseBody().write(out);
    }

    /** Holds a response; false when the server closed meanwhile. */
    private static boolean hold(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private synchronized RecordedRequest record(long arrived, HttpExchange ex, String hash, long length) {
        // two requests arriving together may reach this lock in either order; the one recorded later is
        // given at least the earlier one's time, so that the journal's order and its times agree
        long received = Math.max(arrived, lastReceived);
        lastReceived = received;
        String method = ex.getRequestMethod();
        String path = String.valueOf(ex.getRequestURI().getRawPath());
        int connection = connections.computeIfAbsent(String.valueOf(ex.getRemoteAddress()), k -> connections.size() + 1);
        String key = ex.getRequestHeaders().getFirst(scenario.keyHeader());
        if (!method.equals(scenario.method())) {
            RecordedRequest r = new RecordedRequest(0, received, method, path, connection, key, hash, length, 405, null,
                    null, 0, 0);
            keep(others, r);
            return r;
        }
        int n = ++count;
        int status = scenario.statusOf(n);
        boolean failure = n <= scenario.failures();
        HeaderFormat.Ask ask = failure && !scenario.stalls() && !scenario.rejects()
                ? scenario.headerFormat().ask(received, scenario.delayOf(n)) : null;
        long stalled = failure && scenario.stalls() ? scenario.stallSeconds() * 1000 : 0;
        CommitState commit = null;
        int replayOf = 0;
        if (scenario.writes()) {
            Integer first = key == null || !scenario.dedupe() ? null : committedKeys.get(key);
            if (status != 200) {
                commit = CommitState.REJECTED;
            } else if (first != null) {
                commit = CommitState.REJECTED;
                replayOf = first;
            } else {
                commit = CommitState.COMMITTED;
                if (key != null) {
                    committedKeys.put(key, n);
                }
            }
        }
        RecordedRequest r = new RecordedRequest(n, received, method, path, connection, key, hash, length, status, ask,
                commit, stalled, replayOf);
        keep(attempts, r);
        return r;
    }

    private void keep(List<RecordedRequest> list, RecordedRequest r) {
        if (list.size() < maxRecorded) {
            list.add(r);
        } else {
            unrecorded++;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static void setDefault(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
