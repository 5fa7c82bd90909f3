package dev.retryaudit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.probe.ProbeCatalogue;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.report.Summaries;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code audit_trace}: the {@code audit} command as a tool. The trace comes inline or from a file under
 * {@code --allow-dir}; the input format, policy, rule selection and {@code fail_on} are the CLI's options, checked
 * with the CLI's messages, and the input goes through the same reader, limits ({@code limits}, the CLI's
 * {@code --limit-*}) and rules; an input over a limit names the argument that raises it. The result is the JSON
 * report as structured content and its verdict line (plus the first findings) as text.
 */
final class AuditTool {
    /** The name an inline trace gets in the report, unless the call names it. */
    static final String INLINE = "<inline>";

    static final String SCHEMA = """
            {"type": "object", "additionalProperties": false,
             "properties": {
              "trace": {"type": "string", "description": "The trace itself: any supported format (operations, spans, retry-trace, otlp, har)."},
              "path": {"type": "string", "description": "A trace file under a directory the server was started with (--allow-dir); relative paths are taken against those directories."},
              "name": {"type": "string", "description": "The name an inline trace gets in findings; its extension (.jsonl) helps tell the format. Default <inline>."},
              "input_format": {"type": "string", "enum": [%s], "description": "How to read the trace (default auto)."},
              "policy": {"type": "object", "description": "A policy document, as the --policy file holds."},
              "tools": {"type": "object", "description": "Which tools write, as the --tools file holds: an MCP tools/list result (readOnlyHint, idempotentHint) or a tools file; the policy's per-tool settings come first."},
              "enable": {"type": "array", "items": {"type": "string"}, "description": "Rule ids or families to enable, as --enable."},
              "disable": {"type": "array", "items": {"type": "string"}, "description": "Rule ids or families to disable, as --disable."},
              "fail_on": {"type": "string", "enum": [%s], "description": "Lowest severity that fails the audit (default error)."},
              "limits": {"type": "object", "additionalProperties": false, "description": "Input limits, as audit's --limit-* options; each absent one keeps the audit default.",
               "properties": {
                "bytes": {"type": "integer", "minimum": 1, "description": "Most input bytes (default 1 GiB)."},
                "operations": {"type": "integer", "minimum": 1, "description": "Most operations (default 5,000,000)."},
                "attempts": {"type": "integer", "minimum": 1, "description": "Most attempts in one operation (default 10,000)."},
                "string": {"type": "integer", "minimum": 1, "description": "Longest string value, in characters (default 65,536)."},
                "depth": {"type": "integer", "minimum": 1, "maximum": %d, "description": "Deepest nesting (default 64)."}
               }}
             }}""";

    private static final Set<String> ARGS = Set.of("trace", "path", "name", "input_format", "policy", "tools",
            "enable", "disable", "fail_on", "limits");
    private static final Set<String> LIMITS = Set.of("bytes", "operations", "attempts", "string", "depth");
    private static final int FINDINGS_IN_TEXT = 20;

    private final AllowedDirs dirs;
    private final Reads reads;
    private final ObjectMapper json;

    AuditTool(AllowedDirs dirs, Reads reads, ObjectMapper json) {
        this.dirs = dirs;
        this.reads = reads;
        this.json = json;
    }

    /** The input schema, with the formats and levels this build knows. */
    static String schema() {
        return String.format(SCHEMA, quoted(formats()), quoted(FailOn.ids()), Limits.MAX_DEPTH);
    }

    Result call(Map<String, Object> arguments) throws ToolError {
        Args a = new Args(arguments, ARGS);
        String trace = a.string("trace");
        String path = a.string("path");
        if ((trace == null) == (path == null)) {
            throw new ToolError(trace == null ? "give the trace as 'trace' (its text) or 'path' (a file under --allow-dir)"
                    : "give either 'trace' or 'path', not both");
        }
        String inputFormat = a.string("input_format", "auto");
        InputFormat format = Args.choice("input_format", inputFormat,
                formats().contains(inputFormat) ? InputFormat.parse(inputFormat) : null, formats());
        String failOnId = a.string("fail_on", "error");
        FailOn failOn = Args.choice("fail_on", failOnId, FailOn.parse(failOnId), FailOn.ids());
        List<String> enable = a.strings("enable");
        List<String> disable = a.strings("disable");
        String probe = ProbeCatalogue.problem(enable, "'enable'", disable, "'disable'", false);
        if (probe != null) {
            throw new ToolError(probe);
        }
        Map<?, ?> policyDoc = a.object("policy");
        Map<?, ?> toolsDoc = a.object("tools");
        String name = a.string("name", INLINE);
        Limits limits = limits(a.members("limits", LIMITS));
        AuditSettings.Builder settings = settings(AuditSettings.builder().inputFormat(format).reportFormat(ReportFormat.JSON).limits(limits)
                .failOn(failOn).enable(enable).disable(disable));
        try {
            if (policyDoc != null) {
                settings.policy(new ByteArrayInputStream(json.writeValueAsBytes(policyDoc)), "<policy>");
            }
            if (toolsDoc != null) {
                settings.tools(new ByteArrayInputStream(json.writeValueAsBytes(toolsDoc)), "<tools>");
            }
            RetryAudit auditor = RetryAudit.of(settings.build());
            if (trace != null) {
                return result(auditor, auditor.audit(AuditInput.stream(
                        new ByteArrayInputStream(trace.getBytes(StandardCharsets.UTF_8)), name)));
            }
            // The file is opened once, here, and read as a stream: nothing opens its path again.
            AllowedDirs.Opened file = dirs.open(path);
            try (InputStream in = reads.stream(file.channel())) {
                return result(auditor, auditor.audit(AuditInput.stream(in, file.path().toString())));
            }
        } catch (RetryAuditException e) {
            throw new ToolError(e.diagnostic(AuditTool::hint));
        } catch (IOException e) {
            throw new ToolError("cannot encode the policy: " + Escaping.controls(String.valueOf(e.getMessage())));
        }
    }

