package dev.retryaudit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tools file's {@code key_argument}: the argument of an agent's tool whose value is the call's
 * idempotency key. A tool called again after a timeout with the same key argument is a keyed retry
 * (unreconciled, or deduplicated when the tool deduplicates by key); the recorded LangGraph export
 * whose model passed the key as an argument shows it.
 */
class ToolKeyArgumentTest {
    private static final Path RECORDED = Path.of("src/test/resources/real/recorded/langgraph-py-langsmith/"
            + "recall-timeout-key-argument.json");
    private static final Path AGENT_RECALL = Path.of("src/test/resources/rules/timeout-replay/unreconciled/"
            + "fail-key-argument/input.json");

    @TempDir
    Path dir;

    private Path tools(String entry) throws Exception {
        Path file = dir.resolve("tools.json");
        Files.writeString(file, "{\"version\": 1, \"tools\": [" + entry + "]}");
        return file;
    }

    @Test
    void theRecordedReCallUnderOneKeyArgumentIsKeyedAndDeduplicatedOnlyWhenTheToolSaysSo() throws Exception {
        JsonNode plain = AgentToolCallsTest.audit(RECORDED);
        assertThat(AgentToolCallsTest.rules(plain)).containsExactly("timeout-replay/unreconciled");
        assertThat(plain.at("/findings/0/evidence/idempotency_key").isNull()).isTrue();

        JsonNode keyed = AgentToolCallsTest.audit(RECORDED, "--tools",
                tools("{\"name\": \"charge_cart\", \"effect\": \"write\", \"key_argument\": \"idempotency_key\"}").toString());
        assertThat(keyed.get("exit").asInt()).isEqualTo(2);
        assertThat(AgentToolCallsTest.rules(keyed)).containsExactly("timeout-replay/unreconciled");
        JsonNode finding = keyed.get("findings").get(0);
        assertThat(finding.get("tool").asText()).isEqualTo("charge_cart");
        assertThat(finding.at("/evidence/prior_idempotency_key").asText()).isEqualTo("charge-c-1-0001");
        assertThat(finding.at("/evidence/idempotency_key").asText()).isEqualTo("charge-c-1-0001");
        assertThat(finding.at("/evidence/key_argument").asText()).isEqualTo("idempotency_key");

        // The fixture of this recording did not deduplicate: a tools file that says the tool does is believed.
        JsonNode deduplicated = AgentToolCallsTest.audit(RECORDED, "--tools", tools("{\"name\": \"charge_cart\", \"effect\": \"write\", "
                + "\"idempotent\": true, \"key_argument\": \"idempotency_key\"}").toString());
        assertThat(deduplicated.get("exit").asInt()).isZero();
        assertThat(AgentToolCallsTest.rules(deduplicated)).isEmpty();
    }

    @Test
    void sendsThatRecordNoKeyHeaderAreKeyedByTheArgumentAndAnAbsentArgumentLeavesThemKeyless() throws Exception {
        assertThat(AgentToolCallsTest.rules(AgentToolCallsTest.audit(AGENT_RECALL))).containsExactly("timeout-replay/keyless");
        assertThat(AgentToolCallsTest.rules(AgentToolCallsTest.audit(AGENT_RECALL, "--tools", tools("{\"name\": \"charge_cart\", \"effect\": \"write\", "
                + "\"key_argument\": \"idempotency_key\"}").toString()))).containsExactly("timeout-replay/unreconciled");
        assertThat(AgentToolCallsTest.rules(AgentToolCallsTest.audit(AGENT_RECALL, "--tools", tools("{\"name\": \"charge_cart\", \"effect\": \"write\", "
                + "\"key_argument\": \"payment_key\"}").toString()))).containsExactly("timeout-replay/keyless");
    }

    @Test
    void reCallsUnderDifferentKeysAreDifferentOperations() throws Exception {
        String text = Files.readString(AGENT_RECALL);
        int second = text.lastIndexOf("k-c-1-0001");
        Path export = dir.resolve("export.json");
        Files.writeString(export, text.substring(0, second) + "k-c-1-0002" + text.substring(second + 10));
        JsonNode report = AgentToolCallsTest.audit(export, "--tools", tools("{\"name\": \"charge_cart\", \"effect\": \"write\", "
                + "\"key_argument\": \"idempotency_key\"}").toString());
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(2);
        assertThat(AgentToolCallsTest.rules(report)).isEmpty();
    }

    @Test
    void aKeyArgumentIsReadOnlyFromOurToolsFileAndNeedsAName() throws Exception {
        Path export = dir.resolve("export.json");
        Files.copy(AGENT_RECALL, export);
        Path empty = tools("{\"name\": \"charge_cart\", \"effect\": \"write\", \"key_argument\": \"\"}");
        CliRunner.Result r = CliRunner.run("audit", "--tools", empty.toString(), export.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).startsWith(empty + ":1:").contains("$.tools[0].key_argument: a key argument needs a name");

        Path mcp = dir.resolve("tools-list.json");
        Files.writeString(mcp, "{\"tools\": [{\"name\": \"charge_cart\", \"key_argument\": \"idempotency_key\"}]}");
        assertThat(AgentToolCallsTest.rules(AgentToolCallsTest.audit(export, "--tools", mcp.toString()))).as("an MCP tools/list has no key argument")
                .containsExactly("timeout-replay/keyless");
    }
}
