import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import dev.retryaudit.api.AuditInput;
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
 * The benchmark of {@code bench/run}: times {@code audit} ({@code java -jar} and the launcher) on
 * the inputs of {@link BenchData} beside a bare jackson-core token scan of the same file and, for
 * spans, the Python checker of bench/checker.py, run in the same rounds, interleaved, best of N; the
 * file of 300,000 findings in every report format; held bytes per grouped attempt; start-up; OTLP
 * JSON Lines beside its own scan and HAR's memory; and, with {@code BIG=1}, a
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

    /** The java of the JVM running the benchmark (bench/run starts it from JAVA_HOME when set), for every command. */
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** Whether this JDK writes an AOT cache (-XX:AOTCacheOutput, JDK 25 and later), which the launcher then uses. */
    private static final boolean AOT = Runtime.version().feature() >= 25;

    /** Whether python3 runs here, for bench/checker.py. */
    private static final boolean PYTHON = runs("python3", "--version");

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
            versusScan(spans, "realistic spans", 3.0, 2.0);
        }
        if (wanted("operations")) {
            versusScan(ops, "operations", 2.0, 2.0);
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
        if (wanted("sharing")) {
            sharing(spans);
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

    /**
     * Audit of {@code file} beside the bare scan, in the same rounds, with {@code java -jar} and the
     * launcher, and for a spans file beside the Python checker too; adds the ratios and the RSS to the table.
     */
    private void versusScan(Path file, String kind, double maxRatio, double maxLauncherRatio) throws Exception {
        double mb = Files.size(file) / 1e6;
        String[] args = {"--fail-on", "never", "--output", report("json"), file.toString()};
        boolean spans = file.toString().endsWith(".jsonl");
        List<List<String>> cmds = new ArrayList<>(List.of(scanOf(file), audit(args), launched(args)));
        if (spans && PYTHON) {
            cmds.add(checker(file));
        }
        List<Measure.Result> r = Measure.interleaved(runs, cmds);
        Measure.Result scan = r.get(0);
        String name = file.getFileName().toString();
        print("bare token scan " + name, scan, mb);
        print("audit " + name, r.get(1), mb);
        ratio(kind + ": java -jar / bare token scan", r.get(1), scan, maxRatio);
        print(LAUNCHED + "audit " + name, r.get(2), mb);
        ratio(LAUNCHED + kind + " / bare token scan", r.get(2), scan, maxLauncherRatio);
        int maxMiB = spans ? 400 : 256;
        row(LAUNCHED + kind + ": peak RSS (not regressed)", "<= " + maxMiB + " MiB", mib(r.get(2).peakMiB()),
                r.get(2).peakMiB() <= maxMiB);
        if (spans) {
            versusChecker(kind, name, r.get(1), PYTHON ? r.get(3) : null, mb);
        }
    }

    /** The Python checker's row (null when python3 is missing) and the audit's speed-up over it and peak RSS, for the table. */
    private void versusChecker(String kind, String name, Measure.Result audit, Measure.Result checker, double mb) {
        if (checker == null) {
            row(kind + ": java -jar vs the Python checker", ">= 3.0x faster", "not run (no python3)", null);
            row(kind + ": java -jar peak RSS", "<= 400 MiB", mib(audit.peakMiB()), audit.peakMiB() <= 400);
            return;
        }
        print("python3 bench/checker.py " + name, checker, mb);
        double faster = checker.wall() / audit.wall();
        System.out.printf(Locale.ROOT, "%-46s %8.2fx %7.2fx%n", "  Python checker / java -jar audit", faster,
                checker.cpu() / audit.cpu());
        row(kind + ": java -jar vs the Python checker", ">= 3.0x faster",
                String.format(Locale.ROOT, "%.2fx (%.2f vs %.2f s; CPU %.2fx)", faster, audit.wall(), checker.wall(),
                        checker.cpu() / audit.cpu()), faster >= 3.0);
        row(kind + ": java -jar peak RSS", "<= 400 MiB",
                mib(audit.peakMiB()) + String.format(Locale.ROOT, " (checker %.0f)", checker.peakMiB()),
                audit.peakMiB() <= 400);
    }

    /** Prints and tabulates {@code what}'s wall time over the bare scan's, against {@code max}. */
    private void ratio(String what, Measure.Result audit, Measure.Result scan, double max) {
        double ratio = audit.wall() / scan.wall();
        double cpuRatio = audit.cpu() / scan.cpu();
        System.out.printf(Locale.ROOT, "%-46s %8.2fx %7.2fx%n", "  " + what, ratio, cpuRatio);
        row(what, "<= " + max + "x", String.format(Locale.ROOT, "%.2fx (CPU %.2fx)", ratio, cpuRatio), ratio <= max);
    }

    private static boolean runs(String... cmd) {
        try {
            return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private List<String> scanOf(Path file) {
        return List.of(JAVA, "-cp", cp, "Bench", "scan", file.toString());
    }

    /** The Python checker of bench/checker.py on a spans file. */
    private static List<String> checker(Path file) {
        return List.of("python3", "bench/checker.py", file.toString());
    }

    /**
     * The launcher's first audit writes its class archive (and, for {@code sharing} on JDK 25, a first audit with
     * {@code RETRY_AUDIT_CDS=aot} its AOT cache); they are written before anything is measured.
     */
    private void warmLauncher() throws Exception {
        Path tiny = dir.resolve("tiny.jsonl");
        Files.writeString(tiny, BenchData.TWO_LINES);
        Measure.once(launched(tiny.toString()), false);
        if (wanted("sharing") && AOT) {
            Measure.once(launchedWith("aot", tiny.toString()), false);
        }
    }

    /** {@code bin/retry-audit audit ARGS}, on the benchmark's jar, its class archive under bench-data/cds. */
    private List<String> launched(String... args) {
        return launchedWith("", args);
    }

    /** The launcher with {@code RETRY_AUDIT_CDS=cds}: "off", "aot" (an AOT cache on JDK 25 and later) or "" (its archive). */
    private List<String> launchedWith(String cds, String... args) {
        List<String> cmd = new ArrayList<>(List.of("env", "RETRY_AUDIT_JAR=" + jar, "RETRY_AUDIT_CDS=" + cds,
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
            List<String> out = Measure.output(List.of(JAVA, "-Xmx2g", "-cp", cp, "HeldBytes", spans.toString()));
            Matcher m = Pattern.compile("held-bytes-per-attempt (\\d+) \\(attempts (\\d+)").matcher(String.join("\n", out));
            if (!m.find()) {
                throw new IllegalStateException("HeldBytes printed no figure: " + out);
            }
            attempts = Long.parseLong(m.group(2));
            held = Long.parseLong(m.group(1)) * attempts;
        } else {
            List<String> out = Measure.output(List.of(JAVA, "-Xmx2g", "-cp", cp, "Bench", "held", spans.toString()));
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
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-Xmx2g", "-jar", jar, "audit", "--fail-on", "never",
                "--output", report("json"), big.toString()));
        Measure.Result r = Measure.once(cmd, true);
        print("audit -Xmx2g " + big.getFileName(), r, Files.size(big) / 1e6);
        row("1 GiB spans audits within -Xmx2g", "exit 0 or 2",
                "exit " + r.exit() + ", " + secs(r.wall()) + ", " + mib(r.peakMiB()), r.exit() == 0 || r.exit() == 2);
    }

    /**
     * The file of 300,000 findings beside its bare scan and the Python checker: audited with
     * trace/overlap disabled, then in every format with it on; each format's ratio to the scan, and
     * the cost on top of the audit without them.
     */
    private void findings(Path overlaps) throws Exception {
        List<List<String>> cmds = new ArrayList<>();
        cmds.add(scanOf(overlaps));
        cmds.add(audit("--disable", "trace/overlap", "--output", report("json"), overlaps.toString()));
        for (String format : FORMATS) {
            cmds.add(audit("--format", format, "--output", report(format), overlaps.toString()));
        }
        cmds.add(launched("--output", report("json"), overlaps.toString()));
        if (PYTHON) {
            cmds.add(checker(overlaps));
        }
        List<Measure.Result> r = Measure.interleaved(runs, cmds);
        double mb = Files.size(overlaps) / 1e6;
        String name = overlaps.getFileName().toString();
        Measure.Result scan = r.get(0);
        Measure.Result without = r.get(1);
        print("bare token scan " + name, scan, mb);
        print("audit " + name + ", no findings", without, mb);
        String many = String.format(Locale.ROOT, "%,d findings", FINDINGS);
        for (int i = 0; i < FORMATS.length; i++) {
            Measure.Result with = r.get(i + 2);
            print("  " + many + ", --format " + FORMATS[i], with, mb);
            System.out.printf(Locale.ROOT, "%-46s %+9.3f %+8.2f%n", "    on top of the audit without them",
                    with.wall() - without.wall(), with.cpu() - without.cpu());
            ratio(many + ": java -jar " + FORMATS[i] + " / scan", with, scan, 4.0);
        }
        Measure.Result launched = r.get(FORMATS.length + 2);
        print(LAUNCHED + many + ", --format json", launched, mb);
        ratio(LAUNCHED + many + ", json / scan", launched, scan, 4.0);
        versusChecker(many, name, r.get(2), PYTHON ? r.get(FORMATS.length + 3) : null, mb);
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

    /**
     * The launcher with no class sharing, with its class archive and, on a JDK that has one, with its AOT cache,
     * interleaved: the two-line input (at least 10 rounds) and the realistic spans file, on this JDK.
     */
    private void sharing(Path spans) throws Exception {
        Path tiny = dir.resolve("tiny.jsonl");
        Files.writeString(tiny, BenchData.TWO_LINES);
        List<String> modes = AOT ? List.of("off", "", "aot") : List.of("off", "");
        String[][] inputs = {{tiny.toString()}, {"--fail-on", "never", "--output", report("json"), spans.toString()}};
        for (String[] input : inputs) {
            List<List<String>> cmds = new ArrayList<>();
            for (String mode : modes) {
                cmds.add(launchedWith(mode, input));
            }
            boolean small = input.length == 1;
            List<Measure.Result> r = Measure.interleaved(small ? Math.max(runs, 10) : runs, cmds);
            String what = small ? "two-line input" : "realistic spans";
            for (int i = 0; i < modes.size(); i++) {
                String how = switch (modes.get(i)) {
                    case "off" -> "no class sharing";
                    case "aot" -> "AOT cache";
                    default -> "class archive";
                };
                print(LAUNCHED + "JDK " + Runtime.version().feature() + " " + what + ", " + how, r.get(i),
                        small ? 0 : Files.size(spans) / 1e6);
            }
            if (AOT) {
                row(LAUNCHED + "JDK " + Runtime.version().feature() + " " + what + ": AOT cache / class archive", "<= 1.0 (it pays)",
                        String.format(Locale.ROOT, "%.2f wall, %.2f CPU", r.get(2).wall() / r.get(1).wall(), r.get(2).cpu() / r.get(1).cpu()),
                        r.get(2).wall() <= r.get(1).wall());
            }
        }
    }

    /**
     * OTLP JSON Lines of 100,000 operations (200,000 attempts) beside its bare scan, and HAR of
     * 100,000 attempts, generated by bench/foreign/ForeignGen.java (the OTLP file is bench/profile's).
     */
    private void foreign() throws Exception {
        Path out = dir.resolve("foreign");
        Path otlp = out.resolve("otlp-200000.jsonl");
        Path har = out.resolve("har-100000.har");
        if (!Files.exists(otlp)) {
            Measure.output(List.of(JAVA, "bench/foreign/ForeignGen.java", "200000", out.toString()));
        }
        if (!Files.exists(har)) {
            Measure.output(List.of(JAVA, "bench/foreign/ForeignGen.java", "100000", out.toString()));
        }
        List<List<String>> cmds = new ArrayList<>();
        cmds.add(scanOf(otlp));
        for (Path f : List.of(otlp, har)) {
            cmds.add(audit("--fail-on", "never", "--output", report("json"), f.toString()));
            cmds.add(launched("--fail-on", "never", "--output", report("json"), f.toString()));
        }
        List<Measure.Result> r = Measure.interleaved(runs, cmds);
        double otlpMb = Files.size(otlp) / 1e6;
        print("bare token scan " + otlp.getFileName(), r.get(0), otlpMb);
        print("audit " + otlp.getFileName(), r.get(1), otlpMb);
        ratio("OTLP 100,000 operations: java -jar / scan", r.get(1), r.get(0), 3.0);
        row("OTLP 100,000 operations: java -jar peak RSS", "<= 400 MiB", mib(r.get(1).peakMiB()), r.get(1).peakMiB() <= 400);
        print(LAUNCHED + "audit " + otlp.getFileName(), r.get(2), otlpMb);
        ratio(LAUNCHED + "OTLP 100,000 operations / scan", r.get(2), r.get(0), 3.0);
        double harMb = Files.size(har) / 1e6;
        print("audit " + har.getFileName(), r.get(3), harMb);
        print(LAUNCHED + "audit " + har.getFileName(), r.get(4), harMb);
        row(LAUNCHED + "HAR 100,000 attempts: peak RSS (not regressed)", "<= 256 MiB", mib(r.get(4).peakMiB()),
                r.get(4).peakMiB() <= 256);
    }

    /**
     * serve receiving four rounds of 100,000 operations in OTLP protobuf batches of 512 spans by 8 connections, the
     * last measured once the JIT compilers are done (bench/ServeBench.java), as many times as the other cases run
     * (RUNS, 1 with QUICK=1): each run's lines, and the target of 100,000 spans received and audited per receiver
     * CPU-second, met by the median run (the lower middle one of an even number). The machine's speed moves by a
     * third from one minute to the next, and one run of 45 s can fall on a slow one.
     */
    private void serve() throws Exception {
        List<Double> audited = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        boolean clean = true;
        for (int i = 0; i < runs; i++) {
            List<String> out = Measure.output(List.of(JAVA, "-cp", cp, "ServeBench", jar, "100000"));
            String line = out.get(out.size() - 1);
            // The load, the bare decode, the whole run, the measured round, then the line of the figures.
            out.subList(Math.max(0, out.size() - 5), out.size()).forEach(System.out::println);
            Matcher m = Pattern.compile("received and audited (\\d+);").matcher(line);
            audited.add(m.find() ? Double.parseDouble(m.group(1)) : 0);
            lines.add(line);
            clean &= line.endsWith("exit 0");
        }
        List<Double> sorted = new ArrayList<>(audited);
        sorted.sort(null);
        // The lower of two middle runs when there is an even number of them.
        double median = sorted.get((sorted.size() - 1) / 2);
        String line = lines.get(audited.indexOf(median));
        row("serve: spans received and audited per receiver CPU-second (warmed up, median of " + runs + ")",
                ">= 100,000", String.format(Locale.ROOT, "%,.0f (%s)", median, line.substring(line.indexOf("peak RSS"))),
                median >= 100_000 && clean);
    }

    private List<String> audit(String... args) {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-jar", jar, "audit"));
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
        System.out.printf(Locale.ROOT, "%-56s | %-34s | %-34s | %s%n", "target", "bound", "measured", "met?");
        for (String[] r : table) {
            System.out.printf(Locale.ROOT, "%-56s | %-34s | %-34s | %s%n", (Object[]) r);
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
        List<Operation> ops = audit.read(AuditInput.files(List.of(spans)));
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
