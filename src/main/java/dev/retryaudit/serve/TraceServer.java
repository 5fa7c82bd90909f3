package dev.retryaudit.serve;

import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The connections of {@code serve}, on Jetty: request line and headers are parsed on the selector
 * (431 past {@value #HEADER_BYTES} bytes of headers), bodies read as they arrive with no thread
 * waiting for them, every read cut after the read timeout, at most a set number of connections open.
 * A body is refused with 413 by its {@code Content-Length} before any of it is read, or once more of
 * it than the limit has come; the bodies being read together take at most {@link #budget} bytes,
 * past which a request is answered 503. A whole request is answered by {@link Routes}.
 */
final class TraceServer implements AutoCloseable {
    /** The most bytes of a request line and headers; more is answered 431. */
    static final int HEADER_BYTES = 64 * 1024;
    private static final byte[] NONE = new byte[0];

    private final Server server;
    private final ServerConnector connector;
    private final Routes routes;
    private final long limitBytes;
    private final BodyBudget budget;
    private final AtomicLong lastPost;
    private final LongSupplier clock;
    private final Consumer<String> log;
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Where and how to listen: address, read timeout, most open connections, most body bytes of a request. */
    record Listening(InetSocketAddress address, long readTimeoutMillis, int maxConnections, long limitBytes) {
    }

    private TraceServer(Server server, ServerConnector connector, Routes routes, Listening listening, AtomicLong lastPost,
            LongSupplier clock, Consumer<String> log) {
        this.server = server;
        this.connector = connector;
        this.routes = routes;
        this.limitBytes = listening.limitBytes();
        this.budget = routes.budget();
        this.lastPost = lastPost;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Listens as {@code listening} says and answers with {@code routes}; {@code lastPost} is set to the clock's
     * time at the start and end of each post of spans; an internal error answering a request is told to
     * {@code log}, a line each.
     */
    static TraceServer start(Listening listening, Routes routes, AtomicLong lastPost, LongSupplier clock,
            Consumer<String> log) throws IOException {
        QueuedThreadPool pool = new QueuedThreadPool(16, 2);
        pool.setName("retry-audit-serve");
        pool.setDaemon(true);
        Server server = new Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setRequestHeaderSize(HEADER_BYTES);
        config.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
        connector.setHost(listening.address().getAddress().getHostAddress());
        connector.setPort(listening.address().getPort());
        connector.setIdleTimeout(listening.readTimeoutMillis());
        connector.setAcceptQueueSize(1024);
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(listening.maxConnections(), connector));
        TraceServer s = new TraceServer(server, connector, routes, listening, lastPost, clock, log);
        server.setHandler(s.new Handling());
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly(server);
            throw e.getCause() instanceof BindException b ? b : e;
        } catch (Exception e) {
            stopQuietly(server);
            throw new IOException(e.getMessage(), e);
        }
        return s;
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            // Stopping a server that did not start: nothing more to release.
        }
    }

    /** The posts of spans being answered now. */
    int inFlight() {
        return inFlight.get();
    }

    /** The address listened on (the port chosen, for port 0). */
    InetSocketAddress address() {
        return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
    }

    /** Every request: its body read as it comes, then answered by the routes. */
    /** How many times {@code --limit-bytes} a body refused by its length may be, to be read on and dropped ({@link Drain}). */
    private static final long DRAINED_LIMITS = 4;

    private final class Handling extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String method = request.getMethod();
            String path = request.getHttpURI().getPath();
            UnaryOperator<String> header = name -> request.getHeaders().get(name);
            Callback done = callback;
            if (Routes.posting(method, path)) {
                inFlight.incrementAndGet();
                lastPost.set(clock.getAsLong());
                done = new Ending(callback);
            }
            Routes.Call bodiless = new Routes.Call(method, path, header, NONE);
            if (!Routes.takesBody(method, path)) {
                reply(request, response, done, bodiless, null);
            } else if (request.getLength() > limitBytes) {
                closing(response);
                send(request, response, new Drain(request, done, request.getLength()), routes.tooLarge(bodiless));
            } else {
                new Body(request, response, done, bodiless).run();
            }
            return true;
        }
    }

    /** The end of a post: the run is quiet from the end of the last post, not its start, so a slow one keeps it open. */
    private final class Ending implements Callback {
        private final Callback callback;

        Ending(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            end();
            callback.succeeded();
        }

        @Override
        public void failed(Throwable x) {
            end();
            callback.failed(x);
        }

        private void end() {
            lastPost.set(clock.getAsLong());
            inFlight.decrementAndGet();
        }
    }

    /**
     * Once a body refused by its {@code Content-Length} has been answered, reads it on and drops it, chunk by chunk,
     * before the exchange ends, if it is at most {@value #DRAINED_LIMITS} times the limit: a connection closed with
     * bytes unread is reset, and a client still sending may lose the answer to the reset and send the body again.
     */
    private final class Drain implements Callback, Runnable {
        private final Request request;
        private final Callback done;
        private final long length;

        Drain(Request request, Callback done, long length) {
            this.request = request;
            this.done = done;
            this.length = length;
        }

        @Override
        public void succeeded() {
            if (length > DRAINED_LIMITS * limitBytes) {
                done.succeeded();
                return;
            }
            run();
        }

        @Override
        public void failed(Throwable x) {
            done.failed(x);
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                boolean last = chunk.isLast() || Content.Chunk.isFailure(chunk);
                chunk.release();
                if (last) {
                    done.succeeded();
                    return;
                }
            }
        }
    }

    /** A body read chunk by chunk as the client sends it; no thread waits for the next chunk. */
    private final class Body implements Runnable {
        private final Request request;
        private final Response response;
        private final Callback done;
        private final Routes.Call call;
        private final Blocks bytes;

        Body(Request request, Response response, Callback done, Routes.Call call) {
            this.request = request;
            this.response = response;
            this.done = done;
            this.call = call;
            this.bytes = new Blocks(budget);
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    bytes.release();
                    if (chunk.getFailure() instanceof java.util.concurrent.TimeoutException) {
                        send(request, response, done, routes.timedOut(call));
                    } else {
                        // The client went away: nothing to answer.
                        done.failed(chunk.getFailure());
                    }
                    return;
                }
                bytes.write(chunk.getByteBuffer());
                chunk.release();
                if (bytes.size() > limitBytes || bytes.dropped()) {
                    bytes.release();
                    closing(response);
                    send(request, response, done, bytes.dropped() ? routes.busy(call) : routes.tooLarge(call));
                    return;
                }
                if (chunk.isLast()) {
                    byte[] body = bytes.whole();
                    if (body == null) {
                        send(request, response, done, routes.busy(call));
                        return;
                    }
                    try {
                        reply(request, response, done, call, body);
                    } finally {
                        budget.give(body.length);
                    }
                    return;
                }
            }
        }
    }

    /** Answers {@code call} with the body read ({@code null}: none read), or 500 for a bug, which the run survives. */
    private void reply(Request request, Response response, Callback done, Routes.Call call, byte[] body) {
        Routes.Reply r;
        try {
            r = routes.answer(body == null ? call : new Routes.Call(call.method(), call.path(), call.header(), body));
        } catch (RuntimeException | Error e) {
            log.accept("retry-audit: error: internal error answering " + Escaping.controls(call.method()) + " "
                    + Escaping.controls(call.path()) + ": " + Escaping.controls(String.valueOf(e)));
            r = new Routes.Reply(500, Exchanges.JSON, Exchanges.status(false, Exchanges.INTERNAL, "internal error: " + e));
        }
        send(request, response, done, r);
    }

    /**
     * Says that the connection closes after this answer: a body refused before it was read whole is left
     * unread, so a client must not send its next request on the same connection.
     */
    private static void closing(Response response) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }

    private static void send(Request request, Response response, Callback done, Routes.Reply r) {
        response.setStatus(r.status());
        HttpFields.Mutable h = response.getHeaders();
        if (r.type() != null) {
            h.put(HttpHeader.CONTENT_TYPE, r.type());
        }
        r.headers().forEach(h::put);
        h.put(HttpHeader.CONTENT_LENGTH, r.body().length);
        boolean head = request.getMethod().equals("HEAD");
        response.write(true, head || r.body().length == 0 ? null : ByteBuffer.wrap(r.body()), done);
    }

    @Override
    public void close() {
        stopQuietly(server);
    }
}
