package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped JSON Schemas agree with the strict readers and the JSON report: every example and test
 * fixture a reader accepts is valid, every input in the rejected corpus is refused by the reader and
 * invalid against the schema, and real reports written by the CLI are valid.
 */
class SchemaAgreementTest {
    private static final Path RESOURCES = Path.of("src/test/resources");
    private static final Path REJECTED = RESOURCES.resolve("schema/rejected");
    private static final Path ACCEPTED = RESOURCES.resolve("schema/accepted");
    private static final Map<String, Schema> SCHEMAS = new HashMap<>();

    @TempDir
    Path tmp;

    @Test
    void everyInputAReaderAcceptsIsValidAgainstItsSchema() throws IOException {
        List<Path> candidates = new ArrayList<>();
        for (Path root : List.of(RESOURCES, Path.of("examples"))) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".jsonl")).sorted()
                        .forEach(candidates::add);
            }
        }
        Map<String, Integer> validated = new HashMap<>();
        for (Path p : candidates) {
            String format = acceptedAs(p);
            if (format == null) {
                continue;
            }
            switch (format) {
                case "operations" -> assertValid("operations", p, Files.readString(p));
                case "spans" -> {
                    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                        if (!line.isBlank()) {
                            assertValid("spans", p, line);
                        }
                    }
                }
                default -> {
                    continue;
                }
            }
            validated.merge(format, 1, Integer::sum);
        }
        assertThat(validated.getOrDefault("operations", 0)).as("operations documents checked").isGreaterThanOrEqualTo(4);
        assertThat(validated.getOrDefault("spans", 0)).as("spans files checked").isGreaterThanOrEqualTo(4);
    }

    @Test
    void everyRejectedOperationsDocumentIsInvalid() throws IOException {
        assertRejectedCorpus("operations", InputFormat.OPERATIONS);
    }

    @Test
    void everyRejectedSpansFileHasAnInvalidLine() throws IOException {
        assertRejectedCorpus("spans", InputFormat.SPANS);
    }

    @Test
    void thePolicyOfSpecSixIsValidAndTheRejectedPoliciesAreNot() throws IOException {
        for (Path p : list(ACCEPTED.resolve("policy"))) {
            assertValid("policy", p, Files.readString(p));
        }
        List<Path> rejected = list(REJECTED.resolve("policy"));
        assertThat(rejected).hasSizeGreaterThanOrEqualTo(8);
        for (Path p : rejected) {
            assertThat(errors("policy", Files.readString(p))).as(p.toString()).isNotEmpty();
        }
    }

    @Test
    void reportsWrittenByTheCliAreValid() throws IOException {
        String dir = ReportFormatsCliTest.DIR;
        Path baseline = tmp.resolve("baseline.json");
        List<CliRunner.Result> runs = List.of(
                CliRunner.run("audit", "--output", baseline.toString(), ReportFormatsCliTest.GAPS),
                CliRunner.run("audit", ReportFormatsCliTest.CLEAN),
                CliRunner.run("audit", ReportFormatsCliTest.GAPS, ReportFormatsCliTest.REASONS),
                CliRunner.run("audit", "--baseline", baseline.toString(), "--fail-on", "note",
                        ReportFormatsCliTest.GAPS, ReportFormatsCliTest.REASONS),
                CliRunner.run("audit", "--disable", "trace", dir + "seed-retry-wrote-twice.jsonl"),
                CliRunner.run("audit", ReportFormatsCliTest.BAD),
                CliRunner.run("audit", tmp.resolve("missing.json").toString()));
        List<String> reports = new ArrayList<>();
        reports.add(Files.readString(baseline));
        runs.stream().map(CliRunner.Result::out).filter(s -> !s.isEmpty()).forEach(reports::add);
        assertThat(reports).hasSize(7);
        for (String report : reports) {
            assertThat(errors("report", report)).as(report).isEmpty();
        }
        try (Stream<Path> goldens = Files.list(RESOURCES.resolve("report/golden"))) {
            for (Path g : goldens.filter(p -> p.toString().endsWith(".json")).toList()) {
                assertValid("report", g, Files.readString(g));
            }
        }
    }

    @Test
    @Tag("timing")
    void probeReportsAreValid() throws IOException {
        List<CliRunner.Result> runs = List.of(
                CliRunner.run("probe", "--timeout", "10", "--", "true"),
                CliRunner.run("probe", "--failures", "1", "--delay", "1", "--timeout", "10", "--", "sh", "-c",
                        "curl -s \"$RETRY_AUDIT_PROBE_URL\"; curl -s -X POST \"$RETRY_AUDIT_PROBE_URL\";"
                                + " curl -s \"$RETRY_AUDIT_PROBE_URL\""),
                CliRunner.run("probe", "--method", "POST", "--stall", "1", "--failures", "1", "--timeout", "10",
                        "--", "curl", "-s", "-m", "0.5", "--retry", "1", "-H", "Idempotency-Key: k", "-d", "x", "{url}"));
        assertThat(runs).extracting(CliRunner.Result::exit).containsExactly(2, 2, 0);
        for (CliRunner.Result r : runs) {
            assertThat(errors("report", r.out())).as(r.out()).isEmpty();
        }
    }

    @Test
    void theRejectedReportsAreInvalid() throws IOException {
        List<Path> rejected = list(REJECTED.resolve("report"));
        assertThat(rejected).hasSizeGreaterThanOrEqualTo(6);
        for (Path p : rejected) {
            assertThat(errors("report", Files.readString(p))).as(p.toString()).isNotEmpty();
        }
    }

    @Test
    void everySchemaIsValidDraft202012() {
        Schema meta = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(com.networknt.schema.SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        for (String name : SchemaCommand.NAMES) {
            assertThat(meta.validate(SchemaCommand.text(name), com.networknt.schema.InputFormat.JSON)).as(name).isEmpty();
            assertThat(SchemaCommand.text(name)).contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"");
        }
    }

    private void assertRejectedCorpus(String name, InputFormat format) throws IOException {
        List<Path> rejected = list(REJECTED.resolve(name));
        List<String> cases = rejected.stream().map(p -> p.getFileName().toString().replaceAll("\\..*", "")).toList();
        assertThat(cases).contains("unknown-field", "wrong-type", "bad-enum", "missing-required", "out-of-range",
                "timestamp-without-offset");
        for (Path p : rejected) {
            InputException e = catchThrowableOfType(InputException.class, () -> read(p, format));
            assertThat(e).as(p + " must be rejected by the reader").isNotNull();
            assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
            List<String> texts = format == InputFormat.SPANS
                    ? Files.readAllLines(p).stream().filter(l -> !l.isBlank()).toList()
                    : List.of(Files.readString(p));
            assertThat(texts.stream().anyMatch(t -> !errors(name, t).isEmpty())).as(p + " must be invalid").isTrue();
        }
    }

    /** The format the reader read {@code p} as, or null when it refused it. */
    private static String acceptedAs(Path p) {
        try {
            return read(p, InputFormat.AUTO).format();
        } catch (InputException e) {
            return null;
        }
    }

    private static InputSummary read(Path p, InputFormat format) throws InputException {
        return new InputSet(format, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of(p.toString())),
                InputStream.nullInputStream(), op -> { }).get(0);
    }

    private static void assertValid(String name, Path p, String json) {
        assertThat(errors(name, json)).as(p + " is valid against the " + name + " schema").isEmpty();
    }

    private static List<Error> errors(String name, String json) {
        Schema s = SCHEMAS.computeIfAbsent(name, n -> SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaCommand.text(n)));
        return s.validate(json, com.networknt.schema.InputFormat.JSON);
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
