package dev.retryaudit.probe;

import dev.retryaudit.model.CommitState;
import dev.retryaudit.text.Times;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The fixture: an HTTP/1.x server on 127.0.0.1 that answers the requests of its {@link Scenario}'s
 * method as the scenario says, answers other methods 405, and journals every request with its
 * arrival time. It never sleeps on its own account: the client alone decides when to come back,
 * except that the scenario may hold a response past the client's timeout. A request counts only
 * once it has arrived whole ({@link HttpConnection}); one cut off, or not HTTP at all, is counted as
 * unfinished and never journalled. Each connection is served on a thread of its own, started when it
 * is accepted, with TCP_NODELAY, so a stalled connection holds up only itself. Two bounds keep
 * stalled connections from piling up: past {@value #MAX_STALLED} connections stalled partway through
 * a request for {@value #STALLED_MILLIS} ms or more, a new connection closes the one stalled longest;
 * past {@value #MAX_OPEN} open connections, it closes the one that has waited longest for a request.
 */
public final class ProbeServer implements AutoCloseable {
    /** The path of the probe URL; any path is answered the same way. */
    public static final String PATH = "/retry-after-probe";

    /** Seconds a connection may take to send one request, from its first byte, before the server closes it. */
    public static final int READ_TIMEOUT_SECONDS = 10;

    /** Seconds a connection may stay idle, before its first request or after an answer, before the server closes it. */
    public static final int IDLE_TIMEOUT_SECONDS = 30;

    /** Connections that may stay stalled partway through a request; a new one closes the one stalled longest. */
    public static final int MAX_STALLED = 32;

    /** How long a request may take before it counts as stalled: a client that sends a request at once never does. */
    public static final int STALLED_MILLIS = 1000;

    /** Open connections at most; a new one closes the one that has waited longest for a request. */
    public static final int MAX_OPEN = 512;

    private static final byte[] LOOPBACK = {127, 0, 0, 1};
    private static final int BACKLOG = 256;

    private final Scenario scenario;
    private final String client;
    private final int maxRecorded;
    private final ServerSocket listener;
    private final ExecutorService pool;
    private final String runId = UUID.randomUUID().toString();
    private final long createdMillis = System.currentTimeMillis();
    private final List<RecordedRequest> attempts = new ArrayList<>();
    private final List<RecordedRequest> others = new ArrayList<>();
    private final Map<String, Integer> committedKeys = new HashMap<>();
    /** The open connections, each with its number (0 until it has sent a request). */
    private final Map<HttpConnection, Integer> open = new HashMap<>();
    /** The open connections waiting for a request (idle, or partway through one), the one that has waited longest first. */
    private final Set<HttpConnection> waiting = new LinkedHashSet<>();
    private int connectionCount;
    private int count;
    private long unrecorded;
    private long unfinished;
    /** The receipt time of the request recorded last: the journal's times never go back. */
    private long lastReceived;

    private ProbeServer(Scenario scenario, String client, int maxRecorded, ServerSocket listener, ExecutorService pool) {
        this.scenario = scenario;
        this.client = client;
        this.maxRecorded = maxRecorded;
        this.listener = listener;
        this.pool = pool;
    }

    /**
     * Starts a server on 127.0.0.1:{@code port} (0 for an ephemeral port) for the client command
     * {@code client} (null when none is run) that journals at most {@code maxRecorded} requests of
     * each kind and counts the rest.
     */
    public static ProbeServer start(Scenario scenario, String client, int port, int maxRecorded) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.bind(new InetSocketAddress(InetAddress.getByAddress(LOOPBACK), port), BACKLOG);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "probe-connection");
            t.setDaemon(true);
            return t;
        });
        ProbeServer probe = new ProbeServer(scenario, client, maxRecorded, listener, pool);
        Thread accept = new Thread(probe::accept, "probe-accept");
        accept.setDaemon(true);
        accept.start();
        return probe;
    }

    /** The URL a client should call. */
    public String url() {
        return "http://127.0.0.1:" + listener.getLocalPort() + PATH;
    }

    /** Stops serving and ends held responses; requests already journaled stay recorded. */
    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // the port is given up either way
        }
        synchronized (this) {
            open.keySet().forEach(HttpConnection::close);
        }
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What has been recorded so far. */
    public synchronized RecordedTrace trace() {
        // a connection partway through a request now is one more unfinished request, unless it completes it
        long partway = open.keySet().stream().filter(HttpConnection::started).count();
        return new RecordedTrace(runId, createdMillis, scenario, client, attempts, others, unrecorded,
                unfinished + partway);
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                // closed, or a connection that failed while it was accepted: the next one is served all the same
                continue;
            }
            try {
                socket.setTcpNoDelay(true);
                HttpConnection c = new HttpConnection(socket, READ_TIMEOUT_SECONDS * 1000L, IDLE_TIMEOUT_SECONDS * 1000L);
                if (admit(c)) {
                    pool.execute(() -> serve(c));
                }
            } catch (IOException | RejectedExecutionException e) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // a connection that cannot be served is dropped
                }
            }
        }
    }

    /**
     * Takes {@code c} in as waiting for its first request, closing the connections stalled longest past
     * {@link #MAX_STALLED}, and the one that has waited longest past {@link #MAX_OPEN}. The thread of a
     * closed connection sees its socket close and counts the request it was partway through.
     */
    private synchronized boolean admit(HttpConnection c) {
        if (listener.isClosed()) {
            c.close();
            return false;
        }
        long stale = System.currentTimeMillis() - STALLED_MILLIS;
        List<HttpConnection> stalled = waiting.stream().filter(w -> w.started() && w.startedMillis() <= stale)
                .sorted(java.util.Comparator.comparingLong(HttpConnection::startedMillis)).toList();
        for (int i = 0; i < stalled.size() - MAX_STALLED; i++) {
            waiting.remove(stalled.get(i));
            stalled.get(i).close();
        }
        if (open.size() >= MAX_OPEN && !waiting.isEmpty()) {
            HttpConnection oldest = waiting.iterator().next();
            waiting.remove(oldest);
            oldest.close();
        }
        open.put(c, 0);
        waiting.add(c);
        return true;
    }

    private synchronized void waitFor(HttpConnection c) {
        waiting.add(c);
    }

    private void serve(HttpConnection c) {
        try {
            for (HttpConnection.Request request; (request = c.next()) != null;) {
                synchronized (this) {
                    waiting.remove(c);
                }
                RecordedRequest r = record(c, request);
                if (r.stalledMillis() > 0 && !hold(r.stalledMillis())) {
                    return;
                }
                respond(c, request, r);
                if (!request.keepAlive()) {
                    return;
                }
                waitFor(c);
            }
        } catch (HttpConnection.MalformedException e) {
            c.reject(e.getMessage());
        } catch (IOException e) {
            // the connection ended or ran out of time partway through a request: counted below, never journalled
        } finally {
            finish(c);
            c.close();
        }
    }

    private synchronized void finish(HttpConnection c) {
        if (open.remove(c) != null && c.started()) {
            unfinished++;
        }
        waiting.remove(c);
    }

    private void respond(HttpConnection c, HttpConnection.Request request, RecordedRequest r) throws IOException {
        OtlpAnswer otlp = OtlpAnswer.of(request.path(), request.header("Content-Type"));
        List<String[]> headers = new ArrayList<>(4);
        headers.add(new String[] {"Content-Type", otlp == null ? "application/json" : otlp.contentType()});
        headers.add(new String[] {"Cache-Control", "no-store"});
        if (r.ask() != null && r.ask().retryAfter() != null) {
            headers.add(new String[] {"Retry-After", r.ask().retryAfter()});
        }
        if (r.ask() != null && r.ask().retryAfterMs() != null) {
            headers.add(new String[] {HeaderFormat.MS_HEADER, r.ask().retryAfterMs()});
        }
        if (!r.inScenario()) {
            headers.add(new String[] {"Allow", scenario.method()});
        }
        byte[] out = otlp != null ? otlp.body(r.status()) : fixtureBody(r);
        c.respond(r.status(), headers, out, r.method().equals("HEAD"), !request.keepAlive());
    }

    /** The fixture's own JSON body: the attempt, its status, the request whose result it replays and its arrival. */
    private byte[] fixtureBody(RecordedRequest r) {
        String what = r.inScenario() ? "\"attempt\": " + r.sequence() : "\"allow\": \"" + scenario.method() + "\"";
        return ("{\"fixture\": \"retry-audit probe test server\", " + what + ", \"status\": " + r.status()
                + (r.replayOf() > 0 ? ", \"replay_of\": " + r.replayOf() : "")
                + ", \"server_received_at\": \"" + Times.format(r.receivedMillis()) + "\"}\n")
                .getBytes(StandardCharsets.UTF_8);
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

    private synchronized RecordedRequest record(HttpConnection c, HttpConnection.Request request) {
        // two requests arriving together may reach this lock in either order; the one recorded later is
        // given at least the earlier one's time, so that the journal's order and its times agree
        long received = Math.max(request.receivedMillis(), lastReceived);
        lastReceived = received;
        String method = request.method();
        String path = request.path();
        int connection = open.merge(c, 0, (was, none) -> was == 0 ? ++connectionCount : was);
        String key = request.header(scenario.keyHeader());
        String hash = request.bodyHash();
        long length = request.bodyLength();
        RecordedRequest.Sent sent = new RecordedRequest.Sent(method, path, key, hash, length);
        if (!method.equals(scenario.method())) {
            RecordedRequest r = new RecordedRequest(0, received, connection, sent,
                    new RecordedRequest.Answer(405, null, null, 0, 0));
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
        RecordedRequest r = new RecordedRequest(n, received, connection, sent,
                new RecordedRequest.Answer(status, ask, commit, stalled, replayOf));
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
}
