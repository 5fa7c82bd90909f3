package dev.retryaudit.cli;

import dev.retryaudit.serve.ExporterEnvironment;
import dev.retryaudit.serve.Serve;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The test command {@code serve -- COMMAND} wraps: run without a shell, with the environment that sends its
 * traces to the receiver ({@link ExporterEnvironment}), its stdout copied to stderr (stdout holds the
 * findings or the report), stdin and stderr its own.
 */
final class TestCommand {
    private static final long STOP_MILLIS = 10_000;

    private TestCommand() {
    }

    /**
     * Runs {@code command} and waits for it and its exporters' last flush ({@link Serve#awaitCommand}); a
     * signal that ends the run first ends the command and everything below it. Returns its exit code, or null
     * when the run was stopped first.
     *
     * @throws IOException when the command cannot be started
     */
    static Integer run(List<String> command, Serve serve, Duration grace, PrintWriter err)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> env = pb.environment();
        env.putAll(ExporterEnvironment.settings("http://" + endpoint(serve.address()), env));
        Process p = pb.start();
        Thread pump = new Thread(() -> copy(p.getInputStream(), err), "retry-audit-serve-command-output");
        pump.setDaemon(true);
        pump.start();
        Integer code = serve.awaitCommand(p, grace);
        if (code == null) {
            List<ProcessHandle> below = p.descendants().toList();
            p.destroy();
            below.forEach(ProcessHandle::destroy);
            p.waitFor(STOP_MILLIS, TimeUnit.MILLISECONDS);
        }
        pump.join(STOP_MILLIS);
        return code;
    }

    /** {@code HOST:PORT} a local client reaches the receiver at: loopback for a wildcard address. */
    static String endpoint(InetSocketAddress a) {
        InetAddress host = a.getAddress();
        if (host.isAnyLocalAddress()) {
            host = host.getAddress().length == 4 ? InetAddress.getLoopbackAddress() : loopback6();
        }
        return ServeCommand.hostPort(new InetSocketAddress(host, a.getPort()));
    }

    private static InetAddress loopback6() {
        byte[] one = new byte[16];
        one[15] = 1;
        try {
            return InetAddress.getByAddress(one);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("16 bytes are an IPv6 address", e);
        }
    }

    private static void copy(InputStream in, PrintWriter err) {
        char[] buf = new char[8192];
        try (Reader r = new InputStreamReader(in, Charset.defaultCharset())) {
            for (int n; (n = r.read(buf)) >= 0; ) {
                synchronized (err) {
                    err.write(buf, 0, n);
                    err.flush();
                }
            }
        } catch (IOException e) {
            // The command closed its output: nothing more to copy.
        }
    }
}
