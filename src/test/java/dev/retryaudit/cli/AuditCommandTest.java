package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit command end to end in-process: inputs, outputs and every exit code. */
class AuditCommandTest {
    private static final String CLEAN = """
            {"operation_id":"get-1","tool":"lookup","method":"GET","attempt_id":1,"retry_reason":""}
            {"operation_id":"get-1","tool":"lookup","method":"GET","attempt_id":2,"retry_reason":"503"}
            """;
    /** Attempt 2 has no retry_reason: one error of trace/retry-reason, and a note of trace/clock-order. */
    private static final String FAILING = """
            {"operation_id":"get-2","tool":"lookup","method":"GET","attempt_id":1,"started_at":"2026-09-07T14:00:01Z"}
            {"operation_id":"get-2","tool":"lookup","method":"GET","attempt_id":2,"started_at":"2026-09-07T14:00:00Z"}
            """;

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void cleanInputExitsZero() throws IOException {
        CliRunner.Result r = CliRunner.run("audit", file("clean.jsonl", CLEAN).toString());
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("\"passed\": true", "\"retries\": 1", "\"format\": \"spans\"", "\"findings\": []");
    }

    @Test
    void findingsExitTwo() throws IOException {
        CliRunner.Result r = CliRunner.run("audit", file("f.jsonl", FAILING).toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).contains("\"rule\": \"trace/retry-reason\"", "\"rule\": \"trace/clock-order\"", "\"passed\": false");
    }

    @Test
    void failOnDecidesWhichSeverityFails() throws IOException {
        String f = file("f.jsonl", FAILING).toString();
        assertThat(CliRunner.run("audit", "--fail-on", "never", f).exit()).isZero();
        assertThat(CliRunner.run("audit", "--disable", "trace/retry-reason", f).exit()).isZero();
        assertThat(CliRunner.run("audit", "--disable", "trace/retry-reason", "--fail-on", "note", f).exit()).isEqualTo(2);
        assertThat(CliRunner.run("audit", "--disable", "trace/retry-reason", "--fail-on", "warning", f).exit()).isZero();
    }

    @Test
    void disableAFamilyAndEnableOneOfItsRules() throws IOException {
        String f = file("f.jsonl", FAILING).toString();
        CliRunner.Result r = CliRunner.run("audit", "--disable", "trace", "--enable", "trace/clock-order", f);
        assertThat(r.out()).contains("trace/clock-order").doesNotContain("trace/retry-reason");
    }

