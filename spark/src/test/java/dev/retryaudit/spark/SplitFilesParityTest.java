package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same input audited with each file whole in one partition, and cut at arbitrary line boundaries into
 * splits of a few KiB (some operations and contexts in more than one split) and of a few hundred bytes
 * (almost all of them): the Spark job gives the command line's findings and notes every time.
 */
class SplitFilesParityTest {
    private static final String MAX_SPLIT = "mapreduce.input.fileinputformat.split.maxsize";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "splits of at most {0} bytes (0: the job's own)")
    @ValueSource(longs = {0, 8 << 10, 700})
    void spans(long split) throws Exception {
        List<Path> accepted = new ArrayList<>();
        for (Path[] f : Parity.fixtures()) {
            if (f[1] == null && Parity.cli(List.of(), List.of(f[0])).report() != null) {
                accepted.add(f[0]);
            }
        }
        List<Path> files = SpanCorpus.write(dir, 2, 600, accepted);
        Parity.CliAnswer cli = withSplits(split, () -> Parity.assertSame(null, Limits.DEFAULTS, files));
        assertThat(cli.report()).as("the command line accepted the input: %s", cli.error()).isNotNull();
    }

    @ParameterizedTest(name = "splits of at most {0} bytes (0: the job's own)")
    @ValueSource(longs = {0, 8 << 10, 700})
    void otlp(long split) throws Exception {
        List<Path> files = new ArrayList<>();
        List<String> contents = OtlpCorpus.files(3, 12);
        for (int i = 0; i < contents.size(); i++) {
            Path f = dir.resolve("part-" + i + ".jsonl");
            Files.writeString(f, contents.get(i));
            files.add(f);
        }
        Parity.CliAnswer cli = withSplits(split,
                () -> Parity.assertSame(SparkAudit.OTLP, null, Limits.DEFAULTS, files));
        assertThat(cli.exit()).isEqualTo(2);
    }

    private interface Audit {
        Parity.CliAnswer run() throws IOException;
    }

    /** {@code audit} run with files in splits of at most {@code bytes} bytes, or the job's own when 0. */
    private static Parity.CliAnswer withSplits(long bytes, Audit audit) throws IOException {
        SparkContext sc = SharedSpark.get().sparkContext();
        if (bytes > 0) {
            sc.hadoopConfiguration().setLong(MAX_SPLIT, bytes);
        }
        try {
            return audit.run();
        } finally {
            sc.hadoopConfiguration().unset(MAX_SPLIT);
        }
    }
}
