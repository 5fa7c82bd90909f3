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
 * The serve case of bench/run: four rounds (-Dwarmups=N: N + 1) of OPERATIONS operations each (a parent span and
 * two HTTP sends, the second a resend after a 503 with Retry-After: 1 sent too early), posted as OTLP protobuf in
 * batches of 512 spans by 8 connections (-Dsenders=N for another count) to {@code java -jar JAR serve --idle 1s
 * --format text --max-held-spans 10000000}, started bare as a user starts it, so that the launcher runs the
 * receiver in a JVM of its own with its settings (the serial collector, a small initial heap); -Dserve.jvm="OPTIONS"
 * starts it with those JVM options instead, in the launcher's JVM (such as {@code -Xmx512m}, or a flight
 * recording); -Dserve.args="OPTIONS" replaces the receiver's options after {@code --idle 1s --fail-on never}, such
 * as {@code --output /dev/null} for a sidecar that keeps no finding. The first three rounds warm the receiver up
 * (class loading, then the JIT compilers, which compile per-request code through the second and third rounds),
 * each of its own traces, their figures printed; the last, of other traces, is measured from its
 * first post: received (to its last answer) and received and audited (until {@code /metrics} counts
 * every operation of every round audited), as spans per CPU-second the receiver took (the launcher's and the
 * receiver's JVMs together: the figure that holds on a machine shared with other work) and per core of wall time.
 * Then the receiver is stopped with SIGTERM (it audits nothing more, judges the cross-operation rules and writes its
 * report) and the whole run is given too, start-up, warm-up and report included, with the peak RSS of both JVMs and
 * the exit code, the machine's load average, and the spans per CPU-second of a bare protobuf decode of the same
 * requests. -Dserve.profile=FILE records the measured round with async-profiler (-Dserve.agent=the path
 * of libasyncProfiler.so), in cpu mode (-Dserve.event=alloc for allocations) with threads, as collapsed stacks; -Dserve.histogram=FILE writes the
 * receiver's heap histogram after the warm-up rounds (jcmd GC.class_histogram) into FILE, and of the objects live
 * once the measured round's spans are all answered, before they are audited, into FILE.held.
 *
 * <pre>
 * java -cp target/retry-audit.jar:bench-data/classes ServeBench target/retry-audit.jar 100000
 * </pre>
 */
public final class ServeBench {
    private static final int BATCH = 512;

    private ServeBench() {
    }

    /** One round measured: spans sent, wall seconds and receiver CPU seconds to the last answer and to the last audit. */
    private record Round(long spans, double receivedWall, double receivedCpu, double auditedWall, double auditedCpu) {
    }

    public static void main(String[] args) throws Exception {
        String jar = args[0];
        int operations = Integer.parseInt(args[1]);
        int senderCount = Integer.getInteger("senders", 8);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        String jvm = System.getProperty("serve.jvm", "");
        if (!jvm.isBlank()) {
            command.addAll(List.of(jvm.strip().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar, "serve", "--listen", "127.0.0.1:0", "--idle", "1s",
                "--fail-on", "never"));
        command.addAll(List.of(System.getProperty("serve.args", "--format text --max-held-spans 10000000").strip()
                .split("\\s+")));
        long runStart = System.nanoTime();
        Process serve = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader err = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
        String line = err.readLine();
        while (line != null && !line.contains("listening on")) {
            line = err.readLine();
        }
        String base = line.substring(line.indexOf("http://"), line.indexOf(" ("));
        Thread errors = new Thread(() -> err.lines().forEach(System.err::println));
        errors.setDaemon(true);
        errors.start();
        // Started bare, the launcher runs the receiver in a JVM of its own (the one that printed its address).
        long pid = serve.descendants().mapToLong(ProcessHandle::pid).findFirst().orElse(serve.pid());
        System.out.printf(Locale.ROOT, "receiver: %s%n", pid == serve.pid() ? "this JVM (" + String.join(" ",
                command.subList(0, command.indexOf("-jar"))) + ")" : "a JVM of its own, started by the launcher");
        double[] peak = {0};
        double[] cpu = {0};
        Thread rss = new Thread(() -> {
            while (serve.isAlive()) {
                peak[0] = Math.max(peak[0], peakMiB(serve.toHandle()));
                cpu[0] = Math.max(cpu[0], cpuSeconds(serve.toHandle()));
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
        ExecutorService senders = Executors.newFixedThreadPool(senderCount);
        List<byte[]> warm = bodies(operations, 0);
        // Each operation of the benchmark is one operation audited (its parent span is no attempt).
        int warmups = Integer.getInteger("warmups", 3);
        for (int k = 0; k < warmups; k++) {
            Round w = round(http, senders, base, serve.toHandle(), pid, k == 0 ? warm : bodies(operations, k * operations),
                    3L * operations, (k + 1L) * operations, null);
            System.out.printf(Locale.ROOT, "warm-up round %d: receiver CPU %.2f s to the last answer, %.2f s to the last"
                    + " audit: %.0f spans received and audited per receiver CPU-second%n", k + 1, w.receivedCpu(),
                    w.auditedCpu(), w.spans() / w.auditedCpu());
        }
        String histogram = System.getProperty("serve.histogram");
        if (histogram != null) {
            jcmd(pid, Path.of(histogram), "GC.class_histogram");
        }
        List<byte[]> bodies = bodies(operations, warmups * operations);
        String profile = System.getProperty("serve.profile");
        if (profile != null) {
            jcmd(pid, null, "JVMTI.agent_load", System.getProperty("serve.agent"), "\"start,event=" + System.getProperty("serve.event", "cpu") + ",interval=1ms,threads\"");
        }
        Path held = histogram == null ? null : Path.of(histogram + ".held");
        Round measured = round(http, senders, base, serve.toHandle(), pid, bodies, 3L * operations, (warmups + 1L) * operations,
                held);
        if (profile != null) {
            jcmd(pid, null, "JVMTI.agent_load", System.getProperty("serve.agent"), "\"stop,collapsed,file=" + profile + "\"");
        }
        senders.shutdown();
        serve.destroy();
        int exit = serve.waitFor(600, TimeUnit.SECONDS) ? serve.exitValue() : -1;
        double runWall = (System.nanoTime() - runStart) / 1e9;
        rss.join(1000);
        int cores = Runtime.getRuntime().availableProcessors();
        long spans = measured.spans();
        double decode = decodeSpansPerSecond(bodies, spans);
        System.out.printf(Locale.ROOT, "load average %s at the end%n", loadAverage());
        System.out.printf(Locale.ROOT, "bare protobuf decode of the same %d requests (ExportTraceServiceRequest.parseFrom,"
                + " one thread, warmed up): %.0f spans per CPU-second%n", bodies.size(), decode);
        System.out.printf(Locale.ROOT, "whole run (start-up, %d warm-up round(s), measured round, report at SIGTERM): %d"
                + " spans, receiver CPU %.2f s, %.0f spans per CPU-second; wall %.1f s; peak RSS %.0f MiB, exit %d%n",
                warmups, (warmups + 1) * spans, cpu[0], (warmups + 1) * spans / cpu[0], runWall, peak[0], exit);
        System.out.printf(Locale.ROOT, "measured round, %d operations, %d spans in %d requests of %d by %d connections: receiver"
                + " CPU %.2f s to the last answer, %.2f s to the last audit; wall %.2f s, %.2f s%n", operations, spans,
                bodies.size(), BATCH, senderCount, measured.receivedCpu(), measured.auditedCpu(), measured.receivedWall(),
                measured.auditedWall());
        System.out.printf(Locale.ROOT, "serve spans/s per receiver CPU-second: received %.0f, received and audited %.0f;"
                + " per core of %d (wall, audited includes the 1 s idle and Retry-After wait): received %.0f, received"
                + " and audited %.0f; bare decode %.0f; peak RSS %.0f MiB, exit %d%n", spans / measured.receivedCpu(),
                spans / measured.auditedCpu(), cores, spans / measured.receivedWall() / cores,
                spans / measured.auditedWall() / cores, decode, peak[0], exit);
    }

    /**
     * Posts {@code bodies} and waits for their answers (then writes the heap histogram of the receiver's JVM,
     * {@code pid}, into {@code held}, unless null, outside the figures), then until the receiver has audited
     * {@code audited} operations in all; the CPU counted is that of {@code tree}, the JVMs started.
     */
    private static Round round(HttpClient http, ExecutorService senders, String base, ProcessHandle tree, long pid,
            List<byte[]> bodies, long spans, long audited, Path held) throws Exception {
        URI url = URI.create(base + "/v1/traces");
        double cpu0 = cpuSeconds(tree);
        long start = System.nanoTime();
        List<Future<Integer>> sent = new ArrayList<>();
        for (byte[] body : bodies) {
            sent.add(senders.submit(() -> http.send(HttpRequest.newBuilder(url)
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()));
        }
        for (Future<Integer> f : sent) {
            try {
                f.get();
            } catch (Exception e) {
                System.err.println("request " + sent.indexOf(f) + " of " + sent.size() + " failed: " + e.getCause());
                throw e;
            }
            if (f.get() != 200) {
                throw new IllegalStateException("the receiver answered " + f.get());
            }
        }
        double receivedWall = (System.nanoTime() - start) / 1e9;
        double receivedCpu = cpuSeconds(tree) - cpu0;
        if (held != null) {
            double before = cpuSeconds(tree);
            jcmd(pid, held, "GC.class_histogram");
            cpu0 += cpuSeconds(tree) - before;
        }
        long deadline = System.nanoTime() + 600_000_000_000L;
        for (long now = audited(http, base); now < audited; now = audited(http, base)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the receiver audited " + now + " operations, not " + audited);
            }
            Thread.sleep(20);
        }
        return new Round(spans, receivedWall, receivedCpu, (System.nanoTime() - start) / 1e9, cpuSeconds(tree) - cpu0);
    }

    private static long audited(HttpClient http, String base) throws Exception {
        return metric(http, base, "retry_audit_operations_audited_total");
    }

    /** The value of metric {@code name} on the receiver's {@code /metrics}. */
    private static long metric(HttpClient http, String base, String name) throws Exception {
        String text = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String l : text.split("\n")) {
            if (l.startsWith(name + " ")) {
                return Long.parseLong(l.substring(name.length() + 1).strip());
            }
        }
        throw new IllegalStateException("no " + name + " on /metrics");
    }

    /** Runs jcmd on {@code pid}, its output to {@code out} (null: nowhere). */
    private static void jcmd(long pid, Path out, String... args) throws Exception {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        c.addAll(List.of(args));
        new ProcessBuilder(c).redirectOutput(out == null ? ProcessBuilder.Redirect.DISCARD
                : ProcessBuilder.Redirect.to(out.toFile())).start().waitFor();
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

    /**
     * The user and system CPU seconds process {@code tree} and the processes it started have taken (their threads'
     * together): the launcher and the receiver's JVM.
     */
    private static double cpuSeconds(ProcessHandle tree) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(tree), tree.descendants())
                .mapToDouble(p -> cpuSeconds(p.pid())).sum();
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

    /** The spans of operations {@code first} to {@code first + operations - 1}, cut into exports of 512 spans. */
    private static List<byte[]> bodies(int operations, int first) {
        List<Span> spans = new ArrayList<>(3 * operations);
        long t0 = 1_790_000_000_000_000_000L;
        for (int i = first; i < first + operations; i++) {
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

    /** The peak resident sets of process {@code tree} and the processes it started, in MiB, together. */
    private static double peakMiB(ProcessHandle tree) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(tree), tree.descendants())
                .mapToDouble(p -> peakMiB(p.pid())).sum();
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
