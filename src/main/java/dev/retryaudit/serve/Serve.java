package dev.retryaudit.serve;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run of the receiver: listening, holding spans by linking context, auditing each context when
 * it goes idle and handing its findings on, until {@link #stop} (a signal), a wrapped test command's
 * end and its exporters' last flush, or a quiet time after the first span; then {@link #finish} audits
 * what is still open and judges the cross-operation rules.
 */
public final class Serve implements AutoCloseable {
    /**
     * How to serve: where to listen, how long a linking context must be idle before it is audited (plus
     * the longest Retry-After seen in it), the most attempt spans held, the limits of reading, how
     * connections are bounded, and whether {@link #finish}'s result is for a report: with a {@code reportSpill}
     * directory it holds every finding of the run (those handed on are kept serialized in a temporary file of
     * that directory until then, not on the heap); with none (null), it holds what its verdict
     * ({@link RetryAudit#passed}) needs, the findings of the rules across operations and, of the others, the
     * first of each severity the baseline does not hold, and the receiver keeps no other.
     */
    public record Settings(InetSocketAddress listen, Duration idle, long maxHeldSpans, Limits limits,
            Connections connections, Path reportSpill) {
        public Settings {
            if (idle.isNegative() || maxHeldSpans < 1) {
                throw new IllegalArgumentException("idle must be 0 or more and maxHeldSpans 1 or more");
            }
        }
    }

    /** The default most bytes of one request's body, as sent and after decompression: a collector's default. */
    public static final long REQUEST_BYTES = 20L << 20;

    /** The longest wait for the exporters' last flush after a wrapped command exits. */
    public static final Duration GRACE_CAP = Duration.ofSeconds(30);
    private static final long TICK_NANOS = 100_000_000L;

    /** How connections are bounded: a read that waits longer than the read timeout closes its connection; at most so many open. */
    public record Connections(Duration readTimeout, int max) {
        /** 30 s to read, 256 connections. */
        public static final Connections DEFAULTS = new Connections(Duration.ofSeconds(30), 256);

        public Connections {
            if (readTimeout.isNegative() || readTimeout.isZero() || max < 1) {
                throw new IllegalArgumentException("the read timeout must be positive and the connections 1 or more");
            }
        }
    }

    /** The name of the run's input in reports: the path OTLP exports are posted to. */
    public static final String SOURCE = Receiver.OTLP_SOURCE;

    private final Settings settings;
    private final Receiver receiver;
    private final TraceServer server;
    private final ScheduledExecutorService sweeper;
    private final AtomicLong lastPost;
    private final Metrics metrics;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private Serve(Settings settings, Receiver receiver, TraceServer server, ScheduledExecutorService sweeper,
            AtomicLong lastPost, Metrics metrics) {
        this.settings = settings;
        this.receiver = receiver;
        this.server = server;
        this.sweeper = sweeper;
        this.lastPost = lastPost;
        this.metrics = metrics;
    }

    /**
     * Starts listening; the findings of each part audited go to {@code findings} together as they are made, and an
     * internal error answering a request to {@code log} as one line.
     */
    public static Serve start(RetryAudit auditor, Settings settings, Consumer<List<Finding>> findings,
            Consumer<String> log)
            throws IOException {
        Metrics metrics = new Metrics(settings.maxHeldSpans());
        Receiver receiver = new Receiver(auditor, settings.limits(), settings.idle().toNanos(),
                settings.maxHeldSpans(), System::nanoTime, findings, metrics, settings.reportSpill());
        AtomicLong lastPost = new AtomicLong(System.nanoTime());
        long retryAfter = Math.max(1, (settings.idle().toMillis() + 999) / 1000);
        Routes routes = new Routes(receiver, metrics, settings.limits().bytes(), settings.limits().depth(), retryAfter);
        TraceServer server = TraceServer.start(new TraceServer.Listening(settings.listen(),
                settings.connections().readTimeout().toMillis(), settings.connections().max(), settings.limits().bytes()),
                routes, lastPost, System::nanoTime, log);
        ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "retry-audit-serve-sweep");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(10, Math.min(1000, settings.idle().toMillis() / 4));
        sweeper.scheduleWithFixedDelay(receiver::sweep, period, period, TimeUnit.MILLISECONDS);
        Serve serve = new Serve(settings, receiver, server, sweeper, lastPost, metrics);
        // Findings that cannot be kept for the report end the run at once, as findings that cannot be written do.
        receiver.onKeepFailure(serve::stop);
        return serve;
    }

    /** The spans taken so far from exports that were accepted, in part or whole; refused exports count none. */
    public long spansReceived() {
        return metrics.spansReceived();
    }

    /** The address listened on. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** Ends the run: {@link #awaitQuiet} and {@link #awaitCommand} return. */
    public void stop() {
        stopped.countDown();
    }

    /**
     * Waits until {@link #stop}, or until no trace has been posted for {@code quiet} counted from the first
     * span taken (a post being answered keeps the run open); a run that takes no span ends after
     * {@code firstWithin}.
     */
    public void awaitQuiet(Duration quiet, Duration firstWithin) throws InterruptedException {
        long start = System.nanoTime();
        while (metrics.spansReceived() == 0) {
            long left = firstWithin.toNanos() - (System.nanoTime() - start);
            if (left <= 0 || stopped.await(Math.min(left, TICK_NANOS), TimeUnit.NANOSECONDS)) {
                return;
            }
        }
        awaitQuietSince(lastPost.get(), quiet.toNanos(), Long.MAX_VALUE);
    }

    /** Waits until {@link #stop}. */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    /**
     * Waits for {@code command} to exit, then for its exporters' last flush: until no trace has been
     * posted for {@code grace} after the exit (a post being answered keeps the run open), at most
     * {@link #GRACE_CAP} after it. Returns the command's exit code, or null when {@link #stop} came first.
     */
    public Integer awaitCommand(Process command, Duration grace) throws InterruptedException {
        while (!command.waitFor(TICK_NANOS, TimeUnit.NANOSECONDS)) {
            if (stopped.getCount() == 0) {
                return null;
            }
        }
        long exited = System.nanoTime();
        awaitQuietSince(exited, grace.toNanos(), GRACE_CAP.toNanos());
        return command.exitValue();
    }

    /**
     * Waits until no trace has been posted for {@code quiet} since {@code from} or the last post later than it,
     * at most {@code cap} after {@code from} ({@link Long#MAX_VALUE}: no cap).
     */
    private void awaitQuietSince(long from, long quiet, long cap) throws InterruptedException {
        while (true) {
            long now = System.nanoTime();
            long last = lastPost.get();
            long since = now - (last - from > 0 ? last : from);
            long left = cap == Long.MAX_VALUE ? Long.MAX_VALUE : cap - (now - from);
            if ((since >= quiet && server.inFlight() == 0) || left <= 0) {
                return;
            }
            long wait = Math.max(1, Math.min(Math.min(quiet - since, left), TICK_NANOS));
            if (stopped.await(wait, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    /**
     * Stops listening, audits every context still open and judges the cross-operation rules: the run's result.
     *
     * @throws IOException when the findings kept for the report could not all be kept, or read back; its message
     *     says where and why
     */
    public AuditResult finish() throws IOException {
        close();
        return receiver.finish();
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        server.close();
    }
}
