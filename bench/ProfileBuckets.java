import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sorts the CPU samples of an async-profiler {@code collapsed} file (recorded with {@code threads})
 * into the rows of the table in docs/benchmark.md, "Where the CPU goes", and prints that table as
 * Markdown: CPU seconds, share, and how much of it ran on the main thread, on the threads that read
 * chunks of a spans file ({@code retry-audit-chunk}) and on those that render report chunks.
 * Usage: java bench/ProfileBuckets.java FILE.collapsed [TIME_V_OUTPUT]; with the output of
 * {@code /usr/bin/time -v} of the same run the samples are scaled to its user + system seconds,
 * otherwise each sample counts {@code INTERVAL_MS} (default 1) milliseconds.
 *
 * <p>A sample goes to the first row that claims it: JIT compiler threads and GC work by thread and
 * frame; on a Java thread, class loading, linking and the CLI's set-up anywhere in the stack; then
 * the innermost frame of retry-audit's own code (frames of the model and text packages but findings
 * and evidence defer to their caller; a rule's lazy {@code Message} counts as building findings),
 * with jackson-core below a reading frame counted as tokenizing.
 */
public final class ProfileBuckets {
    private static final String P = "dev/retryaudit/";
    private static final Pattern START_UP = Pattern.compile("SystemDictionary::|ClassFileParser|ClassVerifier|Verifier::"
            + "|link_class|LinkResolver::|InterpreterRuntime::resolve|java/lang/ClassLoader\\.loadClass|BuiltinClassLoader"
            + "|sun/launcher/|MethodHandleNatives|LambdaMetafactory|BootstrapMethodInvoker|CallSite\\."
            + "|JNI_CreateJavaVM|Threads::create_vm|" + P + "cli/Main\\.commandLine");
    private static final Pattern GC = Pattern.compile("G1|GCTask|ConcurrentGCThread|WorkerThread::run|WorkGang|GangWorker"
            + "|CollectedHeap::collect|VM_GC|VM_G1|SerialHeap|DefNewGeneration|TenuredGeneration");
    /** The rows, in the table's order; the classes of each are prefixes of frame names after dev/retryaudit/. */
    private static final String[][] ROWS = {
        {"JIT compiler threads: C2"},
        {"JIT compiler threads: C1"},
        {"GC (collector threads, pauses, concurrent refinement)"},
        {"start-up: JVM, class loading and linking, CLI set-up"},
        {"tokenizing (jackson-core)"},
        {"line splitting and byte budget passes", "input/reader/LineChunks", "json/ByteBudget",
            "input/reader/LineDiscipline", "input/Compression", "input/GzipMembers"},
        {"id tables and string pools", "json/StringPool", "input/reader/IdTable", "input/IdSet"},
        {"holding columns, and operations built from them", "input/operations/Held"},
        {"linking spans into operations (foreign formats)", "input/foreign/RetryLink", "input/foreign/RequestChains",
            "input/foreign/CallSpans", "input/foreign/SpanAttempts", "input/foreign/Unlinkable", "input/foreign/Abandoned",
            "input/foreign/Hop", "input/foreign/GrpcCalls"},
        {"field matching and draft building", "json/", "input/operations/", "input/foreign/",
            "input/reader/Drafts",
            "input/reader/ReadContext", "input/reader/TraceReader", "input/reader/OperationSink"},
        {"findings: fingerprinting", "model/Finding.fingerprint"},
        {"findings: sorting", "rules/engine/FindingOrder", "report/ReportFindings"},
        {"findings: building (messages, evidence)", "model/Finding", "model/Evidence"},
        {"rules (the engine and every rule)", "rules/"},
        {"report writing", "report/", "cli/ReportOutput", "cli/AtomicFile", "cli/WatchedOutput"},
        {"other retry-audit code (CLI, pipeline, thread pool)", ""},
        {"other JVM and JDK work (no retry-audit frame)"},
    };
    private static final int C2 = 0;
    private static final int C1 = 1;
    private static final int GC_ROW = 2;
    private static final int START = 3;
    private static final int TOKENS = 4;
    private static final int OTHER_JVM = ROWS.length - 1;
    private static final int TOP = 4;
    private static final int FINDING_BUILDING = rowOf("findings: building");

    /** The frame that decided the row of the last sample sorted, or null. */
    private static String decidedBy;

    private ProfileBuckets() {
    }

    private static int rowOf(String label) {
        for (int r = 0; r < ROWS.length; r++) {
            if (ROWS[r][0].startsWith(label)) {
                return r;
            }
        }
        throw new IllegalArgumentException(label);
    }

