package dev.retryaudit.spark;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Severity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.slf4j.LoggerFactory;

/**
 * The retry-audit rules on Spark: audits {@code spans} JSON Lines files, OTLP/JSON Lines files, Parquet
 * files with the spans columns, or a {@code Dataset<Row>} of spans, with the policy, rule selection, limits and
 * {@code --fail-on} of the command line, and gives the same findings in the same order. An input the
 * command line rejects is rejected with its one-line diagnostic (a {@link RetryAuditException}).
 * Make one per session with {@link #of}; each call is one audit.
 */
public final class SparkAudit {
    /** The format names of the inputs, as the summary gives them. */
    static final String SPANS = "spans";
    static final String PARQUET = "parquet";
    static final String OTLP = "otlp";
    /** The session setting of how many findings a part file of the findings holds at most. */
    public static final String FINDINGS_PER_PART = "spark.retryaudit.findingsPerPart";
    static final long FINDINGS_PER_PART_DEFAULT = 1_000_000;

    private final SparkSession spark;
    private final AuditSettings settings;
    private final RetryAudit auditor;

    private SparkAudit(SparkSession spark, AuditSettings settings, RetryAudit auditor) {
        this.spark = spark;
        this.settings = settings;
        this.auditor = auditor;
    }

    /**
     * The audit of {@code settings} on {@code spark}: their policy (a policy file is read here, on the driver),
     * rule selection, limits and {@code --fail-on}; the inputs' format is each call's, and the findings are
     * written as {@link SparkAuditResult} writes them. A baseline is refused: the job writes every finding.
     */
    public static SparkAudit of(SparkSession spark, dev.retryaudit.api.AuditSettings settings)
            throws RetryAuditException {
        Objects.requireNonNull(spark, "spark");
        if (settings.baseline().isPresent()) {
            throw new IllegalArgumentException("a baseline is not applied on Spark: audit without one");
        }
        RetryAudit auditor = RetryAudit.of(settings);
        return new SparkAudit(spark, new AuditSettings(auditor.settings()), auditor);
    }

    /** Audits spans JSON Lines files (any path Spark reads; a directory or glob gives its files in path order). */
    public SparkAuditResult spans(List<String> paths) throws RetryAuditException {
        Sources sources = sources(paths);
        NumberedLines.Numbered lines = NumberedLines.read(jsc(), sources.files(), sources.bytes());
        return audit(lines.lines(), lines.whole(), sources, SPANS);
    }

    /**
     * Audits OTLP/JSON Lines files (one trace export a line, as the OpenTelemetry file exporter writes
     * them); a file of one export keeps JSON Pointers in its locations, as the command line gives them.
     */
    public SparkAuditResult otlp(List<String> paths) throws RetryAuditException {
        Sources sources = sources(paths);
        Set<Integer> logs = new HashSet<>();
        for (int s = 0; s < sources.files().size(); s++) {
            if (LineReader.isLog(sources.head(s, 1 << 16, jsc().hadoopConfiguration()))) {
                logs.add(s);
            }
        }
        NumberedLines.Numbered numbered = NumberedLines.read(jsc(), sources.files(), sources.bytes());
        JavaRDD<SpanLine> lines = numbered.lines();
        Broadcast<List<String>> names = jsc().broadcast(sources.names());
        Limits limits = settings.limits();
        // A partition that holds a whole file reads it itself, and tells one export and none itself: not counted here.
        WholeFiles whole = numbered.whole();
        Set<Integer> wholeSources = new HashSet<>();
        whole.partitions().forEach(p -> wholeSources.add(whole.source(p)));
        Map<Integer, Long> records = lines.mapPartitionsWithIndex((p, it) -> {
            if (whole.holds(p)) {
                return List.<Integer>of().iterator();
            }
            LineReader reader = LineReader.otlp(limits, logs);
            List<Integer> out = new ArrayList<>();
            it.forEachRemaining(l -> {
                if (reader.holdsExport(names.value().get(l.sourceIndex()), l.sourceIndex(), l.line(), l.bytes())) {
                    out.add(l.sourceIndex());
                }
            });
            return out.iterator();
        }, true).countByValue();
        Set<Integer> single = new HashSet<>();
        List<InputRejection> empty = new ArrayList<>();
        LineReader reader = LineReader.otlp(limits, logs);
        for (int s = 0; s < sources.names().size(); s++) {
            long n = records.getOrDefault(s, 0L);
            if (wholeSources.contains(s)) {
                continue;
            }
            if (n == 1) {
                single.add(s);
            } else if (n == 0) {
                empty.add(InputRejection.empty(s, reader.empty(sources.names().get(s), s)));
            }
        }
        List<JavaRDD<?>> kept = new ArrayList<>();
        logWhole(whole.partitions(), lines.getNumPartitions());
        JavaRDD<Item> items = OtlpJob.items(lines, whole, names,
                jsc().broadcast(new OtlpSources(single, logs)), settings, kept);
        long[][] counts;
        try {
            counts = InputChecks.counts(items, sources.names().size());
        } finally {
            // The items are kept from here on: what they were made from is not needed again.
            kept.forEach(r -> r.unpersist(false));
        }
        return audit(items, sources, OTLP, counts, empty);
    }

