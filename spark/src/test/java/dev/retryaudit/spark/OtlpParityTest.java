package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OTLP inputs: every OTLP example and fixture of the root project (the real exports included), a
 * generated input over several files whose operations are linked across lines, and malformed inputs;
 * the Spark job answers as the command line does. The job reads JSON Lines: a file of one export
 * written over several lines, which the command line reads as one document, is audited here as the
 * same export on one line, and the job's rejection of the original is asserted.
 */
class OtlpParityTest {
    @TempDir
    Path dir;

    /** The OTLP exports (JSON with resourceSpans) and span exporters' logs among the root project's inputs. */
    static Stream<Path> fixtures() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String root : List.of("../examples", "../src/test/resources/input/otlp", "../src/test/resources/real")) {
            try (var files = Files.walk(Path.of(root))) {
                files.filter(Files::isRegularFile).sorted().forEach(f -> {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".log") && (f.toString().contains("otlp") || f.toString().contains("otel"))
                            || name.endsWith(".json") && contains(f, "\"resourceSpans\"")) {
                        out.add(f);
                    }
                });
            }
        }
        return out.stream();
    }

    private static boolean contains(Path f, String text) {
        try {
            return Files.readString(f).contains(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void sameAnswerAsTheCommandLine(Path input) throws IOException {
        Path policy = input.resolveSibling("policy.json");
        Path lines = input;
        if (!input.toString().endsWith(".log") && !jsonLines(input)) {
            lines = dir.resolve(input.getFileName());
            Files.writeString(lines, oneLine(input));
            Parity.CliAnswer original = Parity.cli(SparkAudit.OTLP, List.of(), List.of(input));
            assertThat(original.exit()).isIn(0, 2);
            String path = input.toString();
            assertThatThrownBy(() -> SparkAudit.of(SharedSpark.get(), AuditSettings.defaults()).otlp(List.of(path)).close())
                    .isInstanceOf(RetryAuditException.class)
                    .hasMessageContaining(path + ":1:")
                    .hasMessageContaining("an export in JSON Lines must fit on one line; this one spans several");
        }
        Parity.CliAnswer cli = Parity.assertSame(SparkAudit.OTLP, Files.exists(policy) ? policy : null,
                Limits.DEFAULTS, List.of(lines));
        assertThat(cli.exit()).isIn(0, 2);
    }

    @Test
    void generatedInputOverSeveralFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        List<String> contents = OtlpCorpus.files(4, 40);
        for (int i = 0; i < contents.size(); i++) {
            // the last file as a span exporter's log: each export after a log prefix, among other log lines
            boolean log = i == contents.size() - 1;
            Path f = dir.resolve("part-" + i + (log ? ".log" : ".jsonl"));
            Files.writeString(f, log ? "[main] INFO starting\n" + contents.get(i).replaceAll("(?m)^\\{",
                    "[otel.javaagent] [BatchSpanProcessor_WorkerThread-1] INFO "
                            + "io.opentelemetry.exporter.logging.otlp.OtlpJsonLoggingSpanExporter - {") : contents.get(i));
            files.add(f);
        }
        Parity.CliAnswer cli = Parity.assertSame(SparkAudit.OTLP, null, Limits.DEFAULTS, files);
        assertThat(cli.exit()).isEqualTo(2);
        List<String> rules = new ArrayList<>();
        cli.report().get("findings").forEach(f -> rules.add(f.get("rule").asText()));
        assertThat(rules).contains("retry-after/early", "timeout-replay/unreconciled", "budget/amplification",
                "budget/retry-ratio");
        cli.report().get("inputs").forEach(in -> assertThat(in.get("operations").asLong()).isGreaterThanOrEqualTo(200));
    }

    static Stream<Arguments> malformed() {
        // a tool call's first attempt and an explicit operation's first attempt, on one line
        String ok = OtlpCorpus.files(1, 1).get(0).lines().filter(l -> l.contains("retry_audit.operation_id"))
                .findFirst().orElseThrow();
        Limits d = Limits.DEFAULTS;
        return Stream.of(
                Arguments.of("a trace id that is a number", d, List.of(ok + "\n\n" + ok.replaceFirst(
                        "\"traceId\":\"[0-9a-f]+\"", "\"traceId\":5") + "\n")),
                Arguments.of("a line that is not an object", d, List.of(ok + "\n[1]\n")),
                Arguments.of("two exports on one line", d, List.of(ok + " " + ok + "\n")),
                Arguments.of("a time that is not a number", d, List.of(ok.replaceFirst(
                        "\"startTimeUnixNano\":\"[0-9]+\"", "\"startTimeUnixNano\":\"soon\"") + "\n")),
                Arguments.of("an export over two lines after one", d, List.of(ok + "\n" + ok.replace("\"scopeSpans\"",
                        "\n\"scopeSpans\"") + "\n")),
                Arguments.of("malformed JSON in the second file", d, List.of(ok + "\n", "\n" + ok + "\n{\"resourceSpans\":[}\n")),
                Arguments.of("a source of blank lines only", d, List.of(ok + "\n", "\n \n")),
                Arguments.of("a log with no export", d, List.of(ok + "\n",
                        "main INFO starting\nmain INFO stopping\n")),
                Arguments.of("an object that is not an export", d, List.of("{\"spans\":[]}\n")),
                Arguments.of("run ids that disagree within an operation", d, List.of(ok + "\n"
                        + ok.replace("\"run-0\"", "\"run-9\"").replace("\"retry_audit.attempt_id\",\"value\":{\"intValue\":\"1\"",
                                "\"retry_audit.attempt_id\",\"value\":{\"intValue\":\"2\"") + "\n")),
                Arguments.of("attempts limit", new Limits(d.bytes(), d.operations(), 1, d.stringLength(), d.depth()),
                        List.of(OtlpCorpus.files(1, 2).get(0))),
                Arguments.of("operations limit in one source", new Limits(d.bytes(), 5, 10, d.stringLength(), d.depth()),
                        List.of(OtlpCorpus.files(1, 2).get(0))),
                Arguments.of("operations limit over the input set",
                        new Limits(d.bytes(), 12, 10, d.stringLength(), d.depth()), OtlpCorpus.files(2, 2)),
                Arguments.of("an operation id in two files", d, List.of(ok + "\n", ok.replaceAll("\"traceId\":\"0",
                        "\"traceId\":\"f") + "\n")),
                Arguments.of("string limit", new Limits(d.bytes(), d.operations(), 10, 8, d.depth()), List.of(ok + "\n")),
                Arguments.of("not UTF-8", d, List.of(ok.replace("execute_tool search", "execute_tool se\u00ffarch") + "\n")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void rejectedAsTheCommandLineRejects(String name, Limits limits, List<String> contents) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < contents.size(); i++) {
            Path f = dir.resolve("in-" + i + (contents.get(i).startsWith("main INFO") ? ".log" : ".jsonl"));
            Files.write(f, contents.get(i).getBytes(name.equals("not UTF-8")
                    ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8));
            files.add(f);
        }
        Parity.CliAnswer cli = Parity.assertSame(SparkAudit.OTLP, null, limits, files);
        assertThat(cli.exit()).as("the command line rejects it").isEqualTo(65);
    }

    /** Whether every non-blank line of {@code f} is a JSON value of its own. */
    private static boolean jsonLines(Path f) throws IOException {
        for (String line : Files.readAllLines(f)) {
            if (!line.isBlank() && !oneValue(line)) {
                return false;
            }
        }
        return true;
    }

    private static boolean oneValue(String line) {
        try (JsonParser p = new JsonFactory().createParser(line)) {
            p.skipChildren();
            while (p.nextToken() != null) {
                p.skipChildren();
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The document of {@code f} written on one line, token for token (duplicate keys and numbers as they are). */
    private static String oneLine(Path f) throws IOException {
        StringWriter out = new StringWriter();
        JsonFactory json = new JsonFactory();
        try (JsonParser p = json.createParser(f.toFile()); JsonGenerator g = json.createGenerator(out)) {
            p.nextToken();
            g.copyCurrentStructure(p);
        }
        return out + "\n";
    }
}
