package dev.retryaudit.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.json.Json;
import dev.retryaudit.json.PrettyBytes;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * The JSON report, for scripts. An input's {@code notes}, when it has any, say how its reader read it. With {@code --baseline} a top-level {@code baseline}
 * object names the baseline and counts the findings it suppressed, which are not listed.
 */
final class JsonReportWriter implements ReportWriter {
    @Override
    public void write(Report r, OutputStream out) throws IOException {
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", 1);
            writeTool(g, r.toolName(), r.toolVersion());
            writeInputs(g, r.inputs());
            writeSummary(g, r);
            if (r.probe() != null) {
                writeProbe(g, r.probe());
            }
            g.writeFieldName("findings");
            writeFindings(g, r.findings(), out);
            if (r.baseline() != null) {
                g.writeObjectFieldStart("baseline");
                g.writeStringField("source", r.baseline());
                g.writeNumberField("suppressed", r.suppressed());
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    /** The error object: {@code {"version": 1, "error": {...}}}. */
    @Override
    public void writeError(InputFailure failure, OutputStream out) throws IOException {
        var e = failure.error();
        ErrorReport.write(out, failure.exitCode(), e.explanation(), e.source(), e.line(), e.column(), e.path(),
                e.limit());
    }

    /**
     * The JSON report of findings written elsewhere (JSON Lines of {@link #writeFinding}, say): its
     * {@code version}, {@code tool}, {@code inputs} (with their notes) and {@code summary} as the report
     * writes them, then a {@code findings} object of the string members {@code findingsAt} (where they are).
     */
    static void writeSummary(OutputStream out, String toolName, String toolVersion, List<InputSummary> inputs,
            Map<Severity, Long> counts, FailOn failOn, Map<String, String> findingsAt) throws IOException {
        long operations = inputs.stream().mapToLong(InputSummary::operations).sum();
        long attempts = inputs.stream().mapToLong(InputSummary::attempts).sum();
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", 1);
            writeTool(g, toolName, toolVersion);
            writeInputs(g, inputs);
            writeSummary(g, operations, attempts, counts, failOn, failOn.passes(counts));
            g.writeObjectFieldStart("findings");
            for (Map.Entry<String, String> e : findingsAt.entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    private static void writeTool(JsonGenerator g, String name, String version) throws IOException {
        g.writeObjectFieldStart("tool");
        g.writeStringField("name", name);
        g.writeStringField("version", version);
        g.writeEndObject();
    }

    private static void writeInputs(JsonGenerator g, List<InputSummary> inputs) throws IOException {
        g.writeArrayFieldStart("inputs");
        for (InputSummary in : inputs) {
            g.writeStartObject();
            g.writeStringField("source", in.source());
            g.writeStringField("format", in.format());
            g.writeNumberField("operations", in.operations());
            g.writeNumberField("attempts", in.attempts());
            if (!in.notes().isEmpty()) {
                g.writeArrayFieldStart("notes");
                for (InputNote n : in.notes()) {
                    g.writeStartObject();
                    g.writeStringField("source", n.source());
                    g.writeNumberField("line", n.line());
                    g.writeNumberField("column", n.column());
                    g.writeStringField("message", n.message());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void writeSummary(JsonGenerator g, Report r) throws IOException {
        writeSummary(g, r.operations(), r.attempts(), r.counts(), r.failOn(), r.passed());
    }

    private static void writeSummary(JsonGenerator g, long operations, long attempts, Map<Severity, Long> counts,
            FailOn failOn, boolean passed) throws IOException {
        g.writeObjectFieldStart("summary");
        g.writeNumberField("operations", operations);
        g.writeNumberField("attempts", attempts);
        g.writeNumberField("retries", attempts - operations);
        g.writeObjectFieldStart("findings");
        for (Map.Entry<Severity, Long> e : counts.entrySet()) {
            g.writeNumberField(e.getKey().id(), e.getValue());
        }
        g.writeEndObject();
        g.writeStringField("fail_on", failOn.id());
        g.writeBooleanField("passed", passed);
        g.writeEndObject();
    }

    private static void writeProbe(JsonGenerator g, ProbeFacts p) throws IOException {
        g.writeObjectFieldStart("probe");
        g.writeStringField("url", p.url());
        ProbeFacts.Served s = p.scenario();
        g.writeObjectFieldStart("scenario");
        g.writeStringField("method", s.method());
        g.writeNumberField("status", s.status());
        g.writeNumberField("failures", s.failures());
        g.writeFieldName("delays_seconds");
        Json.value(g, s.delays());
        g.writeStringField("header_format", s.headerFormat());
        g.writeNumberField("stall_seconds", s.stallSeconds());
        g.writeBooleanField("dedupes_by_key", s.dedupesByKey());
        g.writeStringField("key_header", s.keyHeader());
        g.writeEndObject();
        ProbeFacts.ClientEnd c = p.client();
        g.writeFieldName("command");
        Json.value(g, c.command());
        g.writeFieldName("exit_code");
        Json.value(g, c.exitCode());
        g.writeBooleanField("timed_out", c.timedOut());
        g.writeNumberField("timeout_seconds", c.timeoutSeconds());
        ProbeFacts.Counts n = p.counts();
        g.writeNumberField("attempts", n.attempts());
        g.writeNumberField("other_requests", n.otherRequests());
        g.writeNumberField("unrecorded_requests", n.unrecorded());
        g.writeNumberField("unfinished_requests", n.unfinished());
        g.writeNumberField("connections", n.connections());
        g.writeBooleanField("reached_success", n.reachedSuccess());
        g.writeStringField("verdict", p.verdict());
        g.writeStringField("verdict_reason", p.reason());
        g.writeStringField("obeyed_header", p.obeyed());
        g.writeStringField("trace", p.traceFile());
        g.writeArrayFieldStart("requests");
        for (ProbeFacts.Request r : p.requests()) {
            g.writeStartObject();
            g.writeNumberField("sequence", r.sequence());
            g.writeStringField("received", r.received());
            g.writeNumberField("connection", r.connection());
            ProbeFacts.Answer a = r.answer();
            g.writeNumberField("status", a.status());
            g.writeStringField("retry_after", a.retryAfter());
            g.writeStringField("retry_after_ms", a.retryAfterMs());
            g.writeFieldName("asked_ms");
            Json.value(g, a.askedMs());
            g.writeFieldName("gap_ms");
            Json.value(g, r.gapMs());
            g.writeStringField("idempotency_key", r.sent().idempotencyKey());
            g.writeStringField("request_hash", r.sent().requestHash());
            g.writeNumberField("content_length", r.sent().contentLength());
            g.writeStringField("commit_state", a.commitState());
            g.writeNumberField("stalled_ms", a.stalledMs());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * The findings array. Past the first few thousand findings it is most of the report, so it is
     * rendered in {@link Chunks}, each by a generator of its own standing at the array's depth, and
     * copied to {@code out} as it comes: to {@code g} the array is one raw value.
     */
    private static void writeFindings(JsonGenerator g, List<Finding> findings, OutputStream out) throws IOException {
        if (findings.isEmpty()) {
            g.writeStartArray();
            g.writeEndArray();
            return;
        }
        g.writeRawValue("");
        g.flush();
        Chunks.write(findings, (chunk, first, o) -> writeChunk(chunk, first, first + chunk.size() == findings.size(), o),
                out);
    }

    /**
     * Findings {@code first..} of the array: its {@code [} for the first chunk, a {@code ,} before any other, its {@code ]} after the last,
     * laid out as the report's generator lays out a value at the array's depth. Written straight into bytes, since past a few thousand
     * findings they are most of the report: the field names and the finding's fixed parts are constant ASCII.
     */
    private static void writeChunk(List<Finding> chunk, int first, boolean last, OutputStream out) throws IOException {
        PrettyBytes b = new PrettyBytes(out);
        for (int i = 0; i < chunk.size(); i++) {
            b.ascii(first == 0 && i == 0 ? '[' : ',');
            writeFinding(b, chunk.get(i));
        }
        if (last) {
            b.indent(1);
            b.ascii(']');
        }
        b.flush();
    }

    /** One finding of the findings array, as {@link #writeFinding(JsonGenerator, Finding)} writes it there. */
    private static void writeFinding(PrettyBytes b, Finding f) throws IOException {
        b.ascii("\n    {\n      \"rule\": ");
        b.string(f.rule());
        b.ascii(",\n      \"severity\": ");
        b.string(f.severity().id());
        b.ascii(",\n      \"operation\": ");
        b.string(f.operation());
        b.ascii(",\n      \"attempt\": ");
        b.number(f.attempt());
        b.ascii(",\n      \"tool\": ");
        b.string(f.tool());
        b.ascii(",\n      \"run\": ");
        b.string(f.run());
        b.ascii(",\n      \"message\": ");
        b.string(f.message());
        b.ascii(",\n      \"evidence\": {");
        Evidence e = f.evidence();
        for (int i = 0; i < e.size(); i++) {
            if (i > 0) {
                b.ascii(',');
            }
            b.indent(4);
            b.string(e.key(i));
            b.ascii(": ");
            b.value(e.value(i), 4);
        }
        if (e.size() > 0) {
            b.indent(3);
        }
        Location l = f.location();
        b.ascii("},\n      \"location\": {\n        \"source\": ");
        b.string(l.source());
        b.ascii(",\n        \"line\": ");
        b.number(l.line());
        b.ascii(",\n        \"column\": ");
        b.number(l.column());
        b.ascii(",\n        \"pointer\": ");
        b.string(l.pointer());
        b.ascii("\n      },\n      \"fingerprint\": ");
        b.string(f.fingerprint());
        b.ascii("\n    }");
    }

    /** One finding as the report writes it, for a caller that writes findings one by one (JSON Lines). */
    static void writeFinding(JsonGenerator g, Finding f) throws IOException {
        g.writeStartObject();
        g.writeStringField("rule", f.rule());
        g.writeStringField("severity", f.severity().id());
        g.writeStringField("operation", f.operation());
        g.writeFieldName("attempt");
        Json.value(g, f.attempt());
        g.writeStringField("tool", f.tool());
        g.writeStringField("run", f.run());
        g.writeStringField("message", f.message());
        g.writeFieldName("evidence");
        Json.evidence(g, f.evidence());
        Location l = f.location();
        g.writeObjectFieldStart("location");
        g.writeStringField("source", l.source());
        g.writeNumberField("line", l.line());
        g.writeNumberField("column", l.column());
        g.writeStringField("pointer", l.pointer());
        g.writeEndObject();
        g.writeStringField("fingerprint", f.fingerprint());
        g.writeEndObject();
    }
}