    public static void main(String[] args) throws IOException {
        long[][] samples = new long[ROWS.length][4];
        List<Map<String, Long>> methods = new ArrayList<>();
        for (int r = 0; r < ROWS.length; r++) {
            methods.add(new HashMap<>());
        }
        long total = 0;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long n = Long.parseLong(line.substring(space + 1));
            String[] frames = line.substring(0, space).split(";");
            String thread = frames[0];
            int where = thread.startsWith("[main") ? 1 : thread.startsWith("[retry-audit-chunk") ? 2
                    : thread.startsWith("[report-chunks") ? 3 : 0;
            decidedBy = null;
            int row = row(thread, frames);
            if (decidedBy != null) {
                // a lambda's class name carries an address that differs from run to run
                methods.get(row).merge(decidedBy.replace(P, "").replaceAll("\\$\\$Lambda\\$[^.]*\\.0x[0-9a-f]+", "\\$\\$Lambda"),
                        n, Long::sum);
            }
            samples[row][0] += n;
            if (where > 0) {
                samples[row][where] += n;
            }
            total += n;
        }
        double cpu = args.length > 1 ? cpuSeconds(Path.of(args[1])) : -1;
        double perSample = cpu > 0 ? cpu / total
                : Double.parseDouble(System.getenv().getOrDefault("INTERVAL_MS", "1")) / 1000;
        System.out.printf(Locale.ROOT, "%,d samples, %.2f CPU s%s%n%n", total, total * perSample,
                cpu > 0 ? " (user + system of /usr/bin/time -v)" : "");
        System.out.println("| where the CPU goes | CPU s | share | main thread | reading chunk threads | report chunk threads |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (int r = 0; r < ROWS.length; r++) {
            if (samples[r][0] == 0) {
                continue;
            }
            System.out.printf(Locale.ROOT, "| %s | %.2f | %.1f%% | %.2f | %.2f | %.2f |%n", ROWS[r][0],
                    samples[r][0] * perSample, 100.0 * samples[r][0] / total, samples[r][1] * perSample,
                    samples[r][2] * perSample, samples[r][3] * perSample);
        }
        System.out.println();
        System.out.println("The methods in each row (the innermost retry-audit frame of a sample), CPU s:");
        System.out.println();
        for (int r = 0; r < ROWS.length; r++) {
            List<Map.Entry<String, Long>> top = new ArrayList<>(methods.get(r).entrySet());
            if (top.isEmpty()) {
                continue;
            }
            top.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            StringBuilder b = new StringBuilder("- " + ROWS[r][0] + ": ");
            for (int i = 0; i < Math.min(TOP, top.size()) && top.get(i).getValue() * perSample >= 0.005; i++) {
                b.append(i == 0 ? "" : ", ").append('`').append(top.get(i).getKey()).append('`')
                        .append(String.format(Locale.ROOT, " %.2f", top.get(i).getValue() * perSample));
            }
            System.out.println(b);
        }
    }

    private static int row(String thread, String[] frames) {
        if (thread.startsWith("[C2 Compiler")) {
            return C2;
        }
        if (thread.startsWith("[C1 Compiler")) {
            return C1;
        }
        boolean java = false;
        for (int i = 1; i < frames.length && !java; i++) {
            java = frames[i].contains("/") && !frames[i].endsWith("_[k]");
        }
        String joined = String.join(";", frames);
        if (thread.startsWith("[GC Thread") || thread.startsWith("[G1") || (!java && GC.matcher(joined).find())) {
            return GC_ROW;
        }
        if (!java) {
            return thread.startsWith("[main") ? START : OTHER_JVM;
        }
        if (START_UP.matcher(joined).find()) {
            return START;
        }
        boolean jackson = false;
        for (int i = frames.length - 1; i > 0; i--) {
            String f = frames[i];
            if (f.startsWith("com/fasterxml/jackson/core/")) {
                jackson = true;
            }
            if (!f.startsWith(P) || f.startsWith(P + "model/") && !f.startsWith(P + "model/Finding")
                    && !f.startsWith(P + "model/Evidence") || f.startsWith(P + "text/")) {
                continue;
            }
            String name = f.substring(P.length());
            decidedBy = f;
            if (name.contains("$Message.")) {
                return FINDING_BUILDING;
            }
            for (int r = TOKENS + 1; r < OTHER_JVM; r++) {
                for (int c = 1; c < ROWS[r].length; c++) {
                    if (name.startsWith(ROWS[r][c])) {
                        return jackson && name.startsWith("input/") ? TOKENS : r;
                    }
                }
            }
        }
        return jackson ? TOKENS : OTHER_JVM;
    }

    /** User plus system seconds from the output of {@code /usr/bin/time -v}. */
    private static double cpuSeconds(Path time) throws IOException {
        double s = 0;
        Matcher m = Pattern.compile("(User|System) time \\(seconds\\): ([0-9.]+)").matcher(Files.readString(time));
        while (m.find()) {
            s += Double.parseDouble(m.group(2));
        }
        return s;
    }
}
