package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** An input over a limit: the reader states the fact, the command line names the option that raises it, in every format. */
class LimitErrorsTest {
    private static final String LINE = "{\"operation_id\":\"op-%d\",\"tool\":\"t\",\"attempt_id\":1}\n";

    @TempDir
    Path dir;

    static Stream<Arguments> limits() {
        String three = String.format(LINE, 1) + String.format(LINE, 2) + String.format(LINE, 3);
        String attempts = "{\"version\":1,\"operations\":[{\"id\":\"a\",\"tool\":\"t\",\"attempts\":"
                + "[{\"attempt_id\":1},{\"attempt_id\":2},{\"attempt_id\":3}]}]}";
        String longTool = "{\"operation_id\":\"a\",\"tool\":\"" + "x".repeat(200) + "\",\"attempt_id\":1}\n";
        String deep = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,"
                + "\"attributes\":{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":1}}}}}}\n";
        return Stream.of(
                Arguments.of("spans.jsonl", three, "--limit-bytes", "60", Limit.BYTES,
                        "spans.jsonl:2:11: error: $: input exceeds the byte limit: more than 60 bytes read; "
                                + "raise it with --limit-bytes"),
                Arguments.of("spans.jsonl", three, "--limit-operations", "2", Limit.OPERATIONS,
                        "spans.jsonl:3:1: error: $: more than 2 operations, the operations limit; "
                                + "raise it with --limit-operations"),
                Arguments.of("ops.json", attempts, "--limit-attempts", "2", Limit.ATTEMPTS,
                        "ops.json:1:95: error: $.operations[0].attempts[2]: operation has more than 2 attempts, "
                                + "the attempts-per-operation limit; raise it with --limit-attempts"),
                Arguments.of("spans.jsonl", longTool, "--limit-string", "100", Limit.STRING,
                        "spans.jsonl:1:28: error: $.tool: a string of 200 characters exceeds the string limit of 100; "
                                + "raise it with --limit-string"),
                Arguments.of("spans.jsonl", deep, "--limit-depth", "5", Limit.DEPTH,
                        "spans.jsonl:1:81: error: $.attributes.a.b.c.d: input nests deeper than the depth limit of 5 "
                                + "(depth 6 reached); raise it with --limit-depth, at most 1000"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("limits")
    void theDiagnosticNamesTheOptionThatRaisesTheLimit(String name, String content, String option, String value,
            Limit limit, String diagnostic) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        String expected = f.getParent() + "/" + diagnostic;
        CliRunner.Result r = CliRunner.run("audit", "--format", "json", option, value, f.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(expected + "\n");
        JsonNode error = new ObjectMapper().readTree(r.out()).get("error");
        assertThat(error.get("limit").asText()).isEqualTo(limit.id());
        assertThat(diagnostic).endsWith(": " + error.get("message").asText());
        assertThat(error.get("message").asText()).doesNotStartWith("$").endsWith("raise it with " + option + (limit == Limit.DEPTH ? ", at most 1000" : ""));

        CliRunner.Result sarif = CliRunner.run("audit", "--format", "sarif", option, value, f.toString());
        assertThat(sarif.out()).contains("raise it with " + option);
        CliRunner.Result github = CliRunner.run("audit", "--format", "github", option, value, f.toString());
        assertThat(github.out()).contains("raise it with " + option);
        CliRunner.Result html = CliRunner.run("audit", "--format", "html", option, value, f.toString());
        assertThat(html.out()).contains("raise it with " + option);
    }

    @Test
    void anInputRejectedForAnythingElseHasNoLimitAndNoHint() throws IOException {
        Path f = dir.resolve("bad.jsonl");
        Files.writeString(f, "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":\"one\"}\n");
        CliRunner.Result r = CliRunner.run("audit", "--format", "json", f.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).doesNotContain("raise it");
        assertThat(new ObjectMapper().readTree(r.out()).get("error").get("limit").isNull()).isTrue();
    }

    @Test
    void everyLimitHasAHint() {
        for (Limit limit : Limit.values()) {
            assertThat(RetryAuditException.commandLineHint(limit)).isNotBlank();
        }
        assertThat(RetryAuditException.commandLineHint(Limit.MEMORY)).startsWith("give Java more heap").contains("-Xmx", "--limit-bytes");
    }
}
