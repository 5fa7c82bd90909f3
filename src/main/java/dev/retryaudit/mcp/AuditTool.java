package dev.retryaudit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.Setting;
import dev.retryaudit.model.Finding;
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
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code audit_trace}: the {@code audit} command as a tool. The trace comes inline or from a file under
 * {@code --allow-dir}; the input format, policy, tools, rule selection, {@code fail_on} and {@code limits} are the
 * rows of the settings table the CLI's options are made from (all but the report format), checked with the table's
 * messages, and the input goes through the same reader, limits and rules; an input over a limit names the argument
 * that raises it. The result is the JSON
 * report as structured content and its verdict line (plus the first findings) as text.
 */
final class AuditTool {
    /** The name an inline trace gets in the report, unless the call names it. */
    static final String INLINE = "<inline>";

    /** The settings the tool takes: every row but the report format, since it answers with the JSON report. */
    private static final SettingArgs SETTINGS = new SettingArgs(
            Arrays.stream(Setting.values()).filter(s -> s != Setting.FORMAT).toList());

    /** The arguments that say what to audit, not how. */
    private static final Set<String> INPUT = Set.of("trace", "path", "name");

    private static final int FINDINGS_IN_TEXT = 20;

    private final AllowedDirs dirs;
    private final Reads reads;
    private final ObjectMapper json;

    AuditTool(AllowedDirs dirs, Reads reads, ObjectMapper json) {
        this.dirs = dirs;
        this.reads = reads;
        this.json = json;
    }

    /** The input schema: the trace's arguments, then the settings rows' with the formats and levels this build knows. */
    static String schema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object").put("additionalProperties", false);
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("trace").put("type", "string").put("description",
                "The trace itself: any supported format (operations, spans, retry-trace, otlp, har).");
        properties.putObject("path").put("type", "string").put("description", "A trace file under a directory the "
                + "server was started with (--allow-dir); relative paths are taken against those directories.");
        properties.putObject("name").put("type", "string").put("description", "The name an inline trace gets in "
                + "findings; its extension (.jsonl) helps tell the format. Default " + INLINE + ".");
        SETTINGS.schema(properties);
        return schema.toString();
    }

    Result call(Map<String, Object> arguments) throws ToolError {
        Set<String> known = new HashSet<>(INPUT);
        known.addAll(SETTINGS.names());
        Args a = new Args(arguments, known);
        String trace = a.string("trace");
        String path = a.string("path");
        if ((trace == null) == (path == null)) {
            throw new ToolError(trace == null ? "give the trace as 'trace' (its text) or 'path' (a file under --allow-dir)"
                    : "give either 'trace' or 'path', not both");
        }
        String probe = ProbeCatalogue.problem(a.strings("enable"), "'enable'", a.strings("disable"), "'disable'", false);
        if (probe != null) {
            throw new ToolError(probe);
        }
        String name = a.string("name", INLINE);
        AuditSettings.Builder settings = SETTINGS.apply(a, AuditSettings.builder().reportFormat(ReportFormat.JSON), json,
                (row, value) -> true);
        try {
            RetryAudit auditor = RetryAudit.of(settings(settings).build());
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
            throw new ToolError(e.diagnostic(SettingArgs::hint));
        } catch (IOException e) {
            throw new ToolError("cannot read the trace: " + Escaping.controls(String.valueOf(e.getMessage())));
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
}
