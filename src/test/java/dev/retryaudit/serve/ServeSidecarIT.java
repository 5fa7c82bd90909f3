package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar's {@code serve} as a sidecar of a busy client: 300 operations a second of one service for a minute (the
 * ten minutes of {@code docs/serve.md} shortened, with {@code --idle 5s} so that a minute holds several windows),
 * operations that overlap one another without a break. Its findings come out while the traffic goes on, every operation is audited once and whole, and
 * the spans it holds stay bounded by its windows (about three times --idle of traffic), where without windows they
 * would be every span sent (36,000), and the two JVMs of a bare {@code java -jar} (the one started and the one it
 * runs {@code serve} in, with a small initial heap) stay within 256 MiB of resident memory together.
 */
class ServeSidecarIT {
    private static final Path JAR = Path.of("target/retry-audit.jar");
    private static final int PER_SECOND = 300;
    private static final int SECONDS = 60;
    /** Exports a second: each holds a tenth of a second of operations. */
    private static final int EXPORTS_PER_SECOND = 10;
    private static final long MIB = 1024 * 1024;

    @TempDir
    Path dir;

    @Test
    void aMinuteOfABusyClientIsAuditedInWindowsWhileItsTrafficGoesOn() throws Exception {
        Path findings = dir.resolve("findings.jsonl");
        Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                JAR.toString(), "serve", "--listen", "127.0.0.1:0", "--idle", "5s", "--output", findings.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long peak;
        long duringTraffic;
        long mostHeld = 0;
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
            String first = err.readLine();
            assertThat(first).startsWith("retry-audit: listening on http://127.0.0.1:");
            URI traces = URI.create(first.replaceFirst("^retry-audit: listening on (http://[^ ]+) .*$", "$1") + "/v1/traces");
            HttpClient http = HttpClient.newHttpClient();
            URI metrics = traces.resolve("/metrics");
            int perExport = PER_SECOND / EXPORTS_PER_SECOND;
            long start = System.nanoTime();
            long epochNanos = System.currentTimeMillis() * 1_000_000L;
            for (int i = 0; i < SECONDS * EXPORTS_PER_SECOND; i++) {
                long due = start + i * (1_000_000_000L / EXPORTS_PER_SECOND);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                // Each export spreads its operations over a second from its own time: they overlap the next exports'.
                byte[] export = ReceiverTest.busyExport(epochNanos + (due - start), i * perExport, perExport);
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(traces)
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(export))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(answer.statusCode()).as("export %d: %s", i, answer.body()).isEqualTo(200);
                if (i % EXPORTS_PER_SECOND == 0) {
                    mostHeld = Math.max(mostHeld, held(http, metrics));
                }
            }
            duringTraffic = Files.exists(findings) ? Files.readAllLines(findings).size() : 0;
            long[] peaks = new long[2];
            ProcessHandle child = serve.toHandle().children().findFirst().orElseThrow();
            serve.destroy();
            // The rest is audited at the signal: the peaks are watched until the processes are gone.
            do {
                peaks[0] = Math.max(peaks[0], peakResident(serve.pid()));
                peaks[1] = Math.max(peaks[1], peakResident(child.pid()));
            } while (!serve.waitFor(100, TimeUnit.MILLISECONDS));
            peak = peaks[0] + peaks[1];
        } finally {
            serve.destroyForcibly();
        }
        assertThat(serve.exitValue()).isEqualTo(2);
        assertThat(duringTraffic).as("findings written while the traffic went on").isPositive();
        List<String> lines = Files.readAllLines(findings);
        ObjectMapper json = new ObjectMapper();
        Set<String> operations = new HashSet<>();
        for (String line : lines) {
            JsonNode f = json.readTree(line);
            assertThat(f.get("rule").asText()).isEqualTo("retry-after/early");
            operations.add(f.get("operation").asText());
        }
        // One finding an operation: each audited once, with its two sends together.
        assertThat(lines).hasSize(PER_SECOND * SECONDS);
        assertThat(operations).hasSize(PER_SECOND * SECONDS);
        // 600 spans a second: a window, once the context is twice --idle and its Retry-After old (12 s), lets go of
        // what closed --idle and the Retry-After (6 s) before the newest span: about 18 s of spans, 10,800.
        assertThat(mostHeld).as("most spans held").isLessThan(15_000);
        System.out.printf("serve sidecar, %d operations a second for %d s: most spans held %d, peak RSS %d MiB%n",
                PER_SECOND, SECONDS, mostHeld, peak / MIB);
        assertThat(peak).as("peak resident memory of both JVMs, bytes").isLessThan(256 * MIB);
    }

    /** The spans the receiver holds, from its metrics. */
    private static long held(HttpClient http, URI metrics) throws IOException, InterruptedException {
        String text = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        for (String line : text.split("\n")) {
            if (line.startsWith("retry_audit_spans_held ")) {
                return Long.parseLong(line.substring(line.indexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError("no retry_audit_spans_held in " + text);
    }

    /** The peak resident set (VmHWM) of process {@code pid} in bytes; 0 once it is gone. */
    private static long peakResident(long pid) throws IOException {
        Path status = Path.of("/proc/" + pid + "/status");
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return 0;
        }
        return 0;
    }
}
