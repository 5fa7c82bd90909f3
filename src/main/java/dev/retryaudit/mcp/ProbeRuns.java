package dev.retryaudit.mcp;

import dev.retryaudit.probe.ProbeServer;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The open probe runs: each a {@link ProbeServer} on 127.0.0.1 with its id. At most {@code max} are open at
 * once; a run expires {@code ttl} after it was created, and an expired run is stopped and forgotten at the next
 * look (and by the server's sweeper), so an agent that never finishes a run leaves nothing listening for long.
 */
final class ProbeRuns implements AutoCloseable {
    private final int max;
    private final Duration ttl;
    private final Map<String, Run> runs = new LinkedHashMap<>();

    /** One open run: its server, when it was created (System.nanoTime) and when it expires. */
    record Run(String id, ProbeServer server, long createdNanos, long expiresNanos, long expiresMillis) {
        /** How long the run has served, in whole seconds. */
        long servedSeconds() {
            return Duration.ofNanos(System.nanoTime() - createdNanos).toSeconds();
        }
    }

    ProbeRuns(int max, Duration ttl) {
        this.max = max;
        this.ttl = ttl;
    }

    Duration ttl() {
        return ttl;
    }

    /** Starts a run of {@code scenario}, unless {@code max} runs are open. */
    synchronized Run create(Scenario scenario, int maxRecorded) throws ToolError {
        sweep();
        if (runs.size() >= max) {
            throw new ToolError(max + (max == 1 ? " probe run is open" : " probe runs are open") + ", the most this server keeps (--max-runs): finish one "
                    + "with finish_probe_run, or wait until one expires (" + ttl.toSeconds() + " s after it was created)");
        }
        ProbeServer server;
        try {
            server = ProbeServer.start(scenario, null, 0, maxRecorded);
        } catch (IOException e) {
            throw new ToolError("cannot listen on 127.0.0.1: " + Escaping.controls(String.valueOf(e.getMessage())));
        }
        long now = System.nanoTime();
        Run run = new Run(server.trace().runId(), server, now, now + ttl.toNanos(),
                System.currentTimeMillis() + ttl.toMillis());
        runs.put(run.id(), run);
        return run;
    }

    /** The open run {@code id}. */
    synchronized Run get(String id) throws ToolError {
        sweep();
        Run run = runs.get(id);
        if (run == null) {
            throw unknown(id);
        }
        return run;
    }

    /** Stops the open run {@code id} and forgets it; its recorded trace stays readable from the returned run. */
    synchronized Run finish(String id) throws ToolError {
        Run run = get(id);
        runs.remove(id);
        run.server().close();
        return run;
    }

    /** Stops and forgets every expired run. */
    synchronized void sweep() {
        long now = System.nanoTime();
        for (Iterator<Run> it = runs.values().iterator(); it.hasNext();) {
            Run r = it.next();
            if (now - r.expiresNanos() >= 0) {
                r.server().close();
                it.remove();
            }
        }
    }

    /** Stops every run. */
    @Override
    public synchronized void close() {
        List<Run> open = new ArrayList<>(runs.values());
        runs.clear();
        open.forEach(r -> r.server().close());
    }

    private ToolError unknown(String id) {
        return new ToolError("no open probe run " + Escaping.shortened(id, 80) + ": it was finished, it expired ("
                + ttl.toSeconds() + " s after it was created), or it never existed");
    }
}