    @Test
    void readsStdinWithDashOrNoFile() {
        CliRunner.Result dash = CliRunner.runWithStdin(FAILING, "audit", "-");
        CliRunner.Result none = CliRunner.runWithStdin(FAILING, "audit", "--input-format", "spans");
        assertThat(dash.exit()).isEqualTo(2);
        assertThat(dash.out()).contains("\"source\": \"<stdin>\"");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.out()).isEqualTo(dash.out());
    }

    @Test
    void theInputFormatIsOneOfTheFormatsThisBuildReads() {
        String expected = "retry-audit: error: invalid value for option '--input-format': expected one of "
                + String.join(", ", dev.retryaudit.input.Readers.supportedIds())
                + "\nTry 'retry-audit audit --help'\n";
        for (String bad : new String[] {"xml", "AUTO", "retry_trace", ""}) {
            CliRunner.Result r = CliRunner.runWithStdin(FAILING, "audit", "--input-format", bad);
            assertThat(r.exit()).as(bad).isEqualTo(64);
            assertThat(r.err()).as(bad).isEqualTo(expected);
            assertThat(r.out()).as(bad).isEmpty();
        }
        CliRunner.Result named = CliRunner.runWithStdin(FAILING, "audit", "--input-format", "retry-trace");
        assertThat(named.exit()).isEqualTo(65);
        assertThat(named.err()).startsWith("<stdin>:");
    }

    @Test
    void severalFilesAreOneInputSetInTheGivenOrder() throws IOException {
        String b = file("b.jsonl", FAILING).toString();
        String a = file("a.jsonl", CLEAN).toString();
        CliRunner.Result r = CliRunner.run("audit", b, a);
        assertThat(r.out()).contains("\"operations\": 2").containsSubsequence(b, a);
        assertThat(r.out().indexOf("\"source\": \"" + a)).isGreaterThan(r.out().indexOf("\"source\": \"" + b));
    }

    @Test
    void sameInputGivesIdenticalBytes() throws IOException {
        String f = file("f.jsonl", FAILING + CLEAN).toString();
        assertThat(CliRunner.run("audit", f).out()).isEqualTo(CliRunner.run("audit", f).out());
    }

    @Test
    void outputFileGetsTheReport() throws IOException {
        Path out = dir.resolve("report.json");
        CliRunner.Result r = CliRunner.run("audit", "--output", out.toString(), file("f.jsonl", FAILING).toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(Files.readString(out)).contains("trace/retry-reason");
        assertThat(Files.list(dir)).noneMatch(p -> p.getFileName().toString().endsWith(".tmp"));
    }

    @Test
    void unwritableOutputExits74() throws IOException {
        Path out = dir.resolve("missing-dir/report.json");
        CliRunner.Result r = CliRunner.run("audit", "--output", out.toString(), file("f.jsonl", CLEAN).toString());
        assertThat(r.exit()).isEqualTo(74);
        assertThat(r.err()).isEqualTo("retry-audit: error: cannot write the report to " + out + ": no such directory\n");
    }

    @Test
    void closedStdoutIsNotAnError() throws IOException {
        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int exit = Main.run(new String[] {"audit", file("f.jsonl", FAILING).toString()},
                new ByteArrayInputStream(new byte[0]), closed, err);
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void missingFileExits66WithJsonErrorOnStdout() {
        CliRunner.Result r = CliRunner.run("audit", dir.resolve("nope.json").toString());
        assertThat(r.exit()).isEqualTo(66);
        assertThat(r.err()).isEqualTo(dir.resolve("nope.json") + ": error: no such file\n");
        assertThat(r.out()).contains("\"code\": 66", "\"message\": \"no such file\"", "\"line\": null");
    }

    @Test
    void directoryExits66() {
        CliRunner.Result r = CliRunner.run("audit", dir.toString());
        assertThat(r.exit()).isEqualTo(66);
        assertThat(r.err()).contains("is a directory");
    }

    @Test
    void rejectedInputExits65WithOneLineAndJsonError() throws IOException {
        Path f = file("bad.jsonl", "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":\"one\"}\n");
        CliRunner.Result r = CliRunner.run("audit", f.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(f + ":1:45: error: $.attempt_id: expected an integer, found a string\n");
        assertThat(r.out()).isEqualTo("""
                {
                  "version": 1,
                  "error": {
                    "code": 65,
                    "message": "expected an integer, found a string",
                    "source": "%s",
                    "line": 1,
                    "column": 45,
                    "path": "$.attempt_id",
                    "limit": null
                  }
                }
                """.formatted(f));
    }

    @Test
    void ambiguousInputNamesInputFormat() {
        CliRunner.Result r = CliRunner.runWithStdin("{\"hello\": 1}", "audit");
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).contains("--input-format");
    }

    @Test
    void limitFlagsReachTheReader() {
        CliRunner.Result r = CliRunner.runWithStdin(CLEAN, "audit", "--limit-bytes", "10");
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).contains("more than 10 bytes read; raise it with --limit-bytes");
    }

    @Test
    void usageErrorsExit64WithOneLineAndAHint() {
        for (String[] args : new String[][] {
            {"audit", "--no-such-option"}, {"audit", "--format", "xml"}, {"audit", "--fail-on", "fatal"},
            {"audit", "--limit-bytes", "0"}, {"audit", "--limit-depth", "deep"}, {"audit", "--input-format", "csv"},
            {"audit", "--enable", "trace/retry-reasons"}, {"audit", "-", "-"}, {"audit", "--output"},
            {"frobnicate"}, {}}) {
            CliRunner.Result r = CliRunner.run(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(64);
            assertThat(r.err().lines()).as(String.join(" ", args)).hasSize(2)
                    .last().isEqualTo(args.length > 0 && args[0].equals("audit") ? "Try 'retry-audit audit --help'"
                            : "Try 'retry-audit --help'");
            assertThat(r.err()).startsWith("retry-audit: error: ");
        }
    }

    @Test
    void unknownRuleGetsSuggestions() {
        CliRunner.Result r = CliRunner.run("audit", "--enable", "trace/retry-reasons");
        assertThat(r.err()).contains("did you mean trace/retry-reason");
    }
}
