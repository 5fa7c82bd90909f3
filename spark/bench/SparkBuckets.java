import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sorts the CPU samples of an async-profiler {@code collapsed} file of one Spark {@code local[2]} run
 * (recorded with {@code threads}) into the rows of docs/spark.md, "Where the process's CPU goes", and
 * prints them as Markdown: CPU seconds, share, and how much ran on the executor's task threads.
 * Usage: java spark/bench/SparkBuckets.java FILE.collapsed [TIME_V_OUTPUT]; with the output of
 * {@code /usr/bin/time -v} of the same run the samples are scaled to its user + system seconds,
 * otherwise each sample counts 1 ms.
 *
 * <p>A sample goes to the first row that claims it: the JIT compiler threads and the collector by
 * thread (and GC frames on a thread with no Java frame); anywhere in the stack, code generation and
 * Janino, then the event log; on a task thread, the innermost frame that names a part: Kryo, LZ4,
 * Java serialization, Spark's size estimates of cached blocks, Hadoop's line reader, retry-audit's own
 * code (by the step of the job's outermost frame), Spark's shuffle, sort and block storage, the generated
 * and Spark SQL operators, class loading; else Spark's executor around the task. Off the task threads:
 * the session's start and stop, Spark SQL planning (analysis, optimizer, physical planning, adaptive
 * execution), the closure cleaner and closure serialization, scheduling and RPC, class loading, the
 * job's driver code, and the JVM's other threads.
 */
public final class SparkBuckets {
    private static final String P = "dev/retryaudit/";
    private static final Pattern CLASS_LOADING = Pattern.compile("SystemDictionary::|ClassFileParser|ClassVerifier"
            + "|Verifier::|link_class|LinkResolver::|InterpreterRuntime::resolve|java/lang/ClassLoader\\.loadClass"
            + "|BuiltinClassLoader|MethodHandleNatives|LambdaMetafactory|BootstrapMethodInvoker|JNI_CreateJavaVM"
            + "|Threads::create_vm|sun/launcher/");
    private static final Pattern GC = Pattern.compile("G1|GCTask|ConcurrentGCThread|WorkerThread::run|WorkGang"
            + "|CollectedHeap::collect|VM_GC|VM_G1");
    private static final Pattern CODEGEN = Pattern.compile("org/codehaus/janino/|org/codehaus/commons/"
            + "|catalyst/expressions/codegen/|WholeStageCodegenExec\\.doExecute|CodeGenerator");
    private static final Pattern EVENT_LOG = Pattern.compile("EventLoggingListener|JsonProtocol");
    private static final Pattern START = Pattern.compile("SparkSession\\$Builder|SparkSession\\.builder"
            + "|SparkContext\\.<init>|SparkConf\\.<init>|SparkSession\\.stop|SparkContext\\.stop|ShutdownHook");
    private static final Pattern PLANNING = Pattern.compile("org/apache/spark/sql/catalyst/analysis/"
            + "|org/apache/spark/sql/catalyst/optimizer/|org/apache/spark/sql/catalyst/rules/"
            + "|org/apache/spark/sql/execution/QueryExecution|org/apache/spark/sql/execution/SparkStrategies"
            + "|org/apache/spark/sql/execution/adaptive/|org/apache/spark/sql/catalyst/planning/"
            + "|org/apache/spark/sql/execution/SparkPlan\\.|org/apache/spark/sql/catalyst/encoders/"
            + "|org/apache/spark/sql/classic/Dataset|org/apache/spark/sql/Dataset");
    private static final Pattern CLOSURES = Pattern.compile("ClosureCleaner|org/apache/xbean/asm|JavaSerializer"
            + "|ObjectOutputStream|ObjectInputStream");
    private static final Pattern SCHEDULING = Pattern.compile("org/apache/spark/scheduler/|org/apache/spark/rpc/"
            + "|io/netty/|org/apache/spark/network/|org/apache/spark/storage/|org/apache/spark/MapOutputTracker"
            + "|org/apache/spark/ContextCleaner|org/apache/spark/status/|org/apache/spark/util/ListenerBus");

