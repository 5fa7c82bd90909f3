package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.model.Limits;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The {@code audit_trace} tool's arguments against the audit settings: every setting is an argument or is left
 * out for a stated reason, and every argument but the trace's own is a setting, so that a setting added to one
 * and not the other fails here.
 */
class AuditToolSchemaTest {
    /** Each setting of {@link AuditSettings.Builder}: the argument that carries it, or why the tool has none. */
    private static final Map<String, String> SETTINGS = Map.ofEntries(
            Map.entry("policy", "policy"),
            Map.entry("tools", "tools"),
            Map.entry("enable", "enable"),
            Map.entry("disable", "disable"),
            Map.entry("limits", "limits"),
            Map.entry("inputFormat", "input_format"),
            Map.entry("failOn", "fail_on"),
            Map.entry("rule", "none: a rule is code, which a tool call cannot carry"),
            Map.entry("reportFormat", "none: the tool answers with the JSON report and a text summary"),
            Map.entry("baseline", "none: the server reads no report file of the client's"),
            Map.entry("timelines", "none: only the HTML report draws timelines"));

    /** The arguments that say what to audit, not how. */
    private static final Set<String> INPUT = Set.of("trace", "path", "name");

    /** Each component of {@link Limits}: the member of the {@code limits} argument. */
    private static final Map<String, String> LIMITS = Map.of(
            "bytes", "bytes",
            "operations", "operations",
            "attemptsPerOperation", "attempts",
            "stringLength", "string",
            "depth", "depth");

    @Test
    void everySettingIsAnArgumentOrLeftOutForAReason() throws Exception {
        Set<String> setters = new TreeSet<>();
        for (Method m : AuditSettings.Builder.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && m.getReturnType() == AuditSettings.Builder.class) {
                setters.add(m.getName());
            }
        }
        assertThat(setters).as("the settings' builder").containsExactlyInAnyOrderElementsOf(SETTINGS.keySet());

        JsonNode properties = new ObjectMapper().readTree(AuditTool.schema()).get("properties");
        Set<String> arguments = new TreeSet<>();
        properties.fieldNames().forEachRemaining(arguments::add);
        arguments.removeAll(INPUT);
        assertThat(arguments).as("the tool's arguments").containsExactlyInAnyOrderElementsOf(
                SETTINGS.values().stream().filter(v -> !v.startsWith("none: ")).toList());
    }

    @Test
    void everyLimitIsAMemberOfTheLimitsArgument() throws Exception {
        assertThat(Arrays.stream(Limits.class.getRecordComponents()).map(RecordComponent::getName))
                .containsExactlyInAnyOrderElementsOf(LIMITS.keySet());
        JsonNode limits = new ObjectMapper().readTree(AuditTool.schema()).get("properties").get("limits")
                .get("properties");
        Set<String> members = new TreeSet<>();
        limits.fieldNames().forEachRemaining(members::add);
        assertThat(members).containsExactlyInAnyOrderElementsOf(LIMITS.values());
    }
}
