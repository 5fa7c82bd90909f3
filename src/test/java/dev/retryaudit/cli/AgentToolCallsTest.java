package dev.retryaudit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Agents' own retries as the agent conventions export them: a tool called again with the same arguments
 * after a failure is one operation with the sends under its calls as attempts, whatever its call ids;
 * sends under sibling wrapper spans and per-attempt SDK call spans are one operation; a send that got no
 * status and ended in an error has an outcome nobody knows.
 */
class AgentToolCallsTest {
    private static final String T = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final long BASE_MS = 1_788_789_720_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A span: id, parent ("" for a root), name, kind, start and end in ms after the base, status code, then attributes and events. */
    private static String span(String id, String parent, String name, int kind, long start, long end, int status,
            List<String> events, String... attributes) {
        return "{\"traceId\":\"" + T + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent + "\",\"name\":\""
                + name + "\",\"kind\":" + kind + ",\"startTimeUnixNano\":\"" + (BASE_MS + start) + "000000\","
                + "\"endTimeUnixNano\":\"" + (BASE_MS + end) + "000000\",\"status\":{\"code\":" + status + "},"
                + "\"attributes\":[" + String.join(",", attributes) + "],\"events\":[" + String.join(",", events) + "]}";
    }

    private static String str(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":" + quote(value) + "}}";
    }

    private static String integer(String key, long value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"intValue\":\"" + value + "\"}}";
    }

    private static String header(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":" + quote(value)
                + "}]}}}";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String exception(String type) {
        return "{\"name\":\"exception\",\"attributes\":[" + str("exception.type", type) + "]}";
    }

    private static String export(String... spans) {
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[" + str("service.name", "agent") + "]},"
                + "\"scopeSpans\":[{\"spans\":[" + String.join(",", spans) + "]}]}]}";
    }

    /** An HTTP client span under {@code parent}: POST by default; {@code status} 0 for none. */
    private static String send(String id, String parent, String method, String url, long start, long end, int status,
            String... more) {
        List<String> attributes = new ArrayList<>(List.of(str("http.request.method", method), str("url.full", url),
                header("http.request.header.user-agent", "node")));
        if (status != 0) {
            attributes.add(integer("http.response.status_code", status));
        }
        attributes.addAll(List.of(more));
        return span(id, parent, method, 3, start, end, status >= 400 || status == 0 && more.length > 0 ? 2 : 0,
                List.of(), attributes.toArray(String[]::new));
    }

    /** An AI SDK tool span with its arguments; a failed one has status ERROR and an exception event. */
    private static String aiToolCall(String id, String callId, String args, long start, long end, boolean failed) {
        return span(id, "00000000000000a1", "ai.toolCall", 1, start, end, failed ? 2 : 0,
                failed ? List.of(exception("TimeoutError")) : List.of(), str("operation.name", "ai.toolCall"),
                str("ai.operationId", "ai.toolCall"), str("ai.toolCall.name", "charge_cart"),
                str("ai.toolCall.id", callId), str("ai.toolCall.args", args));
    }

    private JsonNode audit(String export, String... options) throws Exception {
        Path file = dir.resolve("export.json");
        Files.writeString(file, export, StandardCharsets.UTF_8);
        return audit(file, options);
    }

