package dev.retryaudit.probe;

import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.util.List;
import java.util.Objects;

/**
 * Runs a probe: serves the scenario on 127.0.0.1 while the client under test runs against it (or, without
 * a client, until the timeout, for a client started by hand), then stops and returns the {@link ProbeRun}:
 * the recorded trace, the operations built from it, and how the client ended.
 */
public final class ProbeService {
    private ProbeService() {
    }

    /**
     * What to run: the scenario to serve, the client command ({@code {url}} not yet replaced; empty to serve
     * for a client started by hand), how long to give it (1..86400 s), the port (0 for a free one) and the
     * most requests of the scenario's method to record.
     */
    public record Request(Scenario scenario, List<String> command, long timeoutSeconds, int port, int maxRecorded) {
        public Request {
            Objects.requireNonNull(scenario, "scenario");
            command = List.copyOf(command);
        }

        /** The client command as the trace names it (its tool), or null without one. */
        public String client() {
            return command.isEmpty() ? null : String.join(" ", command);
        }
    }

    /** A probe that could not start: its port cannot be listened on, or its client cannot be run. */
    public static final class StartException extends Exception {
        private static final long serialVersionUID = 1L;

        StartException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Runs {@code request}. Progress lines (what is served, what runs) go to {@code log}, each after
     * {@code prefix}, and so does the client's output, each line marked {@value ClientRun#MARK}.
     */
    public static ProbeRun run(Request request, PrintWriter log, String prefix)
            throws StartException, IOException, InterruptedException {
        try (ProbeServer server = listen(request)) {
            String url = server.url();
            List<String> expanded = ClientRun.expand(request.command(), url);
            ClientRun.Result result = null;
            if (expanded.isEmpty()) {
                log.println(prefix + "serving " + url + " for " + request.timeoutSeconds() + " s");
                Thread.sleep(request.timeoutSeconds() * 1000);
            } else {
                log.println(prefix + url + ": running " + Escaping.controls(String.join(" ", expanded)));
                result = runClient(expanded, url, request, log);
            }
            return new ProbeRun(url, server.trace(), expanded, result, request.timeoutSeconds());
        }
    }

    private static ProbeServer listen(Request r) throws IOException, StartException {
        try {
            return ProbeServer.start(r.scenario(), r.client(), r.port(), r.maxRecorded());
        } catch (BindException e) {
            throw new StartException("cannot listen on 127.0.0.1:" + r.port() + ": " + e.getMessage(), e);
        }
    }

    private static ClientRun.Result runClient(List<String> expanded, String url, Request r, PrintWriter log)
            throws StartException, InterruptedException {
        try {
            return ClientRun.run(expanded, url, r.timeoutSeconds() * 1000, log);
        } catch (IOException e) {
            throw new StartException("cannot run " + Escaping.controls(expanded.get(0)) + ": "
                    + Escaping.controls(String.valueOf(e.getMessage())), e);
        }
    }
}