    /** {@code b}, its rule names checked: an unknown one is the call's error. */
    static AuditSettings.Builder settings(AuditSettings.Builder b) throws ToolError {
        try {
            return b.build().toBuilder();
        } catch (IllegalArgumentException e) {
            throw new ToolError(e.getMessage());
        }
    }

    /** The {@code limits} argument over the audit defaults. */
    private static Limits limits(Args given) throws ToolError {
        Limits d = Limits.DEFAULTS;
        if (given == null) {
            return d;
        }
        return new Limits(given.limit("bytes", Limit.BYTES, d.bytes()),
                given.limit("operations", Limit.OPERATIONS, d.operations()),
                (int) given.limit("attempts", Limit.ATTEMPTS, d.attemptsPerOperation()),
                (int) given.limit("string", Limit.STRING, d.stringLength()),
                (int) given.limit("depth", Limit.DEPTH, d.depth()));
    }

    /** How a client raises {@code limit}: the member of the {@code limits} argument. */
    static String hint(Limit limit) {
        return limit == Limit.MEMORY
                ? "start the server with more heap (java -Xmx4g -jar retry-audit.jar mcp ...), lower limits.bytes, "
                        + "or split the trace"
                : Limits.raiseWith(limit, "the argument limits." + limit.id());
    }

    /** The JSON report (as the CLI prints it) and a short text: the findings, at most a screenful, and the verdict. */
    Result result(Report report) throws ToolError {
        return result(o -> ReportWriter.of(ReportFormat.JSON, false).write(report, o), report.findings(),
                Summaries.line(report, v -> v));
    }

    /** {@link #result(Report)} of the audit {@code result} by {@code auditor}, whose settings' report format is JSON. */
    private Result result(RetryAudit auditor, AuditResult result) throws ToolError {
        return result(o -> auditor.writeReport(result, o), result.findings(), auditor.summary(result));
    }

    /** The JSON report {@code report} writes and a short text: {@code findings}, at most a screenful, then {@code summary}. */
    private Result result(JsonReport report, List<Finding> findings, String summary) throws ToolError {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            report.write(bytes);
            Map<?, ?> structured = json.readValue(bytes.toByteArray(), Map.class);
            StringBuilder text = new StringBuilder();
            for (Finding f : findings.subList(0, Math.min(findings.size(), FINDINGS_IN_TEXT))) {
                text.append(Escaping.controls(f.location().source())).append(':').append(f.location().line()).append(':')
                        .append(f.location().column()).append(": ").append(f.severity().id()).append(": ")
                        .append(Escaping.controls(f.message())).append(" [").append(f.rule()).append("]\n");
            }
            if (findings.size() > FINDINGS_IN_TEXT) {
                text.append("... and ").append(findings.size() - FINDINGS_IN_TEXT)
                        .append(" more findings in the structured report\n");
            }
            text.append(summary);
            return new Result(text.toString(), structured);
        } catch (IOException e) {
            throw new ToolError("cannot render the report: " + Escaping.controls(String.valueOf(e.getMessage())));
        }
    }

    /** Writes a JSON report. */
    private interface JsonReport {
        void write(OutputStream out) throws IOException;
    }

    /** What a tool returns: text for people (and models), structured content for programs. */
    record Result(String text, Map<?, ?> structured) {
    }

    private static List<String> formats() {
        return AuditInput.formats();
    }

    private static String quoted(List<String> values) {
        return String.join(", ", values.stream().map(v -> "\"" + v + "\"").toList());
    }
}
