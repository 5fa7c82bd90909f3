package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An input set that holds no attempt is refused with exit 65 and one line saying what it held instead,
 * in every format, whatever --fail-on and a baseline say; --allow-empty passes it with its note. And two
 * inputs that detection misread: spans after much white space, and a file of NUL bytes.
 */
class NothingAuditedTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5e";
    /** One OTLP server span of an HTTP request: what a service exports when only its server side is traced. */
    private static final String SERVER_SPAN = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"" + TRACE
            + "\",\"spanId\":\"1111111111111111\",\"name\":\"POST /charges\",\"kind\":2,\"startTimeUnixNano\":\"1\","
            + "\"endTimeUnixNano\":\"2\",\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"POST\"}}]}]}]}]}";

    @TempDir
    Path dir;

    private String write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p.toString();
    }

    private String copy(String resource, String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            Files.copy(in, p);
        }
        return p.toString();
    }

    @Test
    void serverSpansAloneAreRefusedWithWhatWasFoundAndWhatToChange() throws IOException {
        String server = write("server.json", SERVER_SPAN);
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", server);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(server + ": error: nothing was audited: the input holds 1 span, none an attempt: "
                + "1 server span (the receiving side of a request); export the client spans (SpanKind CLIENT) of HTTP "
                + "requests, gRPC calls or GenAI tool calls, check the exporter's destination and the sampler, or pass "
                + "--allow-empty to pass on an input set of no attempt\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void severalInputsOfNoAttemptAreNamedAndCounted() throws IOException {
        String a = write("a.json", "{\"resourceSpans\":[]}");
        String b = write("b.json", SERVER_SPAN);
        String c = write("c.json", SERVER_SPAN);
        String d = write("d.json", SERVER_SPAN);
        CliRunner.Result all = CliRunner.run("audit", a, b, c, d);
        assertThat(all.exit()).as(all.err()).isEqualTo(65);
        assertThat(all.err()).startsWith(a + ": error: nothing was audited: none of the 4 inputs holds an attempt; " + a
                + " holds no attempt (no span, request or operation the audit reads); " + b + " holds 1 span")
                .contains("; 1 more inputs hold no attempt either; export").hasLineCount(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "text", "sarif", "github", "html"})
    void everyFormatRefusesNothingAndAllowEmptyPassesIt(String format) throws IOException {
        String server = write("server.json", SERVER_SPAN);
        CliRunner.Result r = CliRunner.run("audit", "--format", format, server);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).contains("nothing was audited").hasLineCount(1);
        if (format.equals("json")) {
            assertThat(JSON.readTree(r.out()).get("error").get("code").asInt()).isEqualTo(65);
        } else if (format.equals("sarif")) {
            JsonNode invocation = JSON.readTree(r.out()).get("runs").get(0).get("invocations").get(0);
            assertThat(invocation.get("executionSuccessful").asBoolean()).isFalse();
        } else if (!format.equals("text")) {
            assertThat(r.out()).contains("nothing was audited");
        }
        CliRunner.Result allowed = CliRunner.run("audit", "--allow-empty", "--format", format, server);
        assertThat(allowed.exit()).as(allowed.err()).isZero();
        assertThat(allowed.err()).isEmpty();
        assertThat(allowed.out()).contains("nothing in this input was audited");
    }

    @Test
    void neitherFailOnNeverNorABaselineLetsNothingPass() throws IOException {
        String server = write("server.json", SERVER_SPAN);
        String baseline = write("baseline.json", CliRunner.run("audit", "--allow-empty", server).out());
        assertThat(CliRunner.run("audit", "--fail-on", "never", server).exit()).isEqualTo(65);
        assertThat(CliRunner.run("audit", "--baseline", baseline, server).exit()).isEqualTo(65);
        assertThat(CliRunner.run("audit", "--baseline", baseline, "--allow-empty", server).exit()).isZero();
    }

    @Test
    void oneInputWithAnAttemptIsAnAudit() throws IOException {
        String server = write("server.json", SERVER_SPAN);
        String spans = copy("/input/otlp/agent-checkout.json", "agent.json");
        CliRunner.Result r = CliRunner.run("audit", "--fail-on", "never", server, spans);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(JSON.readTree(r.out()).get("inputs").get(0).get("notes").get(0).get("message").asText())
                .isEqualTo("nothing in this input was audited: it holds 1 span, none an attempt: 1 server span "
                        + "(the receiving side of a request)");
    }

    @Test
    void spansAfterMoreWhiteSpaceThanDetectionLooksAtAreRead() throws IOException {
        String spans = new String(getClass().getResourceAsStream("/input/otlp/agent-checkout.json").readAllBytes(),
                StandardCharsets.UTF_8);
        String padded = write("padded.json", " ".repeat(150 * 1024) + "\n".repeat(150 * 1024) + spans);
        String plain = write("plain.json", spans);
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", "--fail-on", "never", padded);
        assertThat(r.exit()).as(r.err()).isZero();
        String lastLine = r.out().substring(r.out().lastIndexOf("retry-audit:"));
        CliRunner.Result expected = CliRunner.run("audit", "--format", "text", "--fail-on", "never", plain);
        assertThat(lastLine).isEqualTo(expected.out().substring(expected.out().lastIndexOf("retry-audit:")))
                .doesNotContain(" 0 attempts");
        // Five blank lines begin as a protobuf frame's header would; the JSON after them decides.
        String blankLines = write("blank-lines.json", "\n".repeat(5) + spans);
        assertThat(CliRunner.run("audit", "--fail-on", "never", blankLines).exit()).isZero();
        // White space alone, past what detection looks at, is still an empty input.
        String blank = write("blank.json", " ".repeat(600 * 1024));
        CliRunner.Result empty = CliRunner.run("audit", blank);
        assertThat(empty.exit()).isEqualTo(65);
        assertThat(empty.err()).isEqualTo(blank + ":1:1: error: empty input: expected a JSON document or JSON Lines\n");
    }

    @Test
    void aFileOfNulBytesIsNoTraceExport() throws IOException {
        Path zeros = dir.resolve("zeros.bin");
        Files.write(zeros, new byte[4 << 20]);
        CliRunner.Result r = CliRunner.run("audit", zeros.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(zeros + ":1:1: error: the input holds only NUL bytes (262144 or more), as a file "
                + "that was allocated but never written does: it is no trace export\n");
    }
}
