package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.retryaudit.api.Setting;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spark-submit application, run in-process on the shared local session. */
class SparkMainTest {
    private static final String EXAMPLE = "../examples/checkout-spans.jsonl";

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = SparkMain.run(SharedSpark.get(), args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void writesTheFindingsAndTheSummaryOfTheCommandLine() throws IOException {
        Path out = dir.resolve("out");
        Run run = run("audit", "--input", EXAMPLE, "../examples/traces/gaps.jsonl", "--input-format", "spans",
                "--output", out.toString());
        Parity.CliAnswer cli = Parity.cli(List.of(), List.of(Path.of(EXAMPLE), Path.of("../examples/traces/gaps.jsonl")));
        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isEqualTo(cli.exit()).isEqualTo(2);
        assertWrittenAs(out, cli);
    }

    @Test
    void readsOtlpExportsAndSpanExporterLogs() throws IOException {
        Path out = dir.resolve("out");
        String export = "../src/test/resources/real/recorded/otel-js/fetch-ignored-429.json";
        String log = "../src/test/resources/real/recorded/otel-java-logging/okhttp-ignored-429-parent.log";
        Run run = run("audit", "--input", export, log, "--input-format", "otlp", "--output", out.toString());
        Parity.CliAnswer cli = Parity.cli(SparkAudit.OTLP, List.of(), List.of(Path.of(export), Path.of(log)));
        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isEqualTo(cli.exit()).isEqualTo(2);
        assertWrittenAs(out, cli);
    }

    /** The findings and summary written to {@code out} are the command line's report's. */
    private static void assertWrittenAs(Path out, Parity.CliAnswer cli) throws IOException {
        List<JsonNode> written = new ArrayList<>();
        try (Stream<Path> parts = Files.list(out.resolve("findings"))) {
            for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                Files.readAllLines(p).forEach(l -> written.add(Parity.read(l)));
            }
        }
        List<JsonNode> expected = new ArrayList<>();
        cli.report().get("findings").forEach(expected::add);
        assertThat(written).containsExactlyElementsOf(expected);
        JsonNode summary = Parity.read(Files.readString(out.resolve("summary.json")));
        assertThat(summary.get("summary")).isEqualTo(cli.report().get("summary"));
        assertThat(summary.get("inputs")).isEqualTo(cli.report().get("inputs"));
        assertThat(summary.get("findings").get("format").asText()).isEqualTo("jsonl");
    }

