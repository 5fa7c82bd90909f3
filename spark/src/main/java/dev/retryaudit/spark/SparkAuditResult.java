package dev.retryaudit.spark;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.split.SplitReport;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.functions;

/**
 * One audit's outcome: the findings as a Dataset in report order (computed where they are used,
 * never gathered on the driver), what each source held, and the summary of the JSON report. Holds the
 * audit's intermediate results on the executors until {@link #close}.
 */
public final class SparkAuditResult implements AutoCloseable {
    /** How {@link #write} writes the findings. */
    public enum OutputFormat {
        /** One finding a line, each the JSON object of the command line's report. */
        JSON,
        /** The report's fields as columns; evidence as JSON text, location as a struct. */
        PARQUET
    }

    private final RetryAudit auditor;
    private final List<InputSummary> inputs;
    private final Dataset<Row> rows;
    private final FailOn failOn;
    private final JavaRDD<Item> items;
    private final JavaRDD<AuditResult> merged;
    private final Map<Severity, Long> counts;

    SparkAuditResult(RetryAudit auditor, List<InputSummary> inputs, Dataset<Row> rows, FailOn failOn,
            JavaRDD<Item> items, JavaRDD<AuditResult> merged, Map<Severity, Long> counts) {
        this.auditor = auditor;
        this.inputs = List.copyOf(inputs);
        this.rows = rows;
        this.failOn = failOn;
        this.items = items;
        this.merged = merged;
        this.counts = Map.copyOf(counts);
    }

    /** The findings in report order, with the JSON report's fields as columns. */
    public Dataset<Row> findings() {
        return rows.select(Arrays.stream(FindingRows.COLUMNS).map(functions::col).toArray(Column[]::new));
    }

    /** Each finding's JSON object exactly as the command line's JSON report gives it, one a row, in report order. */
    public Dataset<String> findingsJson() {
        return rows.select(FindingRows.JSON).as(org.apache.spark.sql.Encoders.STRING());
    }

    /** What each source held, in source order, with the reader's notes on how it read it (as the command line gives them). */
    public List<InputSummary> inputs() {
        return inputs;
    }

    /** The number of findings of each severity, every severity present. */
    public Map<Severity, Long> counts() {
        return counts;
    }

    /**
     * The number of findings of each severity, every severity present: one Spark job over the kept findings of
     * the per-operation and the cross-operation rules (one count per partition to the driver).
     */
    static Map<Severity, Long> counts(JavaRDD<Item> items, JavaRDD<AuditResult> merged) {
        long[] n = new long[Severity.values().length];
        for (long[] part : findings(items, merged).mapPartitions(SparkAuditResult::count).collect()) {
            for (int s = 0; s < n.length; s++) {
                n[s] += part[s];
            }
        }
        Map<Severity, Long> c = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            c.put(s, n[s.ordinal()]);
        }
        return c;
    }

    /**
     * Every finding: those of the per-operation rules, kept with the items, and those the merge of the
     * cross-operation rules gave, in as many partitions as the items (a partition of each in one task).
     */
    static JavaRDD<Finding> findings(JavaRDD<Item> items, JavaRDD<AuditResult> merged) {
        return items.filter(i -> i.findings() != null).flatMap(i -> i.findings().value().iterator())
                .union(merged.flatMap(r -> r.findings().iterator())).coalesce(Math.max(1, items.getNumPartitions()));
    }

    private static Iterator<long[]> count(Iterator<Finding> findings) {
        long[] n = new long[Severity.values().length];
        findings.forEachRemaining(f -> n[f.severity().ordinal()]++);
        return List.of(n).iterator();
    }

    /** Whether no finding is at or above {@code --fail-on}. */
    public boolean passed() {
        return failOn.passes(counts());
    }

    /** The command line's exit code for this audit: 0 passed, 2 failed. */
    public int exitCode() {
        return passed() ? 0 : 2;
    }

    /**
     * Writes the findings under {@code dir}/findings (Spark's part files, in report order: part 0
     * first) and {@code dir}/summary.json, the JSON report without its findings.
     */
    public void write(String dir, OutputFormat format, Configuration conf) throws IOException {
        String findingsDir = new Path(dir, "findings").toString();
        if (format == OutputFormat.PARQUET) {
            findings().write().mode(SaveMode.ErrorIfExists).parquet(findingsDir);
        } else {
            findingsJson().write().mode(SaveMode.ErrorIfExists).text(findingsDir);
        }
        Path summary = new Path(dir, "summary.json");
        try (OutputStream out = summary.getFileSystem(conf).create(summary, false)) {
            writeSummary(out, format);
        }
    }

    /**
     * The summary: the JSON report's version, tool, inputs (with their notes) and summary, written by
     * the report's own writer, and where the findings are.
     */
    public void writeSummary(OutputStream out, OutputFormat format) throws IOException {
        Map<String, String> findingsAt = new LinkedHashMap<>();
        findingsAt.put("path", "findings");
        findingsAt.put("format", format == OutputFormat.PARQUET ? "parquet" : "jsonl");
        SplitReport.writeJsonSummary(out, inputs, counts(), failOn, findingsAt);
    }

    /** Lets go of the audit's intermediate results on the executors. */
    @Override
    public void close() {
        items.unpersist(false);
        merged.unpersist(false);
    }

    /** The rules that ran, as the auditor configured them. */
    public List<dev.retryaudit.rules.RuleInfo> rules() {
        return auditor.rules();
    }
}
