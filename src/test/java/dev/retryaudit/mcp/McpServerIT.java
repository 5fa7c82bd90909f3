package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.cli.CliRunner;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Drives {@code java -jar target/retry-audit.jar mcp} with the MCP SDK's own client over stdio, as an MCP client
 * application would: the tools it lists, audits of the canonical fixtures that agree with {@code audit}, tool
 * errors that leave the server answering, a path outside {@code --allow-dir}, and probe runs driven by curl.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpServerIT {
    static final Path JAR = Path.of("target/retry-audit.jar");
    static final Path ALLOWED = Path.of("src/test/resources");
    static final ObjectMapper JSON = new ObjectMapper();

    McpSyncClient client;

    @BeforeAll
    void start() {
        ServerParameters server = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args("-jar", JAR.toString(), "mcp", "--allow-dir", ALLOWED.toString(), "--max-runs", "2").build();
        client = McpClient.sync(new StdioClientTransport(server, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build();
        McpSchema.InitializeResult init = client.initialize();
        assertThat(init.serverInfo().name()).isEqualTo("retry-audit");
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    @Test
    void listsTheTools() {
        assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly("audit_trace",
                "list_rules", "explain_rule", "create_probe_run", "read_probe_trace", "finish_probe_run");
    }

    @ParameterizedTest
    @ValueSource(strings = {"scenarios/operations-checkout.json", "report/inputs/seed-retry-wrote-twice.jsonl",
            "report/inputs/seed-retry-wrote-twice-pass.jsonl", "retry-trace/retry-trace-http-date-early.json",
            "retry-trace/retry-trace-seconds-early.json", "retry-trace/retry-trace-seconds-honoured.json"})
    void auditsTheCanonicalFixturesAsAuditDoes(String fixture) throws IOException {
        Path file = ALLOWED.resolve(fixture).toRealPath();
        JsonNode expected = JSON.readTree(CliRunner.run("audit", file.toString()).out());
        CallToolResult byPath = call("audit_trace", Map.of("path", fixture));
        assertThat(byPath.isError()).isFalse();
        assertThat(tree(byPath.structuredContent())).isEqualTo(expected);
        assertThat(text(byPath)).endsWith(expected.get("summary").get("passed").asBoolean()
                ? "passed (--fail-on error)" : "failed (--fail-on error)");

        CallToolResult inline = call("audit_trace", Map.of("trace", Files.readString(file), "name", file.toString()));
        assertThat(tree(inline.structuredContent())).isEqualTo(expected);
    }

    @Test
    void selectionAndPolicyAreTheCliOptions() throws IOException {
        String fixture = "report/inputs/seed-retry-wrote-twice.jsonl";
        Path file = ALLOWED.resolve(fixture).toRealPath();
        JsonNode expected = JSON.readTree(CliRunner.run("audit", "--disable", "timeout-replay", "--fail-on", "never",
                file.toString()).out());
        CallToolResult r = call("audit_trace", Map.of("path", fixture, "disable", List.of("timeout-replay"),
                "fail_on", "never"));
        assertThat(tree(r.structuredContent())).isEqualTo(expected);
        CallToolResult off = call("audit_trace", Map.of("path", fixture,
                "policy", Map.of("version", 1, "rules", Map.of("timeout-replay/keyless", Map.of("enabled", false)))));
        assertThat(tree(off.structuredContent()).get("findings").findValuesAsText("rule"))
                .doesNotContain("timeout-replay/keyless");
    }

    @Test
    void aRejectedInputIsAToolErrorWithTheCliMessageAndTheServerGoesOn() throws IOException {
        String fixture = "report/inputs/bad-field.json";
        Path file = ALLOWED.resolve(fixture).toRealPath();
        CliRunner.Result cli = CliRunner.run("audit", "--format", "text", file.toString());
        assertThat(cli.exit()).isEqualTo(65);
        CallToolResult r = call("audit_trace", Map.of("path", fixture));
        assertThat(r.isError()).isTrue();
        assertThat(text(r)).isEqualTo(cli.err().strip());

        CallToolResult broken = call("audit_trace", Map.of("trace", "{\"version\": 1, \"operations\": [", "name", "x.json"));
        assertThat(broken.isError()).isTrue();
        assertThat(text(broken)).startsWith("x.json:1:");

        assertThat(call("audit_trace", Map.of("trace", "{}", "enable", List.of("budget/max-atempts"))).isError()).isTrue();
        assertThat(text(call("audit_trace", Map.of("trace", "{}", "enable", List.of("budget/max-atempts")))))
                .isEqualTo("unknown rule or family: budget/max-atempts (did you mean budget/max-attempts?)");
        assertThat(text(call("audit_trace", Map.of("trace", "{}", "failon", "never"))))
                .isEqualTo("unknown argument 'failon' (did you mean fail_on?)");
        assertThat(text(call("explain_rule", Map.of("rule", "budget/max-atempts"))))
                .isEqualTo("unknown rule or family: budget/max-atempts (did you mean budget/max-attempts?)");

        CallToolResult rules = call("list_rules", Map.of());
        assertThat(rules.isError()).isFalse();
        assertThat(text(rules)).startsWith("ID ").contains("retry-after/early");
        assertThat(text(call("explain_rule", Map.of("rule", "retry-after/early")))).startsWith("# retry-after/early");
        assertThat(text(rules)).contains("(probe only) the probe run tested nothing");
        assertThat(text(call("explain_rule", Map.of("rule", "probe/not-followed")))).startsWith("# probe/not-followed\n");
        assertThat(text(call("audit_trace", Map.of("trace", "{}", "disable", List.of("probe/not-tested")))))
                .isEqualTo("probe/not-tested is a verdict of 'retry-audit probe', not a rule over traces: no audit runs"
                        + " it, so 'disable' cannot name it");
    }

    @Test
    void anInputOverALimitNamesTheLimitsArgumentThatRaisesIt() throws IOException {
        String three = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1}\n"
                + "{\"operation_id\":\"b\",\"tool\":\"t\",\"attempt_id\":1}\n"
                + "{\"operation_id\":\"c\",\"tool\":\"t\",\"attempt_id\":1}\n";
        CallToolResult over = call("audit_trace", Map.of("trace", three, "name", "s.jsonl",
                "limits", Map.of("operations", 2)));
        assertThat(over.isError()).isTrue();
        assertThat(text(over)).isEqualTo("s.jsonl:3:1: error: $: more than 2 operations, the operations limit; "
                + "raise it with the argument limits.operations");
        CallToolResult raised = call("audit_trace", Map.of("trace", three, "name", "s.jsonl",
                "limits", Map.of("operations", 3, "string", 100)));
        assertThat(raised.isError()).as(text(raised)).isFalse();
        CallToolResult longString = call("audit_trace", Map.of("trace", three.replace("\"t\"", "\"tool\""),
                "name", "s.jsonl", "limits", Map.of("string", 3)));
        assertThat(text(longString)).startsWith("s.jsonl:1:")
                .endsWith("exceeds the string limit of 3; raise it with the argument limits.string");

        assertThat(text(call("audit_trace", Map.of("trace", three, "limits", Map.of("depht", 3)))))
                .isEqualTo("unknown argument 'limits.depht' (did you mean limits.depth?)");
        assertThat(text(call("audit_trace", Map.of("trace", three, "limits", Map.of("depth", 1001)))))
                .isEqualTo("invalid value for 'limits.depth': must be at most 1000, the deepest nesting this build can read");
        assertThat(text(call("audit_trace", Map.of("trace", three, "limits", 5))))
                .isEqualTo("invalid value for 'limits': expected an object");
    }

    @Test
    void nothingOutsideTheAllowedDirectoriesIsRead() {
        for (String path : List.of("/etc/passwd", "../pom.xml", "../../pom.xml", "scenarios/../../../pom.xml")) {
            CallToolResult r = call("audit_trace", Map.of("path", path));
            assertThat(r.isError()).as(path).isTrue();
            assertThat(text(r)).as(path).isEqualTo(path + ": outside the directories this server may read (--allow-dir)");
        }
        assertThat(text(call("audit_trace", Map.of("path", "scenarios/none.json"))))
                .isEqualTo("scenarios/none.json: no such file");
        assertThat(text(call("audit_trace", Map.of("path", "scenarios")))).isEqualTo("scenarios: not a file");
    }

    @Test
    @Tag("timing")
    void aProbeRunDrivenByCurlHonouringRetryAfterPasses() throws Exception {
        CallToolResult created = call("create_probe_run", Map.of("status", 503, "failures", 1, "delays", List.of(1)));
        assertThat(created.isError()).as(text(created)).isFalse();
        JsonNode run = tree(created.structuredContent());
        String url = run.get("url").asText();
        assertThat(url).startsWith("http://127.0.0.1:");
        assertThat(curl("-sS", "--retry", "2", url)).isZero();

        JsonNode seen = tree(call("read_probe_trace", Map.of("run_id", run.get("run_id").asText()))
                .structuredContent());
        assertThat(seen.get("attempts").findValuesAsText("status")).containsExactly("503", "200");

        CallToolResult verdict = call("finish_probe_run", Map.of("run_id", run.get("run_id").asText()));
        assertThat(verdict.isError()).isFalse();
        JsonNode report = tree(verdict.structuredContent());
        assertThat(report.get("summary").get("passed").asBoolean()).isTrue();
        assertThat(report.get("findings")).isEmpty();
        assertThat(text(verdict)).contains("2 GET requests, 0 other requests; reached success");

        CallToolResult again = call("read_probe_trace", Map.of("run_id", run.get("run_id").asText()));
        assertThat(again.isError()).isTrue();
        assertThat(text(again)).startsWith("no open probe run " + run.get("run_id").asText() + ": it was finished");
    }

    @Test
    @Tag("timing")
    void aClientThatComesBackAtOnceFails() throws Exception {
        JsonNode run = tree(call("create_probe_run", Map.of("status", 429, "failures", 1,
                "delays", List.of(30), "header_format", "http-date")).structuredContent());
        String url = run.get("url").asText();
        curl("-s", "-o", "/dev/null", url);
        curl("-s", "-o", "/dev/null", url);
        JsonNode report = tree(call("finish_probe_run", Map.of("run_id", run.get("run_id").asText()))
                .structuredContent());
        assertThat(report.get("summary").get("passed").asBoolean()).isFalse();
        assertThat(report.get("findings").findValuesAsText("rule")).contains("retry-after/early");
    }

    @Test
    void runsAreBoundedAndScenariosChecked() {
        assertThat(text(call("create_probe_run", Map.of("failures", 11))))
                .isEqualTo("invalid value for 'failures': must be between 1 and 10");
        assertThat(text(call("create_probe_run", Map.of("status", 500))))
                .isEqualTo("invalid value for 'status': expected 429, 503 or 422");
        assertThat(text(call("create_probe_run", Map.of("delays", List.of(1, 601)))))
                .isEqualTo("invalid value for 'delays': each must be between 0 and 600");
        assertThat(text(call("create_probe_run", Map.of("method", "GE T"))))
                .isEqualTo("invalid value for 'method': expected an HTTP method such as GET or POST");
        assertThat(text(call("create_probe_run", Map.of("header_format", "weird"))))
                .startsWith("invalid value for 'header_format': expected one of ");
        String a = tree(call("create_probe_run", Map.of()).structuredContent()).get("run_id").asText();
        String b = tree(call("create_probe_run", Map.of()).structuredContent()).get("run_id").asText();
        CallToolResult third = call("create_probe_run", Map.of());
        assertThat(third.isError()).isTrue();
        assertThat(text(third)).startsWith("2 probe runs are open, the most this server keeps (--max-runs)");
        assertThat(text(call("finish_probe_run", Map.of("run_id", a, "disable", List.of("probe/not-tested")))))
                .isEqualTo("probe/not-tested cannot be disabled ('disable'): a probe run that tested nothing, or whose"
                        + " waits did not follow Retry-After, must never pass");
        JsonNode enabled = tree(call("finish_probe_run", Map.of("run_id", a, "enable", List.of("probe/not-tested")))
                .structuredContent());
        assertThat(enabled.get("findings").findValuesAsText("rule")).containsExactly("probe/not-tested");
        assertThat(call("finish_probe_run", Map.of("run_id", b)).isError()).isFalse();
    }

    @Test
    void aPathThatLeadsOutsideGetsOneMessageWhetherItExistsOrNot() {
        for (String path : List.of("../no-such-file.json", "/no/such/dir/t.json", "scenarios/../../none/../../x")) {
            assertThat(text(call("audit_trace", Map.of("path", path)))).as(path)
                    .isEqualTo(path + ": outside the directories this server may read (--allow-dir)");
        }
    }

    @Test
    @Tag("timing")
    void theEndOfStdinEndsTheServerPromptlyAlsoWhileACallReads(@TempDir Path dir) throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            big.append("{\"operation_id\":\"op-").append(i).append("\",\"tool\":\"t\",\"attempt_id\":1}\n");
        }
        Path trace = dir.resolve("big.jsonl");
        Files.writeString(trace, big);
        Files.writeString(trace, big, java.nio.file.StandardOpenOption.APPEND);
        for (boolean busy : new boolean[] {false, true}) {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                    JAR.toString(), "mcp", "--allow-dir", dir.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String session = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                    + (busy ? "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"audit_trace\",\"arguments\":{\"path\":\"big.jsonl\",\"limits\":{\"operations\":"
                            + "1000000}}}}\n"
                            : "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"list_rules\",\"arguments\":{}}}\n");
            p.getOutputStream().write(session.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            long closed = System.nanoTime();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("busy " + busy).isTrue();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - closed);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(seconds).as("seconds from the end of stdin to the exit, busy " + busy)
                    .isLessThan(busy ? RetryAuditMcp.STOP_GRACE.toSeconds() + 15 : 10);
            List<JsonNode> replies = new java.util.ArrayList<>();
            for (String line : out.lines().toList()) {
                replies.add(JSON.readTree(line));
            }
            // A call that ends within the grace is answered; one still running after it may go unanswered.
            assertThat(replies).extracting(n -> n.get("id").asInt()).as(out).startsWith(1);
            if (!busy) {
                assertThat(replies).extracting(n -> n.get("id").asInt()).as(out).containsExactly(1, 2);
            }
        }
    }

    @Test
    void auditLoadsNothingOfTheSdk() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info", "-jar", JAR.toString(), "audit", "--format", "text",
                "examples/checkout-spans.jsonl").redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(log).contains("dev.retryaudit.cli.AuditCommand").doesNotContain("io.modelcontextprotocol")
                .doesNotContain("reactor.core").doesNotContain("dev.retryaudit.mcp.");
    }

    private CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new CallToolRequest(tool, args));
    }

    private static JsonNode tree(Object structured) {
        return JSON.valueToTree(structured);
    }

    private static String text(CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    private static int curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("curl", "--max-time", "30"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(new String(out, StandardCharsets.UTF_8)).isTrue();
        return p.exitValue();
    }
}
