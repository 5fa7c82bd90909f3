package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.api.AuditSettings;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The findings are written in one part a {@value SparkAudit#FINDINGS_PER_PART} findings at most (one part for a
 * few), in the same report order however many parts there are.
 */
class FindingsPerPartTest {
    @TempDir
    Path dir;

    @Test
    void rangesFollowTheFindings() {
        assertThat(SparkAudit.ranges(0, 100_000)).isEqualTo(1);
        assertThat(SparkAudit.ranges(22_500, 100_000)).isEqualTo(1);
        assertThat(SparkAudit.ranges(100_000, 100_000)).isEqualTo(1);
        assertThat(SparkAudit.ranges(100_001, 100_000)).isEqualTo(2);
        assertThat(SparkAudit.ranges(7, 2)).isEqualTo(4);
        assertThat(SparkAudit.ranges(Long.MAX_VALUE, 1)).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> SparkAudit.ranges(5, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(SparkAudit.FINDINGS_PER_PART);
    }

    @Test
    void sameOrderInOnePartOrMany() throws Exception {
        List<Path> files = SpanCorpus.write(dir, 2, 300, List.of(AuditJobPassesTest.firstAcceptedFixture()));
        List<String> paths = files.stream().map(Path::toString).toList();
        SparkSession spark = SharedSpark.get();
        SparkAudit audit = SparkAudit.of(spark, AuditSettings.builder().build());
        List<String> one;
        int onePartitions;
        try (SparkAuditResult r = audit.spans(paths)) {
            one = r.findingsJson().collectAsList();
            onePartitions = r.findingsJson().rdd().getNumPartitions();
        }
        assertThat(one).hasSizeGreaterThan(3);
        assertThat(onePartitions).isEqualTo(1);
        spark.conf().set(SparkAudit.FINDINGS_PER_PART, "3");
        try (SparkAuditResult r = audit.spans(paths)) {
            assertThat(r.findingsJson().rdd().getNumPartitions()).isEqualTo((one.size() + 2) / 3);
            assertThat(r.findingsJson().collectAsList()).isEqualTo(one);
            spark.conf().set(SparkAudit.FINDINGS_PER_PART, "three");
            assertThatThrownBy(() -> audit.spans(paths)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(SparkAudit.FINDINGS_PER_PART + " must be a whole number of at least 1: three");
        } finally {
            spark.conf().unset(SparkAudit.FINDINGS_PER_PART);
        }
    }
}
