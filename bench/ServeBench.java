import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The serve case of bench/run: OPERATIONS operations (a parent span and two HTTP sends, the second a
 * resend after a 503 with Retry-After: 1 sent too early) posted as OTLP protobuf in batches of 512
 * spans by 8 connections (-Dsenders=N for another count) to {@code java -Xmx512m -jar JAR serve --idle 1s
 * --until-idle 2s} (-Dserve.jvm="OPTIONS" adds JVM options, such as a flight recording). Prints the spans
 * per second received (first post to last answer), the spans per second audited (first post to the end
 * of the run, less the until-idle wait), both per core, and per CPU-second the receiver took (the figure
 * that holds on a machine shared with other work), the receiver's peak RSS and exit code, the machine's
 * load average, and beside them the spans per CPU-second of a bare protobuf decode of the same requests.
 *
 * <pre>
 * java -cp target/retry-audit.jar:bench-data/classes ServeBench target/retry-audit.jar 100000
 * </pre>
 */
public final class ServeBench {
    private static final int BATCH = 512;

    private ServeBench() {
    }

    public static void main(String[] args) throws Exception {
        String jar = args[0];
        int operations = Integer.parseInt(args[1]);
        List<byte[]> bodies = bodies(operations);
        long spans = 3L * operations;
        List<String> command = new ArrayList<>(List.of("java", "-Xmx512m"));
        String jvm = System.getProperty("serve.jvm", "");
        if (!jvm.isBlank()) {
            command.addAll(List.of(jvm.strip().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar, "serve", "--listen", "127.0.0.1:0", "--idle", "1s",
                "--until-idle", "2s", "--fail-on", "never", "--format", "text", "--max-held-spans", "10000000"));
        Process serve = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader err = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
        String line = err.readLine();
        while (line != null && !line.contains("listening on")) {
            line = err.readLine();
        }
        String url = line.substring(line.indexOf("http://"), line.indexOf(" (")) + "/v1/traces";
        Thread errors = new Thread(() -> err.lines().forEach(System.err::println));
        errors.setDaemon(true);
        errors.start();
        double[] peak = {0};
        double[] cpu = {0};
        Thread rss = new Thread(() -> {
            while (serve.isAlive()) {
                peak[0] = Math.max(peak[0], peakMiB(serve.pid()));
                cpu[0] = Math.max(cpu[0], cpuSeconds(serve.pid()));
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        rss.setDaemon(true);
        rss.start();
        HttpClient http = HttpClient.newHttpClient();
        ExecutorService senders = Executors.newFixedThreadPool(Integer.getInteger("senders", 8));
        long start = System.nanoTime();
        List<Future<Integer>> sent = new ArrayList<>();
        for (byte[] body : bodies) {
            sent.add(senders.submit(() -> http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()));
        }
        for (Future<Integer> f : sent) {
            try {
                f.get();
            } catch (Exception e) {
                System.err.println("request " + sent.indexOf(f) + " of " + sent.size() + " failed: " + e.getCause());
                Thread.sleep(2000);
                throw e;
            }
            if (f.get() != 200) {
                throw new IllegalStateException("the receiver answered " + f.get());
            }
        }
        double received = (System.nanoTime() - start) / 1e9;
        double receivedCpu = cpuSeconds(serve.pid());
        senders.shutdown();
        int exit = serve.waitFor(600, TimeUnit.SECONDS) ? serve.exitValue() : -1;
        double audited = (System.nanoTime() - start) / 1e9 - 2.0;
        rss.join(1000);
        int cores = Runtime.getRuntime().availableProcessors();
        double decode = decodeSpansPerSecond(bodies, spans);
        System.out.printf(Locale.ROOT, "load average %s at the end%n", loadAverage());
        System.out.printf(Locale.ROOT, "bare protobuf decode of the same %d requests (ExportTraceServiceRequest.parseFrom, one"
                + " thread): %.0f spans per CPU-second%n", bodies.size(), decode);
        System.out.printf(Locale.ROOT, "receiver CPU: %.2f s when the last answer came, %.2f s in all; per CPU-second:"
                + " received %.0f, received and audited %.0f spans%n", receivedCpu, cpu[0], spans / receivedCpu,
                spans / cpu[0]);
        System.out.printf(Locale.ROOT, "serve %d operations, %d spans in %d requests of %d by %d connections: received %.0f"
                + " spans/s (%.2f s), audited %.0f spans/s (%.2f s); per core of %d: received %.0f, audited %.0f spans/s;"
                + " peak RSS %.0f MiB, exit %d%n", operations, spans, bodies.size(), BATCH,
                Integer.getInteger("senders", 8), spans / received, received, spans / audited, audited, cores,
                spans / received / cores, spans / audited / cores, peak[0], exit);
    }

    /**
     * Spans per CPU-second of one thread that only decodes the bodies with the published message classes, over
     * rounds of at least two seconds of its CPU after one round of warm-up: what any OTLP receiver in Java pays
     * at least.
     */
    private static double decodeSpansPerSecond(List<byte[]> bodies, long spans) throws Exception {
        long sink = 0;
        for (byte[] b : bodies) {
            sink += ExportTraceServiceRequest.parseFrom(b).getResourceSpansCount();
        }
        long rounds = 0;
        // The thread's own CPU time: the figure per core, whatever else the machine runs.
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = cpu.getCurrentThreadCpuTime();
        while (cpu.getCurrentThreadCpuTime() - start < 2_000_000_000L) {
            for (byte[] b : bodies) {
                sink += ExportTraceServiceRequest.parseFrom(b).getResourceSpansCount();
            }
            rounds++;
        }
        double seconds = (cpu.getCurrentThreadCpuTime() - start) / 1e9;
        if (sink == 0) {
            throw new IllegalStateException("no export decoded");
        }
        return rounds * spans / seconds;
    }

    /** The user and system CPU seconds process {@code pid} has taken (its threads' together), 0 once it is gone. */
    private static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // Fields 14 and 15 of the line: utime and stime, in clock ticks of 1/100 s.
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
        } catch (Exception e) {
            return 0;
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (Exception e) {
            return "unknown";
        }
    }

    /** The spans of every operation, cut into exports of 512 spans. */
    private static List<byte[]> bodies(int operations) {
        List<Span> spans = new ArrayList<>(3 * operations);
        long t0 = 1_790_000_000_000_000_000L;
        for (int i = 0; i < operations; i++) {
            ByteString trace = id(16, i);
            ByteString parent = id(8, 3L * i);
            long start = t0 + i * 10_000_000L;
            spans.add(Span.newBuilder().setTraceId(trace).setSpanId(parent).setName("checkout").setKindValue(1)
                    .setStartTimeUnixNano(start).setEndTimeUnixNano(start + 3_000_000_000L).build());
            for (int a = 0; a < 2; a++) {
                long s = start + a * 500_000_000L;
                Span.Builder b = Span.newBuilder().setTraceId(trace).setSpanId(id(8, 3L * i + 1 + a))
                        .setParentSpanId(parent).setName("POST").setKindValue(3).setStartTimeUnixNano(s)
                        .setEndTimeUnixNano(s + 20_000_000L)
                        .addAttributes(kv("http.request.method", "POST"))
                        .addAttributes(kv("url.full", "https://pay.example/charge/" + i))
                        .addAttributes(kv("server.address", "pay.example"))
                        .addAttributes(KeyValue.newBuilder().setKey("http.response.status_code")
                                .setValue(AnyValue.newBuilder().setIntValue(a == 0 ? 503 : 200)));
                if (a == 0) {
                    b.addAttributes(KeyValue.newBuilder().setKey("http.response.header.retry-after")
                            .setValue(AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                                    .addValues(AnyValue.newBuilder().setStringValue("1")))));
                } else {
                    b.addAttributes(KeyValue.newBuilder().setKey("http.request.resend_count")
                            .setValue(AnyValue.newBuilder().setIntValue(1)));
                }
                spans.add(b.build());
            }
        }
        List<byte[]> out = new ArrayList<>();
        Resource resource = Resource.newBuilder().addAttributes(kv("service.name", "bench")).build();
        for (int i = 0; i < spans.size(); i += BATCH) {
            out.add(ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                    .setResource(resource).addScopeSpans(ScopeSpans.newBuilder()
                            .addAllSpans(spans.subList(i, Math.min(spans.size(), i + BATCH))))).build().toByteArray());
        }
        return out;
    }

    private static ByteString id(int bytes, long n) {
        ByteBuffer b = ByteBuffer.allocate(bytes);
        b.position(bytes - 8);
        b.putLong(n + 1);
        return ByteString.copyFrom(b.array());
    }

    private static KeyValue kv(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    /** The peak resident set of process {@code pid} in MiB (VmHWM), 0 once it is gone. */
    private static double peakMiB(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (Exception e) {
            return 0;
        }
        return 0;
    }
}
