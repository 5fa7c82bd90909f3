package dev.retryaudit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.Setting;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.ProbeRun;
import dev.retryaudit.probe.RecordedRequest;
import dev.retryaudit.probe.RecordedTrace;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.probe.TraceWriter;
import dev.retryaudit.probe.ProbeCatalogue;
import dev.retryaudit.report.Report;
import dev.retryaudit.text.Times;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code create_probe_run}, {@code read_probe_trace} and {@code finish_probe_run}: the {@code probe} command
 * split in three, so that an agent can point its own HTTP client at the probe between the calls. The scenario
 * has the {@code probe} options' ranges; the trace is the probe's own retry-trace document; the verdict is that
 * trace's operations audited and judged as {@code probe} does ({@link ProbeRun}).
 */
final class ProbeTools {
    static final String CREATE_SCHEMA = """
            {"type": "object", "additionalProperties": false,
             "properties": {
              "method": {"type": "string", "description": "The method the scenario answers, any HTTP method (default GET)."},
              "status": {"type": "integer", "enum": [429, 503, 422], "description": "Status of the failing responses (default 429)."},
              "failures": {"type": "integer", "minimum": %d, "maximum": %d, "description": "Requests that fail before the first 200 (default 3)."},
              "delays": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": %d}, "minItems": 1, "maxItems": %d,
                         "description": "The Retry-After delays in seconds, used in turn (default [3, 1, 4])."},
              "header_format": {"type": "string", "enum": [%s], "description": "How Retry-After is written (default seconds)."},
              "stall_seconds": {"type": "integer", "minimum": 0, "maximum": %d, "description": "Instead of failing, commit the failing requests and hold their 200 this long (default 0: no stall)."},
              "key_header": {"type": "string", "description": "The idempotency key header a write is deduplicated by (default Idempotency-Key)."},
              "dedupe": {"type": "boolean", "description": "Whether a write whose key was already committed is answered with the first result and not committed again (default true)."},
              "max_requests": {"type": "integer", "minimum": %d, "maximum": %d, "description": "Requests answered before the probe answers 410 (default 32)."}
             }}""";
    static final String RUN_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["run_id"],
             "properties": {"run_id": {"type": "string", "description": "The id create_probe_run returned."}}}""";
    /** The settings finish_probe_run takes: the rule selection and the fail-on level. */
    private static final SettingArgs FINISH_SETTINGS = new SettingArgs(List.of(Setting.ENABLE, Setting.DISABLE,
            Setting.FAIL_ON));

    private static final int TEXT_LINES = 20;

    private final ProbeRuns runs;
    private final AuditTool audit;
    private final ObjectMapper json;

    ProbeTools(ProbeRuns runs, AuditTool audit, ObjectMapper json) {
        this.runs = runs;
        this.audit = audit;
        this.json = json;
    }

    /** The input schema of finish_probe_run: the run's id and the settings rows it takes. */
    static String finishSchema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object").put("additionalProperties", false);
        schema.putArray("required").add("run_id");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("run_id").put("type", "string").put("description", "The id create_probe_run returned.");
        FINISH_SETTINGS.schema(properties);
        return schema.toString();
    }

    static String createSchema() {
        return String.format(CREATE_SCHEMA, Scenario.MIN_FAILURES, Scenario.MAX_FAILURES, Scenario.MAX_DELAY_SECONDS,
                Scenario.MAX_DELAYS, String.join(", ", HeaderFormat.ids().stream().map(v -> "\"" + v + "\"").toList()),
                Scenario.MAX_STALL_SECONDS, Scenario.MIN_FAILURES + 1, Scenario.MAX_REQUESTS);
    }

    AuditTool.Result create(Map<String, Object> arguments) throws ToolError {
        Args a = new Args(arguments, Set.of("method", "status", "failures", "delays", "header_format", "stall_seconds",
                "key_header", "dedupe", "max_requests"));
        String method = a.string("method", "GET");
        if (!Scenario.isToken(method)) {
            throw new ToolError("invalid value for 'method': expected an HTTP method such as GET or POST");
        }
        long status = a.integer("status", 100, 599, 429);
        if (!Scenario.STATUSES.contains((int) status)) {
            throw new ToolError("invalid value for 'status': expected 429, 503 or 422");
        }
        int failures = (int) a.integer("failures", Scenario.MIN_FAILURES, Scenario.MAX_FAILURES, 3);
        List<Long> delays = a.integers("delays", 0, Scenario.MAX_DELAY_SECONDS, List.of(3L, 1L, 4L));
        if (delays.isEmpty() || delays.size() > Scenario.MAX_DELAYS) {
            throw new ToolError("invalid value for 'delays': from 1 to " + Scenario.MAX_DELAYS + " delays");
        }
        String formatId = a.string("header_format", "seconds");
        HeaderFormat format = Args.choice("header_format", formatId, HeaderFormat.parse(formatId), HeaderFormat.ids());
        long stall = a.integer("stall_seconds", 0, Scenario.MAX_STALL_SECONDS, 0);
        String keyHeader = a.string("key_header", "Idempotency-Key");
        if (!Scenario.isToken(keyHeader)) {
            throw new ToolError("invalid value for 'key_header': expected a header name such as Idempotency-Key");
        }
        boolean dedupe = a.bool("dedupe", true);
        long maxRequests = a.integer("max_requests", Scenario.MIN_FAILURES + 1, Scenario.MAX_REQUESTS, 32);
        if (maxRequests <= failures) {
            throw new ToolError("invalid value for 'max_requests': must be between " + (failures + 1)
                    + " and " + Scenario.MAX_REQUESTS + " (more than 'failures')");
        }
        Scenario scenario = new Scenario(method, (int) status, failures, delays, format, (int) maxRequests, stall, dedupe,
                keyHeader);
        ProbeRuns.Run run = runs.create(scenario, Limits.DEFAULTS.attemptsPerOperation());
        Map<String, Object> served = new LinkedHashMap<>();
        served.put("method", method);
        served.put("status", status);
        served.put("failures", failures);
        served.put("delays", delays);
        served.put("header_format", format.id());
        served.put("stall_seconds", stall);
        served.put("key_header", keyHeader);
        served.put("dedupe", dedupe);
        served.put("max_requests", maxRequests);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("run_id", run.id());
        out.put("url", run.server().url());
        out.put("expires_at", Times.format(run.expiresMillis()));
        out.put("scenario", served);
        String answer = scenario.stalls() ? "are committed and held " + stall + " s before their 200"
                : scenario.rejects() ? "get 422" : "get " + status + " with Retry-After (" + scenario.schedule() + " s, "
                        + format.id() + ")";
        return new AuditTool.Result("probe run " + run.id() + " serves " + run.server().url() + ": the first " + failures
                + " " + method + " requests " + answer + ", then 200; read_probe_trace shows what it saw, "
                + "finish_probe_run gives the verdict; it expires at " + Times.format(run.expiresMillis()), out);
    }

    AuditTool.Result read(Map<String, Object> arguments) throws ToolError {
        Args a = new Args(arguments, Set.of("run_id"));
        RecordedTrace trace = runs.get(a.required("run_id")).server().trace();
        return new AuditTool.Result(describe(trace), document(trace));
    }

    AuditTool.Result finish(Map<String, Object> arguments) throws ToolError {
        Set<String> known = new HashSet<>(FINISH_SETTINGS.names());
        known.add("run_id");
        Args a = new Args(arguments, known);
        String id = a.required("run_id");
        String probe = ProbeCatalogue.problem(a.strings("enable"), "'enable'", a.strings("disable"), "'disable'", true);
        if (probe != null) {
            throw new ToolError(probe);
        }
        AuditSettings.Builder settings = AuditTool.settings(FINISH_SETTINGS.apply(a, AuditSettings.builder(), json,
                (row, name) -> row != Setting.ENABLE || !ProbeCatalogue.names(name)));
        ProbeRuns.Run open = runs.finish(id);
        long served = open.servedSeconds();
        ProbeRun run = new ProbeRun(open.server().url(), open.server().trace(), List.of(), null, served);
        RecordedTrace trace = run.trace();
        Report judged = run.audit(settings.build(), "probe-" + id, null);
        AuditTool.Result r = audit.result(judged);
        return new AuditTool.Result(describe(trace) + "\n" + judged.probe().describe() + "\n" + r.text(), r.structured());
    }

    /** One line per request of the scenario's method the probe saw (at most a screenful), then how many and whether one reached success. */
    private static String describe(RecordedTrace t) {
        StringBuilder b = new StringBuilder();
        List<RecordedRequest> gets = t.attempts();
        for (RecordedRequest r : gets.subList(0, Math.min(gets.size(), TEXT_LINES))) {
            b.append(t.scenario().method()).append(" #").append(r.sequence()).append(" at ").append(Times.format(r.receivedMillis())).append(": ")
                    .append(r.status()).append(r.ask() == null || r.ask().retryAfter() == null ? ""
                            : " Retry-After: " + r.ask().retryAfter()).append('\n');
        }
        return b.append(gets.size()).append(' ').append(t.scenario().method()).append(gets.size() == 1 ? " request" : " requests")
                .append(", ")
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