    @Test
    void writesParquetAndPassesBelowFailOn() throws IOException {
        Path out = dir.resolve("out");
        Run run = run("audit", "--input", EXAMPLE, "--input-format", "spans", "--output", out.toString(),
                "--output-format", "parquet", "--fail-on", "never");
        assertThat(run.exit()).isZero();
        List<Row> rows = SharedSpark.get().read().parquet(out.resolve("findings").toString()).collectAsList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).<String>getAs("rule")).isEqualTo("timeout-replay/unreconciled");
        assertThat(Parity.read(Files.readString(out.resolve("summary.json"))).get("summary").get("passed").asBoolean())
                .isTrue();
    }

    @Test
    void auditsParquetInputWithRecordLocations() throws IOException {
        Path parquet = dir.resolve("spans.parquet");
        SharedSpark.get().read().json(EXAMPLE).coalesce(1).write().parquet(parquet.toString());
        Path out = dir.resolve("out");
        Run run = run("audit", "--input", parquet.toString(), "--input-format", "parquet", "--output", out.toString(),
                "--disable", "trace");
        Parity.CliAnswer cli = Parity.cli(List.of("--disable", "trace"), List.of(Path.of(EXAMPLE)));
        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        List<String> lines = new ArrayList<>();
        try (Stream<Path> parts = Files.list(out.resolve("findings"))) {
            for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                lines.addAll(Files.readAllLines(p));
            }
        }
        assertThat(lines).hasSize(cli.report().get("findings").size());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode spark = Parity.read(lines.get(i));
            JsonNode expected = cli.report().get("findings").get(i);
            for (String field : List.of("rule", "severity", "operation", "attempt", "tool", "run", "message", "evidence")) {
                assertThat(spark.get(field)).as(field).isEqualTo(expected.get(field));
            }
            assertThat(spark.get("location").get("source").asText()).startsWith(parquet.toString()).endsWith(".parquet");
            assertThat(spark.get("location").get("line").asLong())
                    .as("the record index + 1: the example's lines are its records")
                    .isEqualTo(expected.get("location").get("line").asLong());
        }
    }

    @Test
    void rejectsBadInputWithTheDiagnosticAnd65() throws IOException {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,\"retry_reson\":\"x\"}\n");
        Run run = run("audit", "--input", bad.toString(), "--input-format", "spans", "--output", dir.resolve("o").toString());
        assertThat(run.exit()).isEqualTo(65);
        assertThat(run.err().strip()).isEqualTo(Parity.cli(List.of(), List.of(bad)).error());
        assertThat(dir.resolve("o/findings")).doesNotExist();
    }

    @Test
    void missingInputIs66() {
        Run run = run("audit", "--input", dir.resolve("nope.jsonl").toString(), "--input-format", "spans",
                "--output", dir.resolve("o").toString());
        assertThat(run.exit()).isEqualTo(66);
        assertThat(run.err()).isEqualTo(dir.resolve("nope.jsonl") + ": error: no such file\n");
    }

    @Test
    void usageErrorsAre64() throws IOException {
        assertThat(run("audit", "--input", EXAMPLE, "--output", "x").exit()).isEqualTo(64);
        Run format = run("audit", "--input", EXAMPLE, "--input-format", "har", "--output", dir.toString());
        assertThat(format.exit()).isEqualTo(64);
        assertThat(format.err()).startsWith("--input-format: expected spans, otlp or parquet, got har")
                .contains("Try 'retry-audit-spark audit --help'");
        assertThat(run("audit", "--input", EXAMPLE, "--input-format", "spans", "--output", dir.toString(),
                "--enable", "no/such-rule").exit()).isEqualTo(64);
        Run failOn = run("audit", "--input", EXAMPLE, "--input-format", "spans", "--output", dir.toString(),
                "--fail-on", "sometimes");
        assertThat(failOn.exit()).isEqualTo(64);
        assertThat(failOn.err()).startsWith("invalid value for option '--fail-on': expected one of error, warning, note, "
                + "never\n");
        Run depth = run("audit", "--input", EXAMPLE, "--input-format", "spans", "--output", dir.toString(),
                "--limit-depth", "1001");
        assertThat(depth.exit()).isEqualTo(64);
        assertThat(depth.err()).startsWith("invalid value for option '--limit-depth': must be at most 1000");
        Files.createDirectories(dir.resolve("findings"));
        Run exists = run("audit", "--input", EXAMPLE, "--input-format", "spans", "--output", dir.toString());
        assertThat(exists.exit()).isEqualTo(64);
        assertThat(exists.err()).contains("already holds findings");
        assertThat(run("frobnicate").exit()).isEqualTo(64);
        SharedSpark.get().conf().set(SparkAudit.FINDINGS_PER_PART, "0");
        try {
            Run perPart = run("audit", "--input", EXAMPLE, "--input-format", "spans", "--output",
                    dir.resolve("per-part").toString());
            assertThat(perPart.exit()).isEqualTo(64);
            assertThat(perPart.err()).startsWith(SparkAudit.FINDINGS_PER_PART + " must be a whole number of at least 1: 0\n");
            assertThat(dir.resolve("per-part/findings")).doesNotExist();
        } finally {
            SharedSpark.get().conf().unset(SparkAudit.FINDINGS_PER_PART);
        }
    }

    @Test
    void helpListsTheOptionsAndExitCodes() {
        Run help = run("audit", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--input=PATH", "--input-format=FORMAT", "--output=DIR", "--policy=FILE",
                "--fail-on=SEVERITY", "--enable=RULE", "--disable=RULE", "--output-format=FORMAT");
        // The settings rows the job offers, from the library's table; its --input-format is its own (spans, otlp, parquet).
        for (Setting s : Setting.values()) {
            boolean offered = s != Setting.INPUT_FORMAT && s != Setting.FORMAT && s != Setting.TOOLS;
            if (s != Setting.INPUT_FORMAT) {
                assertThat(help.out().contains(" " + s.option() + "=" + s.label())).as(s.option()).isEqualTo(offered);
            }
        }
        assertThat(run("--help").out()).contains("Exit codes:", " 65", " 66", "audit");
    }
}
