package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.Setting;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The {@code audit_trace} tool's generated schema against the settings table and the audit settings: every setting
 * of the builder is a row of the table or is left out for a stated reason, every row is an argument of the tool
 * (or is left out for a reason), and every argument but the trace's own is a row, described and constrained as
 * the row says; so a setting added to the builder and not the table, or a row the tool does not offer, fails here.
 */
class AuditToolSchemaTest {
    /** Each setting of {@link AuditSettings.Builder}: the rows that carry it, or why the table has none. */
    private static final Map<String, String> SETTINGS = Map.ofEntries(
            Map.entry("policy", "POLICY"),
            Map.entry("tools", "TOOLS"),
            Map.entry("enable", "ENABLE"),
            Map.entry("disable", "DISABLE"),
            Map.entry("limits", "LIMIT_BYTES LIMIT_OPERATIONS LIMIT_ATTEMPTS LIMIT_STRING LIMIT_DEPTH"),
            Map.entry("inputFormat", "INPUT_FORMAT"),
            Map.entry("reportFormat", "FORMAT"),
            Map.entry("failOn", "FAIL_ON"),
            Map.entry("rule", "none: a rule is code, which no command line or tool call carries"),
            Map.entry("baseline", "none: audit's own --baseline; the MCP server reads no report file of the client's"),
            Map.entry("timelines", "none: follows the report format (only the HTML report draws timelines)"));

    /** The rows the tool leaves out, and why. */
    private static final Map<Setting, String> LEFT_OUT = Map.of(
            Setting.FORMAT, "the tool answers with the JSON report and a text summary");

    /** The arguments that say what to audit, not how. */
    private static final Set<String> INPUT = Set.of("trace", "path", "name");

    @Test
    void everyBuilderSettingIsARowOrLeftOutForAReason() {
        Set<String> setters = new TreeSet<>();
        for (Method m : AuditSettings.Builder.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && m.getReturnType() == AuditSettings.Builder.class) {
                setters.add(m.getName());
            }
        }
        assertThat(setters).as("the settings' builder").containsExactlyInAnyOrderElementsOf(SETTINGS.keySet());
        List<String> rows = new ArrayList<>();
        SETTINGS.values().stream().filter(v -> !v.startsWith("none: ")).forEach(v -> rows.addAll(List.of(v.split(" "))));
        assertThat(rows).as("the table's rows").containsExactlyInAnyOrderElementsOf(
                Arrays.stream(Setting.values()).map(Setting::name).toList());
    }

    @Test
    void everyRowIsAnArgumentOrLeftOutForAReason() throws Exception {
        JsonNode properties = new ObjectMapper().readTree(AuditTool.schema()).get("properties");
        Set<String> arguments = new TreeSet<>();
        properties.fieldNames().forEachRemaining(n -> {
            if (properties.get(n).has("properties")) {
                properties.get(n).get("properties").fieldNames().forEachRemaining(m -> arguments.add(n + "." + m));
            } else {
                arguments.add(n);
            }
        });
        arguments.removeAll(INPUT);
        assertThat(arguments).as("the tool's arguments").containsExactlyInAnyOrderElementsOf(Arrays.stream(Setting.values())
                .filter(s -> !LEFT_OUT.containsKey(s)).map(Setting::argument).toList());
        assertThat(arguments).contains("fail_on", "input_format", "limits.bytes", "limits.operations", "limits.attempts",
                "limits.string", "limits.depth");
    }

    @Test
    void eachArgumentIsDescribedAndConstrainedAsItsRow() throws Exception {
        JsonNode properties = new ObjectMapper().readTree(AuditTool.schema()).get("properties");
        for (Setting s : Setting.values()) {
            if (LEFT_OUT.containsKey(s)) {
                continue;
            }
            String[] path = s.argument().split("\\.");
            JsonNode p = path.length == 1 ? properties.get(path[0]) : properties.get(path[0]).get("properties").get(path[1]);
            assertThat(p.get("description").asText()).as(s.argument()).endsWith(s.description());
            if (s.document()) {
                assertThat(p.get("type").asText()).isEqualTo("object");
            } else if (s.repeatable()) {
                assertThat(p.get("items").get("type").asText()).isEqualTo("string");
            } else if (s.limit().isPresent()) {
                assertThat(p.get("minimum").asLong()).isEqualTo(1);
                assertThat(p.get("maximum").asLong()).isEqualTo(Limits.max(s.limit().orElseThrow()));
            } else {
                List<String> ids = new ArrayList<>();
                p.get("enum").forEach(v -> ids.add(v.asText()));
                assertThat(ids).as(s.argument()).isEqualTo(s.choices()).isNotEmpty();
            }
        }
        assertThat(properties.get("limits").get("additionalProperties").asBoolean()).isFalse();
    }

    @Test
    void everyLimitIsARowAndAMemberOfTheLimitsArgument() {
        assertThat(Arrays.stream(Limits.class.getRecordComponents()).map(RecordComponent::getName))
                .containsExactly("bytes", "operations", "attemptsPerOperation", "stringLength", "depth");
        for (Limit limit : Limit.values()) {
            if (limit != Limit.MEMORY) {
                assertThat(Setting.of(limit).argument()).isEqualTo("limits." + limit.id());
                assertThat(Setting.of(limit).option()).isEqualTo("--limit-" + limit.id());
            }
        }
    }
}