    /** The rows in the table's order. */
    private static final String[] ROWS = {
        "JIT compiler threads: C2",
        "JIT compiler threads: C1",
        "GC (collector threads, concurrent marking and refinement)",
        "code generation and Janino (any thread)",
        "event log (listener thread and JSON)",
        "tasks: retry-audit's code, counting lines",
        "tasks: retry-audit's code, keying lines",
        "tasks: retry-audit's code, reading lines, building operations, per-operation rules (spans)",
        "tasks: retry-audit's code, OTLP linking (each partition's contexts)",
        "tasks: retry-audit's code, OTLP audit of the linked operations",
        "tasks: retry-audit's code, OTLP reading, routing, exports counted, call spans, parents",
        "tasks: retry-audit's code, cross-operation merge",
        "tasks: retry-audit's code, finding rows and their sort keys",
        "tasks: retry-audit's code, input checks and the rest",
        "tasks: Kryo",
        "tasks: LZ4",
        "tasks: Java serialization (closures, results, library values inside Kryo)",
        "tasks: size estimates of cached blocks (SizeEstimator)",
        "tasks: Hadoop line reading",
        "tasks: shuffle, sort, block storage",
        "tasks: Spark SQL operators and generated code",
        "tasks: class loading and linking",
        "tasks: Spark's executor around the task",
        "driver: session start-up and stop",
        "driver: Spark SQL planning (analysis, optimizer, physical, adaptive)",
        "driver: closure cleaning and task serialization",
        "driver: scheduling, RPC, block manager, status listeners",
        "driver: class loading and linking",
        "driver: retry-audit's own driver code (options, sources, summary)",
        "other JVM work (interpreter stubs, VM thread, unnamed frames)",
    };

    private SparkBuckets() {
    }

    private static int row(String label) {
        for (int r = 0; r < ROWS.length; r++) {
            if (ROWS[r].startsWith(label)) {
                return r;
            }
        }
        throw new IllegalArgumentException(label);
    }

