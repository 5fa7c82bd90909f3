package dev.retryaudit.report.sarif;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The part of the SARIF 2.1.0 object model that retry-audit writes, as records that Jackson databind
 * serialises in declaration order; absent (null) properties are left out.
 */
public final class Sarif {
    public static final String SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
    public static final String VERSION = "2.1.0";

    private Sarif() {
    }

    /** The top-level {@code sarifLog}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Log(@JsonProperty("$schema") String schema, String version, List<Run> runs) {
    }

    /** One run of the tool over the input set. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Run(Tool tool, List<Invocation> invocations, List<Result> results) {
    }

    /** The tool that made the run. */
    public record Tool(ToolComponent driver) {
    }

    /** The tool's main component with its rules. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ToolComponent(String name, String version, String semanticVersion, String informationUri,
            List<ReportingDescriptor> rules) {
    }

    /** A rule's metadata. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ReportingDescriptor(String id, String name, MultiformatMessage shortDescription,
            MultiformatMessage fullDescription, MultiformatMessage help, Configuration defaultConfiguration) {
    }

    /** A message in plain text and, optionally, markdown. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MultiformatMessage(String text, String markdown) {
    }

    /** A rule's configuration: the level its results get. */
    public record Configuration(String level) {
    }

    /** How the run went: whether it succeeded, its exit code, and what went wrong if not. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Invocation(boolean executionSuccessful, Integer exitCode, List<Notification> toolExecutionNotifications) {
    }

    /** A message from the tool about the run itself (an input error, results cut). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Notification(String level, Message message, List<Location> locations) {
    }

    /** One finding. */
    public record Result(String ruleId, int ruleIndex, String level, Message message, List<Location> locations,
            Map<String, String> partialFingerprints) {
    }

    /** A plain-text message. */
    public record Message(String text) {
    }

    /** Where a result or notification is. */
    public record Location(PhysicalLocation physicalLocation) {
    }

    /** A place in a file. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PhysicalLocation(ArtifactLocation artifactLocation, Region region) {
    }

    /** A file, as a URI reference relative to where the tool ran. */
    public record ArtifactLocation(String uri) {
    }

    /** A position in a file, 1-based. */
    public record Region(long startLine, long startColumn) {
        public Region {
            if (startLine < 1 || startColumn < 1) {
                throw new IllegalArgumentException("SARIF regions are 1-based: " + startLine + ":" + startColumn);
            }
        }
    }
}
