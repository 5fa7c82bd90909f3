package dev.retryaudit.probe;

import dev.retryaudit.text.Escaping;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the client under test without a shell: {@code {url}} in its arguments becomes the probe
 * URL, which is also in its environment as {@value #URL_VARIABLE}; its output (stdout and stderr)
 * is copied to a writer, each line marked {@value #MARK} so that nothing it prints (the fixture's
 * bodies included) reads as the probe's own output; past the timeout it is killed with all its
 * descendants.
 */
public final class ClientRun {
    /** The environment variable that holds the probe URL. */
    public static final String URL_VARIABLE = "RETRY_AUDIT_PROBE_URL";

    /** What each line of the client's output starts with. */
    public static final String MARK = "client| ";

    /** The placeholder replaced by the probe URL in the client's arguments. */
    public static final String URL_PLACEHOLDER = "{url}";

    /** How long to wait for a killed client to go, and for its output to drain. */
    private static final long GRACE_MILLIS = 2_000;

    private ClientRun() {
    }

    /** How the client ended: its exit code (null when it was killed), and whether the timeout killed it. */
    public record Result(Integer exitCode, boolean timedOut) {
    }

    /** The command as it is run: every {@code {url}} in every argument replaced by {@code url}. */
    public static List<String> expand(List<String> command, String url) {
        return command.stream().map(a -> a.replace(URL_PLACEHOLDER, url)).toList();
    }

    /**
     * Runs {@code command} (already expanded) and waits at most {@code timeoutMillis} for it.
     *
     * @throws IOException when the command cannot be started (no such program, not executable)
     */
    public static Result run(List<String> command, String url, long timeoutMillis, Writer output)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put(URL_VARIABLE, url);
        Process p = pb.start();
        p.getOutputStream().close();
        Thread pump = new Thread(() -> copy(p.getInputStream(), output), "probe-client-output");
        pump.setDaemon(true);
        pump.start();
        boolean exited = p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS);
        if (!exited) {
            kill(p.toHandle());
            p.waitFor(GRACE_MILLIS, TimeUnit.MILLISECONDS);
        }
        pump.join(GRACE_MILLIS);
        return new Result(exited ? p.exitValue() : null, !exited);
    }

    /** Kills a process and every process below it; the descendants are listed first so none is orphaned unseen. */
    private static void kill(ProcessHandle h) {
        List<ProcessHandle> below = h.descendants().toList();
        h.destroyForcibly();
        below.forEach(ProcessHandle::destroyForcibly);
    }

    private static void copy(InputStream in, Writer out) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.write(MARK + Escaping.controls(line) + "\n");
                out.flush();
            }
        } catch (IOException e) {
            // The client's output ends when it exits or is killed; nothing to report.
        }
    }
}