    /**
     * Audits Parquet files whose columns are the spans fields; a record {@code i} of a file is line
     * {@code i + 1} of that source in locations and errors.
     */
    public SparkAuditResult parquet(List<String> paths) throws RetryAuditException {
        Sources sources = sources(paths);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < sources.files().size(); i++) {
            org.apache.hadoop.fs.Path f = sources.files().get(i);
            index.putIfAbsent(f.toString(), i);
            index.putIfAbsent(f.toUri().toString(), i);
        }
        Broadcast<Map<String, Integer>> files = jsc().broadcast(index);
        Dataset<Row> rows = spark.read().parquet(sources.files().stream().map(Object::toString).toArray(String[]::new));
        Column record = functions.to_json(functions.struct(
                Arrays.stream(rows.columns()).map(rows::col).toArray(Column[]::new)));
        JavaRDD<SpanLine> lines = rows.select(record.as("json"), functions.col("_metadata.file_path").as("file"),
                        functions.col("_metadata.row_index").as("row"))
                .javaRDD()
                .map(r -> new SpanLine(sourceOf(files.value(), r.getString(1)), r.getLong(2) + 1,
                        r.getString(0).getBytes(StandardCharsets.UTF_8)));
        return audit(lines, WholeFiles.none(), sources, PARQUET);
    }

    /**
     * Audits a Dataset of spans (the spans fields as columns, in any order) as one source named
     * {@code source}; its row {@code i} is line {@code i + 1} in locations and errors.
     */
    public SparkAuditResult spans(Dataset<Row> rows, String source) throws RetryAuditException {
        JavaRDD<SpanLine> lines = rows.toJSON().javaRDD().zipWithIndex()
                .map(t -> new SpanLine(0, t._2() + 1, t._1().getBytes(StandardCharsets.UTF_8)));
        return audit(lines, WholeFiles.none(), new Sources(List.of(source), List.of(), 0), SPANS);
    }

    private static int sourceOf(Map<String, Integer> files, String path) {
        Integer i = files.get(path);
        if (i == null) {
            i = files.get(new org.apache.hadoop.fs.Path(path).toString());
        }
        if (i == null) {
            throw new IllegalStateException("a record of a file that is not an input: " + path);
        }
        return i;
    }

    /** Audits spans {@code lines}; the partitions in {@code whole} each hold whole files. */
    private SparkAuditResult audit(JavaRDD<SpanLine> lines, WholeFiles whole, Sources sources, String format)
            throws RetryAuditException {
        Broadcast<List<String>> names = jsc().broadcast(sources.names());
        List<JavaRDD<?>> kept = new ArrayList<>();
        List<CrossingKeys.Found> found = new ArrayList<>();
        JavaRDD<Item> items = AuditJob.items(lines, whole, names, settings, kept, found);
        long[][] counts;
        try {
            counts = InputChecks.counts(items, sources.names().size());
        } finally {
            // The items are kept from here on: what they were made from is not needed again.
            kept.forEach(r -> r.unpersist(false));
        }
        CrossingKeys.Found crossing = found.get(0);
        logWhole(whole.partitions(), lines.getNumPartitions());
        LoggerFactory.getLogger(SparkAudit.class).info(
                "operations in more than one partition: {} of {} keys of the other partitions ({}%)",
                crossing.hashes().size(), crossing.keys(), String.format(java.util.Locale.ROOT, "%.3f",
                        100 * crossing.share()));
        List<InputRejection> empty = new ArrayList<>();
        LineReader reader = LineReader.spans(settings.limits());
        for (int s = 0; s < counts.length; s++) {
            if (counts[s][0] == 0) {
                empty.add(InputRejection.empty(s, reader.empty(sources.names().get(s), s)));
            }
        }
        return audit(items, sources, format, counts, empty);
    }

    /** Says in the job's log how many of the {@code partitions} hold whole files ({@code whole}). */
    private static void logWhole(Set<Integer> whole, int partitions) {
        LoggerFactory.getLogger(SparkAudit.class).info(
                "partitions that hold whole files, read once and audited where they are: {} of {}", whole.size(),
                partitions);
    }

    /** The input-wide checks over audited {@code items} and, when they pass, the result. */
    private SparkAuditResult audit(JavaRDD<Item> items, Sources sources, String format, long[][] counts,
            List<InputRejection> empty) throws RetryAuditException {
        long perPart;
        try {
            perPart = findingsPerPart(spark);
        } catch (IllegalArgumentException e) {
            items.unpersist(false);
            throw e;
        }
        try {
            Optional<InputRejection> rejected = InputChecks.first(items, counts, sources, settings.limits(),
                    jsc().hadoopConfiguration(), empty, format.equals(OTLP));
            if (rejected.isPresent()) {
                throw rejected.get().error();
            }
        } catch (RetryAuditException e) {
            items.unpersist(false);
            throw e;
        }
        JavaRDD<AuditResult> merged = AuditJob.merged(items, settings);
        // The notes of each source: at most the reader's hundred and one, merged on the executors.
        Map<String, List<InputNote>> notes = new HashMap<>();
        for (InputNote n : merged.flatMap(r -> r.inputs().get(0).notes().iterator()).collect()) {
            notes.computeIfAbsent(n.source(), k -> new ArrayList<>()).add(n);
        }
        List<InputSummary> inputs = new ArrayList<>();
        for (int s = 0; s < counts.length; s++) {
            String name = sources.names().get(s);
            List<InputNote> read = notes.remove(name);
            if (counts[s][1] == 0 && (read == null || read.isEmpty())) {
                read = List.of(InputNote.nothingToAudit(name));
            }
            inputs.add(new InputSummary(name, format, counts[s][1], counts[s][2], read));
        }
        Map<Severity, Long> severities = SparkAuditResult.counts(items, merged);
        JavaRDD<Row> rows = SparkAuditResult.findings(items, merged).map(FindingRows::row);
        // Ordered as orderBy orders, in one range a FINDINGS_PER_PART findings rather than the session's default
        // of shuffle partitions (200: as many files a task would write for a few thousand findings). One range
        // needs no sample of the findings to find its bounds, so they are made into rows once.
        long total = severities.values().stream().mapToLong(Long::longValue).sum();
        Column order = functions.col(FindingRows.ORDER);
        Dataset<Row> findings = spark.createDataFrame(rows, FindingRows.SCHEMA)
                .repartitionByRange(ranges(total, perPart), order)
                .sortWithinPartitions(order);
        return new SparkAuditResult(auditor, inputs, findings, settings.failOn(), items, merged, severities);
    }

    /**
     * The session's {@value #FINDINGS_PER_PART}, else {@value #FINDINGS_PER_PART_DEFAULT}; an
     * {@link IllegalArgumentException} naming the setting when it is not a whole number of at least 1.
     */
    static long findingsPerPart(SparkSession spark) {
        String value = spark.conf().get(FINDINGS_PER_PART, Long.toString(FINDINGS_PER_PART_DEFAULT));
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1) {
            throw new IllegalArgumentException(FINDINGS_PER_PART + " must be a whole number of at least 1: " + value);
        }
        return n;
    }

    /**
     * How many ranges (part files) {@code findings} findings are written in, at most {@code perPart} a range,
     * at least one.
     */
    static int ranges(long findings, long perPart) {
        if (perPart < 1) {
            throw new IllegalArgumentException(FINDINGS_PER_PART + " must be at least 1: " + perPart);
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (findings + perPart - 1) / perPart));
    }

    private Sources sources(List<String> paths) throws RetryAuditException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input path");
        }
        return Sources.of(paths, jsc().hadoopConfiguration());
    }

    private JavaSparkContext jsc() {
        return JavaSparkContext.fromSparkContext(spark.sparkContext());
    }
}
