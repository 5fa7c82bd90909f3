package dev.retryaudit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Times;
import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.RecordedRequest;
import dev.retryaudit.probe.RecordedTrace;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.probe.TraceWriter;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import dev.retryaudit.rules.RuleSelection;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code create_probe_run}, {@code read_probe_trace} and {@code finish_probe_run}: the {@code probe} command
 * split in three, so that an agent can point its own HTTP client at the probe between the calls. The scenario
 * has the {@code probe} options' ranges; the trace is the probe's own retry-trace document; the verdict is that
 * trace audited as {@code probe} audits it.
 */
final class ProbeTools {
    static final String CREATE_SCHEMA = """
            {"type": "object", "additionalProperties": false,
             "properties": {
              "status": {"type": "integer", "enum": [429, 503], "description": "Status of the failing responses (default 429)."},
              "failures": {"type": "integer", "minimum": 1, "maximum": 10, "description": "GETs that fail before the first 200 (default 2)."},
              "delay_seconds": {"type": "integer", "minimum": 0, "maximum": 600, "description": "The Retry-After delay (default 2)."},
              "header_format": {"type": "string", "enum": [%s], "description": "How Retry-After is written (default seconds)."},
              "max_requests": {"type": "integer", "minimum": 2, "maximum": 10000, "description": "GETs answered before the probe answers 410 (default 32)."}
             }}""";
    static final String RUN_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["run_id"],
             "properties": {"run_id": {"type": "string", "description": "The id create_probe_run returned."}}}""";
    static final String FINISH_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["run_id"],
             "properties": {
              "run_id": {"type": "string", "description": "The id create_probe_run returned."},
              "enable": {"type": "array", "items": {"type": "string"}, "description": "Rule ids or families to enable."},
              "disable": {"type": "array", "items": {"type": "string"}, "description": "Rule ids or families to disable."},
              "fail_on": {"type": "string", "description": "Lowest severity that fails the audit (default error)."}
             }}""";

    private static final int TEXT_LINES = 20;

    private final Auditing auditing;
    private final ProbeRuns runs;
    private final AuditTool audit;
    private final ObjectMapper json;

    ProbeTools(Auditing auditing, ProbeRuns runs, AuditTool audit, ObjectMapper json) {
        this.auditing = auditing;
        this.runs = runs;
        this.audit = audit;
        this.json = json;
    }

    static String createSchema() {
        return String.format(CREATE_SCHEMA, String.join(", ", HeaderFormat.ids().stream().map(v -> "\"" + v + "\"").toList()));
    }

    AuditTool.Result create(Map<String, Object> arguments) throws ToolError {
        Args a = new Args(arguments, Set.of("status", "failures", "delay_seconds", "header_format", "max_requests"));
        long status = a.integer("status", 429, 503, 429);
        if (status != 429 && status != 503) {
            throw new ToolError("invalid value for 'status': expected 429 or 503");
        }
        int failures = (int) a.integer("failures", 1, 10, 2);
        long delay = a.integer("delay_seconds", 0, 600, 2);
        String formatId = a.string("header_format", "seconds");
        HeaderFormat format = Args.choice("header_format", formatId, HeaderFormat.parse(formatId), HeaderFormat.ids());
        long maxRequests = a.integer("max_requests", 2, 10_000, 32);
        if (maxRequests <= failures) {
            throw new ToolError("invalid value for 'max_requests': must be between " + (failures + 1)
                    + " and 10000 (more than 'failures')");
        }
        Scenario scenario = new Scenario((int) status, failures, delay, format, (int) maxRequests);
        ProbeRuns.Run run = runs.create(scenario, Limits.DEFAULTS.attemptsPerOperation());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("run_id", run.id());
        out.put("url", run.server().url());
        out.put("expires_at", Times.format(run.expiresMillis()));
        out.put("scenario", Map.of("status", status, "failures", failures, "delay_seconds", delay,
                "header_format", format.id(), "max_requests", maxRequests));
        return new AuditTool.Result("probe run " + run.id() + " serves " + run.server().url() + ": the first " + failures
                + " GETs get " + status + " with Retry-After (" + delay + " s, " + format.id() + "), then 200; "
                + "read_probe_trace shows what it saw, finish_probe_run gives the verdict; it expires at "
                + Times.format(run.expiresMillis()), out);
    }

    AuditTool.Result read(Map<String, Object> arguments) throws ToolError {
        Args a = new Args(arguments, Set.of("run_id"));
        RecordedTrace trace = runs.get(a.required("run_id")).server().trace();
        return new AuditTool.Result(describe(trace), document(trace));
    }

    AuditTool.Result finish(Map<String, Object> arguments) throws ToolError {
        Args a = new Args(arguments, Set.of("run_id", "enable", "disable", "fail_on"));
        String id = a.required("run_id");
        List<String> enable = a.strings("enable");
        List<String> disable = a.strings("disable");
        String problem = RuleSelection.problem(enable, disable, "'enable'", "'disable'");
        if (problem != null) {
            throw new ToolError(problem);
        }
        String failOnId = a.string("fail_on", "error");
        FailOn failOn = Args.choice("fail_on", failOnId, FailOn.parse(failOnId), FailOn.ids());
        RecordedTrace trace = runs.finish(id).server().trace();
        Report report;
        try {
            report = auditing.audit(InputFormat.RETRY_TRACE, Policy.DEFAULTS, RuleSelection.of(Policy.DEFAULTS, enable,
                    disable), failOn, new InputSet.Source("probe-" + id, null), new ByteArrayInputStream(bytes(trace)));
        } catch (InputException e) {
            throw new ToolError("the probe's own trace was rejected: " + e.diagnostic());
        }
        AuditTool.Result r = audit.result(report);
        return new AuditTool.Result(describe(trace) + "\n" + r.text(), r.structured());
    }

    /** One line per GET the probe saw (at most a screenful), then how many and whether one reached success. */
    private static String describe(RecordedTrace t) {
        StringBuilder b = new StringBuilder();
        List<RecordedRequest> gets = t.attempts();
        for (RecordedRequest r : gets.subList(0, Math.min(gets.size(), TEXT_LINES))) {
            b.append("GET #").append(r.sequence()).append(" at ").append(Times.format(r.receivedMillis())).append(": ")
                    .append(r.status()).append(r.retryAfter() == null ? "" : " Retry-After: " + r.retryAfter()).append('\n');
        }
        return b.append(gets.size()).append(gets.size() == 1 ? " GET" : " GETs").append(", ")
                .append(t.otherRequests().size()).append(" other requests; ")
                .append(t.reachedSuccess() ? "reached success" : "no success yet").toString();
    }

    private Map<?, ?> document(RecordedTrace t) throws ToolError {
        try {
            return json.readValue(bytes(t), Map.class);
        } catch (IOException e) {
            throw new ToolError("cannot read the probe's trace: " + e.getMessage());
        }
    }

    private static byte[] bytes(RecordedTrace t) throws ToolError {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            TraceWriter.write(t, out);
        } catch (IOException e) {
            throw new ToolError("cannot write the probe's trace: " + e.getMessage());
        }
        return out.toByteArray();
    }
}
