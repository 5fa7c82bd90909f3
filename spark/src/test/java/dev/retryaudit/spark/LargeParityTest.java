package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.retryaudit.model.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * About 100,000 operations in four files, with every rule that the fixtures fire under the default
 * policy firing, runs and keys spread over files and partitions, parent chains across runs and files,
 * blank lines and CR LF: the Spark job gives the command line's findings.
 */
class LargeParityTest {
    @TempDir
    Path dir;

    @Test
    void sameFindingsOnALargeInput() throws Exception {
        List<Path> accepted = new ArrayList<>();
        Set<String> fired = new TreeSet<>();
        for (Path[] f : Parity.fixtures()) {
            if (f[1] != null) {
                continue;
            }
            Parity.CliAnswer cli = Parity.cli(List.of(), List.of(f[0]));
            if (cli.report() != null) {
                accepted.add(f[0]);
                cli.report().get("findings").forEach(x -> fired.add(x.get("rule").asText()));
            }
        }
        List<Path> files = SpanCorpus.write(dir, 4, 100_000, accepted);
        SharedSpark.get().sparkContext().hadoopConfiguration()
                .setLong("mapreduce.input.fileinputformat.split.maxsize", 4L << 20);
        // The findings in parts of a thousand, so that their order across parts is the command line's too.
        SharedSpark.get().conf().set(SparkAudit.FINDINGS_PER_PART, "1000");
        try {
            Parity.CliAnswer cli = Parity.assertSame(null, Limits.DEFAULTS, files);
            assertThat(cli.report()).as("the command line accepted the input: %s", cli.error()).isNotNull();
            JsonNode summary = cli.report().get("summary");
            assertThat(summary.get("operations").asLong()).isGreaterThanOrEqualTo(100_000);
            Set<String> rules = new TreeSet<>();
            cli.report().get("findings").forEach(x -> rules.add(x.get("rule").asText()));
            assertThat(rules).containsAll(fired).contains("budget/amplification", "budget/retry-ratio");
            assertThat(Files.size(files.get(0))).isGreaterThan(4L << 20);
        } finally {
            SharedSpark.get().sparkContext().hadoopConfiguration()
                    .unset("mapreduce.input.fileinputformat.split.maxsize");
            SharedSpark.get().conf().unset(SparkAudit.FINDINGS_PER_PART);
        }
    }
}
