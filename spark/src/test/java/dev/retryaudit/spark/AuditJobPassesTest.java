package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.RetryAuditException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spans audit's first pass, which finds the operations whose lines are in several partitions, runs only
 * when a partition holds part of a file: with every file whole in its partition nothing is computed for it,
 * and the operations audited are the same.
 */
class AuditJobPassesTest {
    private static final String MAX_SPLIT = "mapreduce.input.fileinputformat.split.maxsize";

    @TempDir
    Path dir;

    @Test
    void noFirstPassWhenEveryPartitionHoldsAWholeFile() throws Exception {
        List<Path> files = SpanCorpus.write(dir, 2, 200, List.of(firstAcceptedFixture()));
        Audited whole = audited(files, 0);
        Audited split = audited(files, 700);

        assertThat(whole.kept()).isEmpty();
        assertThat(whole.found().hashes()).isEmpty();
        assertThat(whole.found().keys()).isZero();
        assertThat(split.kept()).isNotEmpty();
        assertThat(split.found().keys()).isPositive();
        assertThat(whole.counts()).isDeepEqualTo(split.counts());
        assertThat(whole.counts()[0][1]).isPositive();
    }

    private record Audited(List<JavaRDD<?>> kept, CrossingKeys.Found found, long[][] counts) {
    }

    /** {@code files} audited as the job audits spans, in splits of at most {@code bytes} bytes (0: the job's own). */
    private static Audited audited(List<Path> files, long bytes) throws RetryAuditException {
        SparkContext sc = SharedSpark.get().sparkContext();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        if (bytes > 0) {
            sc.hadoopConfiguration().setLong(MAX_SPLIT, bytes);
        }
        try {
            Sources sources = Sources.of(files.stream().map(Path::toString).toList(), sc.hadoopConfiguration());
            NumberedLines.Numbered numbered = NumberedLines.read(jsc, sources.files(), sources.bytes());
            List<JavaRDD<?>> kept = new ArrayList<>();
            List<CrossingKeys.Found> found = new ArrayList<>();
            JavaRDD<Item> items = AuditJob.items(numbered.lines(), numbered.whole(), jsc.broadcast(sources.names()),
                    new AuditSettings(dev.retryaudit.api.AuditSettings.builder().build()), kept, found);
            long[][] counts = InputChecks.counts(items, sources.names().size());
            items.unpersist(false);
            kept.forEach(r -> r.unpersist(false));
            return new Audited(kept, found.get(0), counts);
        } finally {
            sc.hadoopConfiguration().unset(MAX_SPLIT);
        }
    }

    static Path firstAcceptedFixture() throws IOException {
        for (Path[] f : Parity.fixtures()) {
            if (f[1] == null && Parity.cli(List.of(), List.of(f[0])).report() != null) {
                return f[0];
            }
        }
        throw new IllegalStateException("no fixture the command line accepts");
    }
}
