package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.cli.CliRunner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A whole session on stdin, as a client that sends every line and then closes stdin would: each malformed line gets
 * the JSON-RPC error it should, the request after it is answered, requests before initialization are refused (ping
 * answered), and the end of stdin ends the server with exit 0 once what was asked is answered.
 */
class McpSessionTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    /** A malformed line, the id its error reply carries (null for none), and the error code. */
    record Bad(String name, byte[] line, Object id, int code) {
        Bad(String name, String line, Object id, int code) {
            this(name, line.getBytes(StandardCharsets.UTF_8), id, code);
        }
    }

    @Test
    void everyMalformedLineIsAnsweredAndTheNextRequestToo() throws IOException {
        String deep = "[".repeat(3000) + "]".repeat(3000);
        List<Bad> bad = List.of(
                new Bad("garbage", "garbage", null, -32700),
                new Bad("empty object", "{}", null, -32600),
                new Bad("null", "null", null, -32600),
                new Bad("empty array", "[]", null, -32600),
                new Bad("batch", "[{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":51,"
                        + "\"method\":\"ping\"}]", null, -32600),
                new Bad("null id", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\"}", null, -32600),
                new Bad("object id", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}", null, -32600),
                new Bad("1e400 id", "{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"tools/list\"}", null, -32600),
                new Bad("fraction id", "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/list\"}", null, -32600),
                new Bad("huge id", "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234,\"method\":\"tools/list\"}", null,
                        -32600),
                new Bad("bom", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}".getBytes(StandardCharsets.UTF_8)),
                        null, -32700),
                new Bad("3000 deep", "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"audit_trace\",\"arguments\":{\"trace\":" + deep + "}}}", 10L, -32600),
                new Bad("3000 deep, id after", "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"audit_trace\",\"arguments\":{\"trace\":" + deep + ",\"s\":\"\\\"id\\\":7\"}},\"id\":\"deep\"}",
                        "deep", -32600),
                new Bad("over 16 MiB", "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"audit_trace\",\"arguments\":{\"trace\":\"" + "x".repeat(RetryAuditMcp.MAX_MESSAGE) + "\"}}}",
                        11L, -32600),
                new Bad("invalid utf-8", concat("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/list\",\"x\":\""
                        .getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xFF, '"', '}'}), null, -32700),
                new Bad("no version", "{\"id\":13,\"method\":\"tools/list\"}", 13L, -32600),
                new Bad("version 1.0", "{\"jsonrpc\":\"1.0\",\"id\":14,\"method\":\"tools/list\"}", 14L, -32600),
                new Bad("method number", "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":5}", 15L, -32600),
                new Bad("params number", "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"tools/list\",\"params\":5}",
                        "p", -32600),
                new Bad("request with result", "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"tools/list\",\"result\":1}",
                        16L, -32600),
                new Bad("id only", "{\"jsonrpc\":\"2.0\",\"id\":17}", 17L, -32600),
                new Bad("two values", "{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"tools/list\"} {}", null, -32700),
                new Bad("cut short", "{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":", null, -32700),
                new Bad("long number", "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/list\",\"x\":" + "1".repeat(1500)
                        + "}", 20L, -32600),
                new Bad("string", "\"tools/list\"", null, -32600));

        ByteArrayOutputStream in = new ByteArrayOutputStream();
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":\"early\",\"method\":\"tools/list\"}");
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":\"ping-early\",\"method\":\"ping\"}");
        line(in, INITIALIZED);
        line(in, INIT);
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":\"between\",\"method\":\"tools/list\"}");
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":\"ping-between\",\"method\":\"ping\"}");
        line(in, INITIALIZED);
        for (int i = 0; i < bad.size(); i++) {
            in.write(bad.get(i).line());
            in.write('\n');
            line(in, "{\"jsonrpc\":\"2.0\",\"id\":\"after-" + i + "\",\"method\":\"tools/list\"}");
        }
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":30,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}");
        line(in, "{\"jsonrpc\":\"2.0\",\r\"id\":\"cr\",\"method\":\"ping\"}\r");
        line(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"x\"}}");
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"tools/call\",\"params\":{\"name\":\"list_rules\","
                + "\"arguments\":{}}}");

        CliRunner.Result r = CliRunner.run(new ByteArrayInputStream(in.toByteArray()), "mcp");
        assertThat(r.exit()).as(r.err()).isZero();
        Map<Object, JsonNode> byId = new LinkedHashMap<>();
        List<JsonNode> nullIds = new ArrayList<>();
        for (String reply : r.out().lines().toList()) {
            JsonNode n = JSON.readTree(reply);
            assertThat(n.get("jsonrpc").asText()).isEqualTo("2.0");
            if (n.get("id").isNull()) {
                nullIds.add(n);
            } else {
                assertThat(byId.put(n.get("id").isTextual() ? n.get("id").asText() : (Object) n.get("id").asLong(), n))
                        .as("one reply to " + n.get("id")).isNull();
            }
        }
        assertThat(byId.get("early").get("error").get("code").asInt()).isEqualTo(-32002);
        assertThat(byId.get("early").get("error").get("message").asText())
                .isEqualTo("Server not initialized: tools/list before initialize; send initialize, then "
                        + "notifications/initialized once it is answered, then requests");
        assertThat(byId.get("ping-early").get("result").size()).isZero();
        assertThat(byId.get("init").get("result").get("serverInfo").get("name").asText()).isEqualTo("retry-audit");
        assertThat(byId.get("between").get("error").get("code").asInt()).isEqualTo(-32002);
        assertThat(byId.get("ping-between").has("result")).isTrue();

        List<Bad> unnamed = new ArrayList<>();
        for (int i = 0; i < bad.size(); i++) {
            Bad b = bad.get(i);
            assertThat(byId.get("after-" + i)).as("the request after " + b.name()).isNotNull();
            assertThat(byId.get("after-" + i).get("result").get("tools").size()).as(b.name()).isEqualTo(6);
            if (b.id() == null) {
                unnamed.add(b);
            } else {
                assertThat(byId.get(b.id())).as(b.name()).isNotNull();
                assertThat(byId.get(b.id()).get("error").get("code").asInt()).as(b.name()).isEqualTo(b.code());
            }
        }
        assertThat(nullIds).extracting(n -> n.get("error").get("code").asInt())
                .containsExactlyElementsOf(unnamed.stream().map(Bad::code).toList());
        assertThat(byId.get(10L).get("error").get("message").asText())
                .isEqualTo("Invalid Request: the message nests deeper than 1000 levels, the most this server reads");
        assertThat(byId.get(11L).get("error").get("message").asText()).startsWith("Invalid Request: a message of 16777");
        assertThat(byId.get("cr").has("result")).isTrue();
        assertThat(byId.get("last").get("result").get("isError").asBoolean()).isFalse();
        assertThat(byId).doesNotContainKeys(30L, 50L, 51L);
        assertThat(r.err().lines()).containsExactly(
                "retry-audit: mcp: ignored notifications/initialized before initialize",
                "retry-audit: mcp: dropped a message of " + (bad.get(13).line().length) + " bytes, more than the "
                        + RetryAuditMcp.MAX_MESSAGE + " one message may hold; give a large trace to audit_trace as 'path'",
                "retry-audit: mcp: ignored a response that is not valid JSON-RPC 2.0: a response with both \"result\" "
                        + "and \"error\"");
    }

    @Test
    void aLimitIsAWholeNumberInRangeWithTheCommandLinesWords() throws IOException {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        line(in, INIT);
        line(in, INITIALIZED);
        Map<String, String> limits = new LinkedHashMap<>();
        limits.put("\"bytes\":1e300", "invalid value for 'limits.bytes': must be at most 9223372036854775807");
        limits.put("\"bytes\":18446744073709551616", "invalid value for 'limits.bytes': must be at most 9223372036854775807");
        limits.put("\"bytes\":1.5", "invalid value for 'limits.bytes': expected a whole number");
        limits.put("\"bytes\":1e400", "invalid value for 'limits.bytes': expected a whole number");
        limits.put("\"attempts\":3e9", "invalid value for 'limits.attempts': must be at most 2147483647");
        limits.put("\"bytes\":-1e300", "invalid value for 'limits.bytes': " + cliProblem("--limit-bytes", "0"));
        limits.put("\"operations\":0", "invalid value for 'limits.operations': " + cliProblem("--limit-operations", "0"));
        limits.put("\"depth\":1001", "invalid value for 'limits.depth': " + cliProblem("--limit-depth", "1001"));
        int id = 0;
        for (String l : limits.keySet()) {
            line(in, "{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"tools/call\",\"params\":{\"name\":\"audit_trace\","
                    + "\"arguments\":{\"trace\":\"{}\",\"limits\":{" + l + "}}}}");
        }
        line(in, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"audit_trace\","
                + "\"arguments\":{\"trace\":\"{\\\"version\\\": 1, \\\"operations\\\": []}\",\"limits\":{\"bytes\":1e3}}}}");
        CliRunner.Result r = CliRunner.run(new ByteArrayInputStream(in.toByteArray()), "mcp");
        Map<Long, JsonNode> byId = new LinkedHashMap<>();
        for (String reply : r.out().lines().toList()) {
            JsonNode n = JSON.readTree(reply);
            if (n.get("id").isNumber()) {
                byId.put(n.get("id").asLong(), n.get("result"));
            }
        }
        id = 0;
        for (Map.Entry<String, String> e : limits.entrySet()) {
            JsonNode result = byId.get((long) id++);
            assertThat(result.get("isError").asBoolean()).as(e.getKey()).isTrue();
            assertThat(result.get("content").get(0).get("text").asText()).as(e.getKey()).isEqualTo(e.getValue());
        }
        assertThat(byId.get((long) id).get("isError").asBoolean()).as(byId.get((long) id).toString()).isFalse();
    }

    /** What the command line says of {@code value} for {@code option}, after the option's name. */
    private static String cliProblem(String option, String value) {
        String err = CliRunner.run("audit", option, value, "examples/checkout-spans.jsonl").err();
        String lead = "retry-audit: error: invalid value for option '" + option + "': ";
        assertThat(err).startsWith(lead);
        return err.substring(lead.length(), err.indexOf('\n'));
    }

    private static void line(ByteArrayOutputStream out, String line) throws IOException {
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
