import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The benchmark of the native readers: generates a synthetic spans file and an operations file with
 * the same attempts, then times {@code audit} on each beside a bare jackson-core token scan of the
 * same file, printing wall time, MB/s and peak RSS. Run through {@code bench/run}.
 */
public final class Bench {
    private static final String TS = "2026-09-07T14:%02d:%02d.%03dZ";

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("scan")) {
            scan(Path.of(args[1]));
            return;
        }
        int attempts = args.length > 0 ? Integer.parseInt(args[0]) : 600_000;
        Path dir = Path.of(args.length > 1 ? args[1] : "bench-data");
        String jar = args.length > 2 ? args[2] : "target/retry-audit.jar";
        String classes = args.length > 3 ? args[3] : dir.resolve("classes").toString();
        int runs = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        Files.createDirectories(dir);
        Path spans = dir.resolve("bench-" + attempts + ".jsonl");
        Path ops = dir.resolve("bench-" + attempts + ".json");
        Path tiny = dir.resolve("tiny.jsonl");
        if (!Files.exists(spans) || !Files.exists(ops)) {
            generate(attempts, spans, ops);
        }
        Files.writeString(tiny, """
                {"parent_run_id":"run-9","attempt_id":1,"idempotency_key":"k-1","commit_state":"not_sent","retry_reason":"","tool":"charge_cart"}
                {"parent_run_id":"run-9","attempt_id":2,"idempotency_key":"k-1","commit_state":"committed","retry_reason":"timeout","tool":"charge_cart"}
                """);
        String cp = jar + java.io.File.pathSeparator + classes;
        System.out.printf(Locale.ROOT, "%d attempts; %s runs each; median wall, peak RSS of the slowest-memory run%n", attempts, runs);
        System.out.printf(Locale.ROOT, "%-34s %9s %9s %10s%n", "what", "wall s", "MB/s", "peak MiB");
        for (Path file : List.of(spans, ops)) {
            double mb = Files.size(file) / 1e6;
            Result scan = measure(runs, "java", "-cp", cp, "Bench", "scan", file.toString());
            Result audit = measure(runs, "java", "-jar", jar, "audit", "--fail-on", "never", "--output",
                    dir.resolve("report.json").toString(), file.toString());
            print("token scan " + file.getFileName(), scan, mb);
            print("audit " + file.getFileName(), audit, mb);
            System.out.printf(Locale.ROOT, "%-34s %9.2fx%n", "  audit / token scan", audit.wall / scan.wall);
        }
        Result start = measure(Math.max(runs, 5), "java", "-jar", jar, "audit", tiny.toString());
        print("start-up: audit of a two-line input", start, 0);
    }

    record Result(double wall, double peakMiB) {
    }

    private static void print(String what, Result r, double mb) {
        System.out.printf(Locale.ROOT, "%-34s %9.3f %9s %10.0f%n", what, r.wall,
                mb > 0 ? String.format(Locale.ROOT, "%.0f", mb / r.wall) : "-", r.peakMiB);
    }

    /** Runs a command {@code runs} times; the median wall time and the highest peak RSS. */
    private static Result measure(int runs, String... cmd) throws Exception {
        double[] walls = new double[runs];
        double peak = 0;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            long hwm = 0;
            Path status = Path.of("/proc/" + p.pid() + "/status");
            while (p.isAlive()) {
                hwm = Math.max(hwm, readHwmKiB(status));
                Thread.sleep(5);
            }
            walls[i] = (System.nanoTime() - t0) / 1e9;
            int exit = p.exitValue();
            if (exit != 0 && exit != 2) {
                throw new IllegalStateException("exit " + exit + " from " + String.join(" ", cmd));
            }
            peak = Math.max(peak, hwm / 1024.0);
        }
        Arrays.sort(walls);
        return new Result(walls[runs / 2], peak);
    }

    private static long readHwmKiB(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process ended between the check and the read.
        }
        return 0;
    }

    /** The floor: every token of the file through jackson-core, nothing kept. */
    private static void scan(Path file) throws IOException {
        long tokens = 0;
        try (InputStream in = Files.newInputStream(file); JsonParser p = new JsonFactory().createParser(in)) {
            while (p.nextToken() != null) {
                if (p.currentToken().isScalarValue()) {
                    p.getText();
                }
                tokens++;
            }
        }
        System.out.println(tokens);
    }

    /** Writes the same attempts as spans JSON Lines and as one operations document, with a few violations. */
    private static void generate(int attempts, Path spans, Path ops) throws IOException {
        Random rnd = new Random(42);
        String[] tools = {"charge_cart", "catalog_lookup", "send_email", "create_ticket", "search_docs"};
        String[] methods = {"POST", "GET", "POST", "POST", "GET"};
        String[] targets = {"https://pay.example/v1/charges", "https://catalog.example/v2/items",
            "https://mail.example/v1/send", "https://desk.example/api/tickets", "https://docs.example/search"};
        try (Writer s = new BufferedWriter(Files.newBufferedWriter(spans, StandardCharsets.UTF_8), 1 << 16);
                Writer o = new BufferedWriter(Files.newBufferedWriter(ops, StandardCharsets.UTF_8), 1 << 16)) {
            o.write("{\n  \"version\": 1,\n  \"source\": \"synthetic benchmark\",\n  \"operations\": [\n");
            int written = 0;
            int op = 0;
            while (written < attempts) {
                int t = rnd.nextInt(tools.length);
                int n = Math.min(attempts - written, rnd.nextInt(100) < 88 ? 1 : 2 + rnd.nextInt(2));
                boolean write = methods[t].equals("POST");
                String id = String.format(Locale.ROOT, "op-%07d", op);
                String run = String.format(Locale.ROOT, "run-%05d", op / 40);
                String key = write ? "key-" + id : null;
                List<String> attemptJson = new ArrayList<>();
                int second = rnd.nextInt(3600);
                for (int a = 1; a <= n; a++) {
                    boolean last = a == n;
                    int sec = second + (a - 1) * 2;
                    String started = String.format(Locale.ROOT, TS, (sec / 60) % 60, sec % 60, rnd.nextInt(1000));
                    String outcome = last ? "success" : (rnd.nextBoolean() ? "timeout" : "error");
                    int status = last ? 200 : outcome.equals("error") ? 503 : 0;
                    String commit = !write ? null : last ? "committed"
                            : (op % 997 == 0 ? "unknown" : "not_sent");
                    StringBuilder b = new StringBuilder();
                    b.append("\"attempt_id\":").append(a)
                            .append(",\"span_id\":\"").append(Long.toHexString(rnd.nextLong() | 1L << 62)).append('"')
                            .append(",\"started_at\":\"").append(started).append('"')
                            .append(",\"duration_ms\":").append(20 + rnd.nextInt(900))
                            .append(",\"outcome\":\"").append(outcome).append('"');
                    if (status > 0) {
                        b.append(",\"status\":").append(status);
                    }
                    if (commit != null) {
                        b.append(",\"commit_state\":\"").append(commit).append("\",\"commit_state_source\":\"runner\"");
                    }
                    b.append(",\"retry_reason\":\"").append(a == 1 ? "" : (op % 1499 == 0 ? "" : "503 from upstream")).append('"');
                    attemptJson.add(b.toString());
                    s.write("{\"operation_id\":\"" + id + "\",\"parent_run_id\":\"" + run + "\",\"tool\":\"" + tools[t]
                            + "\",\"method\":\"" + methods[t] + "\",\"target\":\"" + targets[t] + "\","
                            + (key != null ? "\"idempotency_key\":\"" + key + "\"," : "") + b + "}\n");
                }
                o.write((op == 0 ? "" : ",\n") + "    {\"id\": \"" + id + "\", \"tool\": \"" + tools[t]
                        + "\", \"method\": \"" + methods[t] + "\", \"target\": \"" + targets[t] + "\", \"run_id\": \""
                        + run + "\"" + (key != null ? ", \"idempotency_key\": \"" + key + "\"" : "")
                        + ", \"attempts\": [\n      {" + String.join("},\n      {", attemptJson) + "}]}");
                written += n;
                op++;
            }
            o.write("\n  ]\n}\n");
        }
    }
}