    public static void main(String[] args) throws IOException {
        long[] samples = new long[ROWS.length];
        long[] onTasks = new long[ROWS.length];
        List<Map<String, Long>> frames = new ArrayList<>();
        for (int r = 0; r < ROWS.length; r++) {
            frames.add(new HashMap<>());
        }
        long total = 0;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long n = Long.parseLong(line.substring(space + 1));
            String[] stack = line.substring(0, space).split(";");
            String[] decided = new String[1];
            int r = row(stack, decided);
            samples[r] += n;
            if (task(stack[0])) {
                onTasks[r] += n;
            }
            if (decided[0] != null) {
                frames.get(r).merge(decided[0].replaceAll("\\$\\$Lambda\\$[^.;]*", "\\$\\$Lambda"), n, Long::sum);
            }
            total += n;
        }
        double cpu = args.length > 1 ? cpuSeconds(Path.of(args[1])) : -1;
        double perSample = cpu > 0 ? cpu / total : 0.001;
        System.out.printf(Locale.ROOT, "%,d samples, %.1f CPU s%s%n%n", total, total * perSample,
                cpu > 0 ? " (user + system of /usr/bin/time -v)" : "");
        System.out.println("| where the process's CPU goes | CPU s | share |");
        System.out.println("|---|---:|---:|");
        for (int r = 0; r < ROWS.length; r++) {
            if (samples[r] * perSample >= 0.05) {
                System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f%% |%n", ROWS[r], samples[r] * perSample,
                        100.0 * samples[r] / total);
            }
        }
        long tasks = 0;
        for (long t : onTasks) {
            tasks += t;
        }
        System.out.printf(Locale.ROOT, "%non the executor's task threads in all: %.1f CPU s (%.1f%%)%n%n",
                tasks * perSample, 100.0 * tasks / total);
        System.out.println("The frames that decided each row, CPU s:");
        System.out.println();
        for (int r = 0; r < ROWS.length; r++) {
            List<Map.Entry<String, Long>> top = new ArrayList<>(frames.get(r).entrySet());
            if (top.isEmpty()) {
                continue;
            }
            top.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            StringBuilder b = new StringBuilder("- " + ROWS[r] + ": ");
            for (int i = 0; i < Math.min(5, top.size()) && top.get(i).getValue() * perSample >= 0.05; i++) {
                b.append(i == 0 ? "" : ", ").append('`').append(top.get(i).getKey()).append('`')
                        .append(String.format(Locale.ROOT, " %.1f", top.get(i).getValue() * perSample));
            }
            System.out.println(b);
        }
    }

    /** A task's thread, or one of the threads a task parses a whole file's chunks on. */
    private static boolean task(String thread) {
        return thread.startsWith("[Executor task") || thread.startsWith("[retry-audit-chunk");
    }

    private static int row(String[] stack, String[] decided) {
        String thread = stack[0];
        if (thread.startsWith("[C2 Compiler")) {
            return row("JIT compiler threads: C2");
        }
        if (thread.startsWith("[C1 Compiler")) {
            return row("JIT compiler threads: C1");
        }
        boolean java = false;
        for (int i = 1; i < stack.length && !java; i++) {
            java = stack[i].contains("/") && !stack[i].endsWith("_[k]");
        }
        String joined = String.join(";", stack);
        if (thread.startsWith("[GC Thread") || thread.startsWith("[G1") || (!java && GC.matcher(joined).find())) {
            return row("GC");
        }
        if (!java) {
            return row("other JVM");
        }
        Matcher m = CODEGEN.matcher(joined);
        if (m.find()) {
            decided[0] = m.group();
            return row("code generation");
        }
        if (thread.startsWith("[spark-listener-group-eventLog") || EVENT_LOG.matcher(joined).find()) {
            return row("event log");
        }
        return task(thread) ? taskRow(stack, joined, decided) : driverRow(stack, joined, decided);
    }

    private static final Map<String, String> TASK_PARTS = new LinkedHashMap<>();

    static {
        TASK_PARTS.put("com/esotericsoftware/", "tasks: Kryo");
        TASK_PARTS.put("org/apache/spark/serializer/Kryo", "tasks: Kryo");
        TASK_PARTS.put("net/jpountz/", "tasks: LZ4");
        TASK_PARTS.put("org/apache/spark/io/LZ4", "tasks: LZ4");
        TASK_PARTS.put("java/io/ObjectInputStream", "tasks: Java serialization");
        TASK_PARTS.put("java/io/ObjectOutputStream", "tasks: Java serialization");
        TASK_PARTS.put("org/apache/spark/util/SizeEstimator", "tasks: size estimates");
        TASK_PARTS.put("org/apache/hadoop/util/LineReader", "tasks: Hadoop");
        TASK_PARTS.put("org/apache/hadoop/mapreduce/lib/input/LineRecordReader", "tasks: Hadoop");
        TASK_PARTS.put(P, "");
        TASK_PARTS.put("org/apache/spark/shuffle/", "tasks: shuffle");
        TASK_PARTS.put("org/apache/spark/util/collection/", "tasks: shuffle");
        TASK_PARTS.put("org/apache/spark/storage/", "tasks: shuffle");
        TASK_PARTS.put("org/apache/spark/memory/", "tasks: shuffle");
        TASK_PARTS.put("org/apache/spark/unsafe/", "tasks: shuffle");
        TASK_PARTS.put("org/apache/spark/sql/execution/UnsafeExternalRowSorter", "tasks: shuffle");
        TASK_PARTS.put("org/apache/spark/sql/", "tasks: Spark SQL");
        TASK_PARTS.put("GeneratedClass", "tasks: Spark SQL");
    }

    private static int taskRow(String[] stack, String joined, String[] decided) {
        for (int i = stack.length - 1; i > 0; i--) {
            String f = stack[i];
            for (Map.Entry<String, String> e : TASK_PARTS.entrySet()) {
                if (f.startsWith(e.getKey()) || e.getKey().equals("GeneratedClass") && f.contains("GeneratedClass")) {
                    decided[0] = f;
                    if (e.getValue().isEmpty()) {
                        return stepRow(stack, decided);
                    }
                    return row(e.getValue());
                }
            }
        }
        if (CLASS_LOADING.matcher(joined).find()) {
            return row("tasks: class loading");
        }
        decided[0] = stack[stack.length - 1];
        return row("tasks: Spark's executor");
    }

    /** The step of the job that the job's own frames in the stack name. */
    private static final String[][] STEPS = {
        {"spark/NumberedLines", "tasks: retry-audit's code, counting"},
        {"spark/OtlpJob.linkPartition", "tasks: retry-audit's code, OTLP linking"},
        {"spark/OtlpJob.auditPartition", "tasks: retry-audit's code, OTLP audit"},
        {"spark/OtlpWholeFiles.link", "tasks: retry-audit's code, OTLP linking"},
        {"spark/OtlpWholeFiles", "tasks: retry-audit's code, OTLP reading"},
        {"spark/OtlpJob", "tasks: retry-audit's code, OTLP reading"},
        {"spark/SparkAudit.lambda$otlp", "tasks: retry-audit's code, OTLP reading"},
        {"spark/FindingRows", "tasks: retry-audit's code, finding rows"},
        {"rules/engine/FindingOrder.key", "tasks: retry-audit's code, finding rows"},
        {"spark/AuditJob.lambda$merged", "tasks: retry-audit's code, cross-operation"},
        {"spark/CrossingKeys", "tasks: retry-audit's code, keying"},
        {"spark/AuditJob.auditWhole", "tasks: retry-audit's code, reading"},
        {"spark/AuditJob.auditLocal", "tasks: retry-audit's code, reading"},
        {"spark/AuditJob.auditCrossing", "tasks: retry-audit's code, reading"},
        {"spark/AuditJob$1", "tasks: retry-audit's code, reading"},
        {"spark/SpanOperation", "tasks: retry-audit's code, reading"},
        {"input/operations/SpansReader", "tasks: retry-audit's code, reading"},
        {"input/foreign/otlp/", "tasks: retry-audit's code, OTLP reading"},
    };

    private static int stepRow(String[] stack, String[] decided) {
        for (String[] step : STEPS) {
            for (int i = 1; i < stack.length; i++) {
                if (stack[i].startsWith(P + step[0])) {
                    decided[0] = stack[i];
                    return row(step[1]);
                }
            }
        }
        for (int i = 1; i < stack.length; i++) {
            if (stack[i].startsWith(P + "spark/")) {
                decided[0] = stack[i];
                break;
            }
        }
        return row("tasks: retry-audit's code, input checks");
    }

    private static int driverRow(String[] stack, String joined, String[] decided) {
        Matcher m = START.matcher(joined);
        if (m.find()) {
            decided[0] = m.group();
            return row("driver: session");
        }
        m = PLANNING.matcher(joined);
        boolean planning = m.find();
        if (planning || stack[0].startsWith("[shuffle-exchange") || stack[0].startsWith("[ResultQueryStage")) {
            decided[0] = planning ? m.group() : stack[0].replaceAll(" tid=[0-9]+", "").replaceAll("[0-9]+", "N");
            return row("driver: Spark SQL planning");
        }
        m = CLOSURES.matcher(joined);
        if (m.find()) {
            decided[0] = m.group();
            return row("driver: closure");
        }
        m = SCHEDULING.matcher(joined);
        if (m.find()) {
            decided[0] = m.group();
            return row("driver: scheduling");
        }
        if (CLASS_LOADING.matcher(joined).find()) {
            return row("driver: class loading");
        }
        if (joined.contains(P) || joined.contains("picocli/") || joined.contains("org/apache/hadoop/")) {
            decided[0] = stack[0].startsWith("[main") ? "main" : stack[0];
            return row("driver: retry-audit's own");
        }
        decided[0] = stack[0].replaceAll(" tid=[0-9]+", "").replaceAll("[0-9]+", "N");
        return row("other JVM");
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
