package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Severity;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** The library entry point on a Dataset of spans: rows are records, row i is line i + 1. */
class DatasetAuditTest {
    private static final String EXAMPLE = "../examples/checkout-spans.jsonl";

    @Test
    void auditsADatasetAsOneSource() throws Exception {
        Dataset<Row> spans = SharedSpark.get().read().json(EXAMPLE);
        SparkAudit audit = SparkAudit.of(SharedSpark.get(), AuditSettings.defaults());
        try (SparkAuditResult r = audit.spans(spans, "checkout")) {
            List<Row> findings = r.findings().collectAsList();
            JsonNode cli = Parity.cli(List.of(), List.of(Path.of(EXAMPLE))).report().get("findings");
            assertThat(findings).hasSize(cli.size());
            Row first = findings.get(0);
            assertThat(first.<String>getAs("rule")).isEqualTo(cli.get(0).get("rule").asText());
            assertThat(first.<String>getAs("message")).isEqualTo(cli.get(0).get("message").asText());
            assertThat(Parity.read(first.getAs("evidence"))).isEqualTo(cli.get(0).get("evidence"));
            Row location = first.getAs("location");
            assertThat(location.<String>getAs("source")).isEqualTo("checkout");
            assertThat(location.<Long>getAs("line")).isEqualTo(cli.get(0).get("location").get("line").asLong());
            assertThat(r.inputs().get(0).operations()).isEqualTo(2);
            assertThat(r.counts()).containsEntry(Severity.ERROR, 1L);
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.findings().columns()).containsExactly("rule", "severity", "operation", "attempt", "tool",
                    "run", "message", "evidence", "location", "fingerprint");
        }
    }

    @Test
    void rejectsARowWithTheDiagnosticOfItsRecord() {
        Dataset<Row> spans = SharedSpark.get().sql("SELECT 'a' AS operation_id, 't' AS tool, 1 AS attempt_id "
                + "UNION ALL SELECT 'a', 't', 2 UNION ALL SELECT 'b', 't', -1").coalesce(1);
        SparkAudit audit;
        try {
            audit = SparkAudit.of(SharedSpark.get(), AuditSettings.defaults());
        } catch (RetryAuditException e) {
            throw new AssertionError(e);
        }
        assertThatThrownBy(() -> audit.spans(spans, "rows"))
                .isInstanceOf(RetryAuditException.class)
                .hasMessageStartingWith("rows:3:");
    }
}
