import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Operation;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark of {@code bench/run}: times {@code audit} (default {@code java -jar}) on the
 * inputs of {@link BenchData} beside a bare jackson-core token scan of the same file, run in the
 * same rounds, interleaved, best of N; the cost of 300,000 findings in every report format; held
 * bytes per grouped attempt; start-up; the foreign readers' memory; and, with {@code BIG=1}, a
 * 1 GiB spans file under {@code -Xmx2g}. Ends with a table of every target, the measured value and
 * whether it is met. {@code Bench data ATTEMPTS DIR} only writes the inputs that are missing (for
 * {@code bench/profile}).
 */
public final class Bench {
    private static final String[] FORMATS = {"json", "text", "sarif", "github", "html"};
    private static final int FINDINGS = 300_000;
    private static final long GIB = 1L << 30;
    /** The prefix of what runs through bin/retry-audit (serial collector, class data sharing). */
    private static final String LAUNCHED = "launcher: ";

    private final String jar;
    private final String cp;
    private final Path dir;
    private final int runs;
    private final List<String[]> table = new ArrayList<>();

    private Bench(String jar, String classes, Path dir, int runs) {
        this.jar = jar;
        this.cp = jar + java.io.File.pathSeparator + classes;
        this.dir = dir;
        this.runs = runs;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("scan")) {
            System.out.println(scan(Path.of(args[1])));
            return;
        }
        if (args.length == 2 && args[0].equals("held")) {
            held(Path.of(args[1]));
            return;
        }
        if (args.length == 3 && args[0].equals("data")) {
            inputs(Integer.parseInt(args[1]), Path.of(args[2]));
            return;
        }
        int attempts = args.length > 0 ? Integer.parseInt(args[0]) : 600_000;
        Path dir = Path.of(args.length > 1 ? args[1] : "bench-data");
        Bench bench = new Bench(args.length > 2 ? args[2] : "target/retry-audit.jar",
                args.length > 3 ? args[3] : dir.resolve("classes").toString(), dir,
                args.length > 4 ? Integer.parseInt(args[4]) : 3);
        bench.run(attempts, "1".equals(System.getenv("BIG")));
    }

    /** Writes the spans, operations and overlaps files of {@code attempts} into {@code dir}, each only when missing. */
    private static void inputs(int attempts, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path spans = dir.resolve("bench-" + attempts + ".jsonl");
        Path ops = dir.resolve("bench-" + attempts + ".json");
        Path overlaps = dir.resolve("overlaps-" + FINDINGS + ".jsonl");
        if (!Files.exists(spans) || !Files.exists(ops)) {
            BenchData.spansAndOperations(attempts, spans, ops);
        }
        if (!Files.exists(overlaps)) {
            BenchData.overlaps(FINDINGS, overlaps);
        }
    }

    private void run(int attempts, boolean big) throws Exception {
        inputs(attempts, dir);
        Path spans = dir.resolve("bench-" + attempts + ".jsonl");
        Path ops = dir.resolve("bench-" + attempts + ".json");
        Path overlaps = dir.resolve("overlaps-" + FINDINGS + ".jsonl");
        System.out.printf(Locale.ROOT, "%,d attempts; %d interleaved rounds, best wall time, least CPU time (user + system),"
                + " highest peak RSS; %d cores%n",
                attempts, runs, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-46s %9s %8s %8s %10s%n", "what", "wall s", "CPU s", "MB/s", "peak MiB");
        warmLauncher();
        if (wanted("spans")) {
            versusScan(spans, 2.0, 400);
        }
        if (wanted("operations")) {
            versusScan(ops, 1.5, 256);
        }
        if (wanted("held")) {
            heldPerAttempt(spans);
        }
        if (big) {
            bigSpans();
        } else if (wanted("big")) {
            row("1 GiB spans audits within -Xmx2g", "exit 0 or 2", "not run (BIG=1 bench/run)", null);
        }
        if (wanted("findings")) {
            findings(overlaps);
        }
        if (wanted("startup")) {
            startUp();
        }
        if (wanted("foreign")) {
            foreign();
        }
        if (wanted("serve")) {
            serve();
        }
        printTable();
    }

    /** Whether {@code ONLY} (a comma-separated list of cases) is unset or names {@code name}. */
    private static boolean wanted(String name) {
        String only = System.getenv("ONLY");
        return only == null || only.isBlank() || List.of(only.split(",")).contains(name);
    }

    /** Audit of {@code file} beside the bare scan, in the same rounds; adds the ratio and the RSS to the table. */
    private void versusScan(Path file, double maxRatio, int maxMiB) throws Exception {
        double mb = Files.size(file) / 1e6;
        String[] args = {"--fail-on", "never", "--output", report("json"), file.toString()};
        List<Measure.Result> r = Measure.interleaved(runs, List.of(
                List.of("java", "-cp", cp, "Bench", "scan", file.toString()), audit(args), launched(args)));
        Measure.Result scan = r.get(0);
        String name = file.getFileName().toString();
        print("bare token scan " + name, scan, mb);
        String kind = name.endsWith(".jsonl") ? "spans" : "operations";
        for (int i = 1; i < r.size(); i++) {
            Measure.Result audit = r.get(i);
            String how = i == 1 ? "" : LAUNCHED;
            print(how + "audit " + name, audit, mb);
            double ratio = audit.wall() / scan.wall();
            double cpuRatio = audit.cpu() / scan.cpu();
            System.out.printf(Locale.ROOT, "%-46s %8.2fx %7.2fx%n", "  " + how + "audit / bare token scan", ratio, cpuRatio);
            row(how + kind + ": audit / bare token scan", "<= " + maxRatio + "x",
                    String.format(Locale.ROOT, "%.2fx (CPU %.2fx)", ratio, cpuRatio), ratio <= maxRatio);
            row(how + kind + ": peak RSS, " + name, "<= " + maxMiB + " MiB", mib(audit.peakMiB()), audit.peakMiB() <= maxMiB);
        }
    }

    /** The launcher's first audit writes its class archive; it is written before anything is measured. */
    private void warmLauncher() throws Exception {
        Path tiny = dir.resolve("tiny.jsonl");
        Files.writeString(tiny, BenchData.TWO_LINES);
        Measure.once(launched(tiny.toString()), false);
    }

    /** {@code bin/retry-audit audit ARGS}, on the benchmark's jar, its class archive under bench-data/cds. */
    private List<String> launched(String... args) {
        List<String> cmd = new ArrayList<>(List.of("env", "RETRY_AUDIT_JAR=" + jar,
                "RETRY_AUDIT_CACHE=" + dir.resolve("cds"), "sh", "bin/retry-audit", "audit"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Bytes the grouped spans hold per attempt, measured in a JVM of its own: by bench/HeldBytes.java
     * (the spans reader's own measure, at the moment it hands on the first operation) when it is
     * there, else by {@link #held} (the operations the library's {@code read} returns).
     */
    private void heldPerAttempt(Path spans) throws Exception {
        long held;
        long attempts;
        if (Files.exists(Path.of("bench/HeldBytes.java"))) {
            List<String> out = Measure.output(List.of("java", "-Xmx2g", "-cp", cp, "HeldBytes", spans.toString()));
            Matcher m = Pattern.compile("held-bytes-per-attempt (\\d+) \\(attempts (\\d+)").matcher(String.join("\n", out));
            if (!m.find()) {
                throw new IllegalStateException("HeldBytes printed no figure: " + out);
            }
            attempts = Long.parseLong(m.group(2));
            held = Long.parseLong(m.group(1)) * attempts;
        } else {
            List<String> out = Measure.output(List.of("java", "-Xmx2g", "-cp", cp, "Bench", "held", spans.toString()));
            String[] fields = out.get(out.size() - 1).trim().split(" ");
            held = Long.parseLong(fields[0]);
            attempts = Long.parseLong(fields[1]);
        }
        double perAttempt = (double) held / attempts;
        double perLine = (double) Files.size(spans) / attempts;
        // A 1 GiB file holds GIB / perLine attempts; the 2 GiB heap must hold them.
        double bound = 2.0 * GIB / (GIB / perLine);
        System.out.printf(Locale.ROOT, "%-46s %,d bytes for %,d attempts: %.0f bytes/attempt (%.0f input bytes/attempt)%n",
                "held after grouping the spans", held, attempts, perAttempt, perLine);
        row("spans: bytes held per attempt", String.format(Locale.ROOT, "<= %.0f (2 GiB / attempts in 1 GiB)", bound),
                String.format(Locale.ROOT, "%.0f", perAttempt), perAttempt <= bound);
    }

    private void bigSpans() throws Exception {
        Path big = dir.resolve("bench-1gib.jsonl");
        if (!Files.exists(big)) {
            System.out.println("generating " + big + " (once)");
            BenchData.spansUpTo(GIB, big);
        }
        List<String> cmd = new ArrayList<>(List.of("java", "-Xmx2g", "-jar", jar, "audit", "--fail-on", "never",
                "--output", report("json"), big.toString()));
        Measure.Result r = Measure.once(cmd, true);
        print("audit -Xmx2g " + big.getFileName(), r, Files.size(big) / 1e6);
        row("1 GiB spans audits within -Xmx2g", "exit 0 or 2",
                "exit " + r.exit() + ", " + secs(r.wall()) + ", " + mib(r.peakMiB()), r.exit() == 0 || r.exit() == 2);
    }

    /** The cost of findings: the same file audited with trace/overlap disabled, then in every format with it on. */
    private void findings(Path overlaps) throws Exception {
        List<List<String>> cmds = new ArrayList<>();
        cmds.add(audit("--disable", "trace/overlap", "--output", report("json"), overlaps.toString()));
        for (String format : FORMATS) {
            cmds.add(audit("--format", format, "--output", report(format), overlaps.toString()));
        }
        cmds.add(launched("--disable", "trace/overlap", "--output", report("json"), overlaps.toString()));
        cmds.add(launched("--output", report("json"), overlaps.toString()));
        List<Measure.Result> r = Measure.interleaved(runs, cmds);
        double mb = Files.size(overlaps) / 1e6;
        print("audit " + overlaps.getFileName() + ", no findings", r.get(0), mb);
        for (int i = 0; i < FORMATS.length; i++) {
            Measure.Result with = r.get(i + 1);
            double cost = with.wall() - r.get(0).wall();
            print("  " + String.format(Locale.ROOT, "%,d", FINDINGS) + " findings, --format " + FORMATS[i], with, mb);
            double cpu = with.cpu() - r.get(0).cpu();
            System.out.printf(Locale.ROOT, "%-46s %+9.3f %+8.2f%n", "    on top of the audit without them", cost, cpu);
            row("findings: 300,000 on top of the audit, " + FORMATS[i], "<= 0.5 s",
                    secs(cost) + String.format(Locale.ROOT, " (CPU %+.2f s)", cpu), cost <= 0.5);
        }
        Measure.Result without = r.get(FORMATS.length + 1);
        Measure.Result with = r.get(FORMATS.length + 2);
        print(LAUNCHED + "audit, no findings", without, mb);
        print("  " + String.format(Locale.ROOT, "%,d", FINDINGS) + " findings, --format json", with, mb);
        double cost = with.wall() - without.wall();
        System.out.printf(Locale.ROOT, "%-46s %+9.3f %+8.2f%n", "    on top of the audit without them", cost,
                with.cpu() - without.cpu());
        row(LAUNCHED + "findings: 300,000 on top, json", "<= 0.5 s", secs(cost) + ", " + mib(with.peakMiB()), cost <= 0.5);
    }

    private void startUp() throws Exception {
        Path tiny = dir.resolve("tiny.jsonl");
        Files.writeString(tiny, BenchData.TWO_LINES);
        List<Measure.Result> r = Measure.interleaved(Math.max(runs, 10), List.of(audit(tiny.toString()), launched(tiny.toString())));
        for (int i = 0; i < r.size(); i++) {
            String how = i == 0 ? "" : LAUNCHED;
            print(how + "start-up: audit of a two-line input", r.get(i), 0);
            row(how + "start-up, two-line input", "<= 0.25 s",
                    secs(r.get(i).wall()) + String.format(Locale.ROOT, " (CPU %.2f s)", r.get(i).cpu()), r.get(i).wall() <= 0.25);
        }
    }

    /** OTLP and HAR at 100,000 attempts, generated by bench/foreign/ForeignGen.java. */
    private void foreign() throws Exception {
        Path out = dir.resolve("foreign");
        Path otlp = out.resolve("otlp-100000.jsonl");
        Path har = out.resolve("har-100000.har");
        if (!Files.exists(otlp) || !Files.exists(har)) {
            Measure.output(List.of("java", "bench/foreign/ForeignGen.java", "100000", out.toString()));
        }
        String[] names = {"OTLP", "HAR"};
        Path[] files = {otlp, har};
        List<List<String>> cmds = new ArrayList<>();
        for (Path f : files) {
            cmds.add(audit("--fail-on", "never", "--output", report("json"), f.toString()));
        }
        for (Path f : files) {
            cmds.add(launched("--fail-on", "never", "--output", report("json"), f.toString()));
        }
        List<Measure.Result> r = Measure.interleaved(runs, cmds);
        for (int i = 0; i < r.size(); i++) {
            String how = i < files.length ? "" : LAUNCHED;
            Path f = files[i % files.length];
            String name = names[i % files.length];
            print(how + "audit " + f.getFileName(), r.get(i), Files.size(f) / 1e6);
            row(how + name + " 100,000 attempts: peak RSS", "<= 256 MiB", mib(r.get(i).peakMiB()), r.get(i).peakMiB() <= 256);
        }
    }

    /** serve receiving 100,000 operations in OTLP protobuf batches of 512 spans (bench/ServeBench.java). */
    private void serve() throws Exception {
        List<String> out = Measure.output(List.of("java", "-cp", cp, "ServeBench", jar, "100000"));
        String line = out.get(out.size() - 1);
        System.out.println(line);
        row("serve 100,000 operations, batches of 512", "exit 0 within -Xmx512m",
                line.substring(line.indexOf("received")).replace(" spans/s", "/s"), line.endsWith("exit 0"));
    }

    private List<String> audit(String... args) {
        List<String> cmd = new ArrayList<>(List.of("java", "-jar", jar, "audit"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private String report(String format) {
        return dir.resolve("report." + format).toString();
    }

    private void row(String target, String bound, String measured, Boolean met) {
        table.add(new String[] {target, bound, measured, met == null ? "-" : met ? "yes" : "NO"});
    }

    private void printTable() {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-46s | %-34s | %-28s | %s%n", "target", "bound", "measured", "met?");
        for (String[] r : table) {
            System.out.printf(Locale.ROOT, "%-46s | %-34s | %-28s | %s%n", (Object[]) r);
        }
    }

    private static void print(String what, Measure.Result r, double mb) {
        System.out.printf(Locale.ROOT, "%-46s %9.3f %8.2f %8s %10.0f%n", what, r.wall(), r.cpu(),
                mb > 0 ? String.format(Locale.ROOT, "%.0f", mb / r.wall()) : "-", r.peakMiB());
    }

    private static String secs(double s) {
        return String.format(Locale.ROOT, "%.3f s", s);
    }

    private static String mib(double m) {
        return String.format(Locale.ROOT, "%.0f MiB", m);
    }

    /** The floor: every token of the file through jackson-core, no text read, nothing kept. */
    private static long scan(Path file) throws IOException {
        long tokens = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
                JsonParser p = new JsonFactory().createParser(in)) {
            while (p.nextToken() != null) {
                tokens++;
            }
        }
        return tokens;
    }

    /** Prints the heap bytes the grouped operations of a spans file hold, and their attempts. */
    private static void held(Path spans) throws Exception {
        RetryAudit audit = RetryAudit.defaults();
        long before = usedAfterGc();
        List<Operation> ops = audit.read(spans);
        long after = usedAfterGc();
        long attempts = ops.stream().mapToLong(op -> op.attempts().size()).sum();
        System.out.println((after - before) + " " + attempts);
        Reference.reachabilityFence(ops);
    }

    private static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