    /** The JSON report of auditing {@code file} with {@code options}, with the exit code as {@code exit}. */
    static JsonNode audit(Path file, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("audit", "--format", "json"));
        args.addAll(List.of(options));
        args.add(file.toString());
        CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
        assertThat(r.err()).isEmpty();
        JsonNode report = JSON.readTree(r.out());
        ((com.fasterxml.jackson.databind.node.ObjectNode) report).put("exit", r.exit());
        return report;
    }

    static List<String> rules(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("findings").forEach(f -> out.add(f.get("rule").asText()));
        return out;
    }

    private static List<String> notes(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("inputs").forEach(i -> {
            if (i.has("notes")) {
                i.get("notes").forEach(n -> out.add(n.get("message").asText()));
            }
        });
        return out;
    }

    @Test
    void aToolCalledAgainWithTheSameArgumentsAfterATimeoutIsOneWriteOfTwoAttempts() throws Exception {
        String export = export(
                span("00000000000000a1", "", "ai.generateText", 1, 0, 5000, 0, List.of()),
                aiToolCall("00000000000000b1", "call_1", "{\"cart\":\"c-1\",\"amount\":1200}", 100, 1110, true),
                send("00000000000000c1", "00000000000000b1", "POST", "http://pay.example/charge", 105, 1105, 0,
                        integer("error.type", 23)),
                aiToolCall("00000000000000b2", "call_2", "{ \"amount\": 1.2e3, \"cart\": \"c-1\" }", 1400, 1500, false),
                send("00000000000000c2", "00000000000000b2", "POST", "http://pay.example/charge", 1405, 1490, 201));
        JsonNode report = audit(export);

        assertThat(report.get("exit").asInt()).isEqualTo(2);
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(rules(report)).containsExactly("timeout-replay/keyless");
        JsonNode finding = report.get("findings").get(0);
        assertThat(finding.get("tool").asText()).isEqualTo("charge_cart");
        assertThat(finding.get("operation").asText()).isEqualTo(T + "/call_1");
        assertThat(finding.at("/evidence/grouped_by").asText()).startsWith("tool_arguments");
    }

    @Test
    void aToolCalledWithOtherArgumentsOrAfterASuccessIsANewCall() throws Exception {
        String other = export(
                aiToolCall("00000000000000b1", "call_1", "{\"cart\":\"c-1\"}", 100, 1110, true),
                send("00000000000000c1", "00000000000000b1", "POST", "http://pay.example/charge", 105, 1105, 0,
                        integer("error.type", 23)),
                aiToolCall("00000000000000b2", "call_2", "{\"cart\":\"c-2\"}", 1400, 1500, false),
                send("00000000000000c2", "00000000000000b2", "POST", "http://pay.example/charge", 1405, 1490, 201));
        JsonNode report = audit(other);
        assertThat(report.get("exit").asInt()).isZero();
        assertThat(report.at("/summary/retries").asInt()).isZero();

        String afterSuccess = export(
                aiToolCall("00000000000000b1", "call_1", "{\"cart\":\"c-1\"}", 100, 200, false),
                send("00000000000000c1", "00000000000000b1", "POST", "http://pay.example/charge", 105, 195, 201),
                aiToolCall("00000000000000b2", "call_2", "{\"cart\":\"c-1\"}", 1400, 1500, false),
                send("00000000000000c2", "00000000000000b2", "POST", "http://pay.example/charge", 1405, 1490, 201));
        assertThat(audit(afterSuccess).at("/summary/retries").asInt()).isZero();
    }

    /** A LangSmith tool span of charge_cart with arguments {@code args}; a failed one keeps status OK over an exception event. */
    private static String langsmithTool(String id, String args, long start, long end, boolean failed) {
        return span(id, "00000000000000a1", "charge_cart", 1, start, end, 1,
                failed ? List.of(exception("ReadTimeout")) : List.of(), str("gen_ai.operation.name", "execute_tool"),
                str("gen_ai.tool.name", "charge_cart"), str("gen_ai.prompt", args));
    }

    /** {@code span} moved to a trace of its own whose root it is. */
    private static String ownTrace(String span, String trace) {
        return span.replace("\"traceId\":\"" + T + "\"", "\"traceId\":\"" + trace + "\"");
    }

    @Test
    void rootSendsWithinOneToolSpanOfTheirProcessAreThatToolCallsSends() throws Exception {
        String recalled = export(
                langsmithTool("00000000000000b1", "{\"cart\":\"c-1\"}", 100, 1200, true),
                ownTrace(send("00000000000000c1", "", "POST", "http://pay.example/charge", 300, 1180, 0,
                        str("error.type", "ReadTimeout")), "5bf92f3577b34da6a3ce929d0e0e4731"),
                langsmithTool("00000000000000b2", "{\"cart\":\"c-1\"}", 1400, 1600, false),
                ownTrace(send("00000000000000c2", "", "POST", "http://pay.example/charge", 1500, 1580, 201),
                        "5bf92f3577b34da6a3ce929d0e0e4732"));
        JsonNode report = audit(recalled);
        assertThat(report.at("/summary/operations").asInt()).as("one story, one operation").isEqualTo(1);
        assertThat(rules(report)).containsExactly("timeout-replay/keyless");

        // A root send within two tool spans (parallel calls) belongs to neither: it stays an operation of its own.
        String parallel = export(
                langsmithTool("00000000000000b1", "{\"cart\":\"c-1\"}", 100, 1200, false),
                langsmithTool("00000000000000b2", "{\"cart\":\"c-2\"}", 150, 1250, false),
                ownTrace(send("00000000000000c1", "", "POST", "http://pay.example/charge", 300, 380, 201),
                        "5bf92f3577b34da6a3ce929d0e0e4731"));
        assertThat(audit(parallel).at("/summary/operations").asInt()).isEqualTo(3);
    }

    @Test
    void aToolSpanOkOverAnExceptionEventFailedAndItsReCallIsItsRetry() throws Exception {
        String export = export(
                span("00000000000000b1", "00000000000000a1", "charge_cart", 1, 100, 1100, 1,
                        List.of(exception("ReadTimeout")), str("gen_ai.operation.name", "execute_tool"),
                        str("gen_ai.tool.name", "charge_cart"), str("gen_ai.prompt", "{\"cart\":\"c-1\"}")),
                span("00000000000000b2", "00000000000000a2", "charge_cart", 1, 1500, 1600, 1, List.of(),
                        str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "charge_cart"),
                        str("gen_ai.prompt", "{\"cart\":\"c-1\"}")));
        JsonNode report = audit(export);
        assertThat(report.get("exit").asInt()).isEqualTo(2);
        assertThat(rules(report)).contains("timeout-replay/unreconciled");
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
    }

    @Test
    void openInferenceAndMcpToolSpansAreToolCallsAndAServerSpanUnderItsClientIsNoSecondAttempt() throws Exception {
        String export = export(
                span("00000000000000b1", "", "charge_cart", 1, 100, 1100, 2, List.of(exception("httpx.ReadTimeout")),
                        str("openinference.span.kind", "TOOL"), str("tool.name", "charge_cart"),
                        str("input.value", "{\"cart\":\"c-1\"}")),
                span("00000000000000b2", "", "tools/call charge_cart", 3, 1500, 1600, 0, List.of(),
                        str("mcp.method.name", "tools/call"), str("gen_ai.tool.name", "charge_cart"),
                        integer("jsonrpc.request.id", 7), str("gen_ai.tool.call.arguments", "{\"cart\":\"c-1\"}")),
                span("00000000000000b3", "00000000000000b2", "tools/call charge_cart", 2, 1510, 1590, 0, List.of(),
                        str("mcp.method.name", "tools/call"), str("gen_ai.tool.name", "charge_cart"),
                        integer("jsonrpc.request.id", 7)));
        JsonNode report = audit(export);
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(rules(report)).contains("timeout-replay/unreconciled");
    }

    @Test
    void sendsUnderSiblingWrapperSpansOfOneNameAreOneOperation() throws Exception {
        String export = export(
                span("00000000000000a1", "", "ai.generateText", 1, 0, 5000, 0, List.of()),
                span("00000000000000d1", "00000000000000a1", "ai.generateText.doGenerate", 1, 10, 120, 2, List.of()),
                send("00000000000000c1", "00000000000000d1", "POST", "http://model.example/v1/chat/completions", 15,
                        110, 429, header("http.response.header.retry-after", "90")),
                span("00000000000000d2", "00000000000000a1", "ai.generateText.doGenerate", 1, 2100, 2300, 0, List.of()),
                send("00000000000000c2", "00000000000000d2", "POST", "http://model.example/v1/chat/completions", 2105,
                        2290, 200));
        JsonNode report = audit(export);
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
        assertThat(rules(report)).contains("retry-after/early");
        assertThat(report.get("findings").get(0).at("/evidence/grouped_by").asText())
                .contains("sibling spans named ai.generateText.doGenerate");
    }

    @Test
    void perAttemptCallSpansOfOneClientRequestIdAreOneOperationAndAResetWriteIsUnknown() throws Exception {
        String export = export(
                span("00000000000000a1", "", "checkout", 1, 0, 5000, 0, List.of()),
                span("00000000000000e1", "00000000000000a1", "HTTP POST", 3, 10, 300, 2, List.of(),
                        str("http.method", "POST"), str("http.url", "http://pay.example/orders"),
                        str("requestId", "r-1")),
                send("00000000000000c1", "00000000000000e1", "POST", "http://pay.example/orders", 12, 290, 0,
                        str("error.type", "ECONNRESET")),
                span("00000000000000e2", "00000000000000a1", "HTTP POST", 3, 1100, 1300, 0, List.of(),
                        str("http.method", "POST"), str("http.url", "http://pay.example/orders"),
                        integer("http.status_code", 201), str("requestId", "r-1")),
                send("00000000000000c2", "00000000000000e2", "POST", "http://pay.example/orders", 1102, 1290, 201));
        JsonNode report = audit(export);
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(rules(report)).containsExactly("timeout-replay/keyless");
    }

    @Test
    void anSdkAttemptHeaderLinksThrottledSendsOfOneInvocation() throws Exception {
        String[] spans = new String[3];
        for (int i = 0; i < 3; i++) {
            spans[i] = send("00000000000000c" + (i + 1), "00000000000000a1", "POST", "http://dynamodb.example/",
                    i * 300L, i * 300L + 50, i < 2 ? 400 : 200,
                    header("http.request.header.amz-sdk-invocation-id", "inv-1"),
                    header("http.request.header.amz-sdk-request", "attempt=" + (i + 1) + "; max=3"));
        }
        JsonNode report = audit(export(spans[0], spans[1], spans[2],
                span("00000000000000a1", "", "put", 1, 0, 1000, 0, List.of())));
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(3);
    }

    @Test
    void toolSpansWithACallIdButNoArgumentsAreNoted() throws Exception {
        String export = export(
                span("00000000000000b1", "00000000000000a1", "execute_tool charge_cart", 1, 100, 1100, 2, List.of(),
                        str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "charge_cart"),
                        str("gen_ai.tool.call.id", "call_1")),
                span("00000000000000b2", "00000000000000a2", "execute_tool charge_cart", 1, 1500, 1600, 0, List.of(),
                        str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "charge_cart"),
                        str("gen_ai.tool.call.id", "call_2")));
        JsonNode report = audit(export);
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(2);
        assertThat(notes(report)).anySatisfy(n -> assertThat(n).startsWith("2 tool spans record a call id but no arguments"));
    }

    /** Two calls of get_cart, the first timed out, with no send under them: a write unless told otherwise. */
    private static String readToolRecalled() {
        return export(
                span("00000000000000b1", "00000000000000a1", "get_cart", 1, 100, 1100, 1,
                        List.of(exception("ReadTimeout")), str("gen_ai.operation.name", "execute_tool"),
                        str("gen_ai.tool.name", "get_cart"), str("gen_ai.prompt", "{\"cart\":\"c-1\"}")),
                span("00000000000000b2", "00000000000000a2", "get_cart", 1, 1500, 1600, 1, List.of(),
                        str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "get_cart"),
                        str("gen_ai.prompt", "{\"cart\":\"c-1\"}")));
    }

    @Test
    void anMcpToolsListOrAToolsFileSaysWhichToolsRead() throws Exception {
        assertThat(rules(audit(readToolRecalled()))).as("fail closed: a tool of unknown effect writes")
                .contains("timeout-replay/unreconciled");

        Path mcp = dir.resolve("tools-list.json");
        Files.writeString(mcp, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"get_cart\","
                + "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true,\"title\":\"Cart\"}}],"
                + "\"nextCursor\":null}}");
        JsonNode read = audit(readToolRecalled(), "--tools", mcp.toString());
        assertThat(read.get("exit").asInt()).isZero();
        assertThat(rules(read)).doesNotContain("timeout-replay/unreconciled");

        Path ours = dir.resolve("tools.json");
        Files.writeString(ours, "{\"version\":1,\"tools\":[{\"name\":\"get_cart\",\"effect\":\"read\"}]}");
        assertThat(audit(readToolRecalled(), "--tools", ours.toString()).get("exit").asInt()).isZero();

        Path policy = dir.resolve("policy.json");
        Files.writeString(policy, "{\"tools\":{\"get_cart\":{\"effect\":\"write\"}}}");
        assertThat(rules(audit(readToolRecalled(), "--tools", ours.toString(), "--policy", policy.toString())))
                .as("the policy's per-tool effect comes first").contains("timeout-replay/unreconciled");
    }

    @Test
    void aBadToolsFileIsOneLineWithItsPlace() throws Exception {
        Path export = dir.resolve("export.json");
        Files.writeString(export, readToolRecalled());
        Path bad = dir.resolve("tools.json");
        Files.writeString(bad, "{\"version\":1,\"tools\":[{\"name\":\"get_cart\",\"efect\":\"read\"}]}");
        CliRunner.Result r = CliRunner.run("audit", "--tools", bad.toString(), export.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(bad + ":1:42: error: $.tools[0].efect: unknown field (did you mean effect?)\n");
        CliRunner.Result missing = CliRunner.run("audit", "--tools", dir.resolve("none.json").toString(), export.toString());
        assertThat(missing.exit()).isEqualTo(66);
    }

    @Test
    void aSpanOfNoAttemptWithIdsThatDoNotReadIsNoWrapperAndNoError() throws Exception {
        String odd = span("00000000000000a1", "", "internal", 1, 0, 10, 0, List.of()).replace("00000000000000a1", "not-a-span-id");
        JsonNode report = audit(export(odd,
                send("00000000000000c1", "00000000000000a1", "GET", "http://shop.example/cart", 1, 9, 200)));
        assertThat(report.get("exit").asInt()).isZero();
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
    }
}
