package dev.retryaudit.input.foreign.retrytrace;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.http.AskedWait;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Retry Trace format in its four shapes: a trace (one run at the top level),
 * a published finding record (the run under {@code evidence}), a curl comparison report
 * ({@code "format": "retry-trace-curl-comparison-v1"}, one run per observation), and the local curl
 * diagnostic report ({@link CurlDiagnostic}, one run per case). Each run becomes one operation.
 */
public final class RetryTraceReader implements TraceReader {
    /** The {@code format} value of a curl comparison report. */
    public static final String COMPARISON_FORMAT = "retry-trace-curl-comparison-v1";

    /** The tool of an operation read from a trace that names no client. */
    public static final String TOOL = RetryTraceDraft.TOOL;

    /**
     * The wait an attempt's answer asked for, as the rules judge it: {@code retry-after-ms} (in whole seconds,
     * rounded up) wins over {@code Retry-After}, as the clients that read it do; null when it asked none.
     */
    public static String wait(String retryAfter, Long retryAfterMs) {
        return AskedWait.of(retryAfter, retryAfterMs);
    }

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        JsonCursor c = ctx.open();
        if (c.next() == null) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", "empty input: expected a retry trace");
        }
        c.expectObject("a retry trace");
        Location root = ctx.location(c, "");
        RetryTraceDraft top = new RetryTraceDraft();
        RetryTraceDraft evidence = null;
        String id = null;
        String format = null;
        List<Operation> observations = null;
        CurlDiagnostic diagnostic = new CurlDiagnostic();
        Integer status = null;
        Long delay = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            if (name.equals("status")) {
                status = c.optInt(100, 599);
                continue;
            }
            if (name.equals("delay_seconds")) {
                delay = c.optLong(0, Long.MAX_VALUE);
                continue;
            }
            if (diagnostic.bind(name, c, ctx) || top.bind(name, c, ctx, "")) {
                continue;
            }
            switch (name) {
                case "id" -> id = c.optString();
                case "title" -> c.optString();
                case "evidence" -> evidence = readEvidence(c, ctx);
                case "format" -> format = comparisonFormat(c);
                case "observations" -> observations = readObservations(c, ctx);
                default -> c.skip();
            }
        }
        if (c.next() != null) {
            throw c.error("$", "trailing content after the JSON document");
        }
        List<Operation> ops = diagnostic.seen() ? diagnostic.operations(root, status, delay)
                : operations(ctx, root, top, evidence, id, format, observations);
        for (Operation op : ops) {
            ctx.sink().accept(op);
        }
    }

    private static List<Operation> operations(ReadContext ctx, Location root, RetryTraceDraft top,
            RetryTraceDraft evidence, String id, String format, List<Operation> observations) throws InputException {
        if (format != null || observations != null) {
            if (format == null || observations == null) {
                throw Drafts.missing(root, format == null ? "format" : "observations");
            }
            return observations;
        }
        if (evidence != null) {
            if (id == null) {
                throw Drafts.missing(root, "id");
            }
            return single(evidence.build(id, root));
        }
        if (top.runId == null || !top.hasAttempts()) {
            throw Drafts.missing(root, top.runId == null ? "run_id" : "attempts");
        }
        return single(top.build(top.client != null ? top.client : top.runId, root));
    }

    private static List<Operation> single(Operation op) {
        return op == null ? List.of() : List.of(op);
    }

    private static RetryTraceDraft readEvidence(JsonCursor c, ReadContext ctx) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectObject("the evidence of a finding record");
        Location at = ctx.location(c, "/evidence");
        RetryTraceDraft d = new RetryTraceDraft();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            if (!d.bind(name, c, ctx, "/evidence")) {
                c.skip();
            }
        }
        if (!d.hasAttempts()) {
            throw Drafts.missing(at, "attempts");
        }
        return d;
    }

    private static String comparisonFormat(JsonCursor c) throws IOException, InputException {
        String s = c.optString();
        if (s != null && !s.equals(COMPARISON_FORMAT)) {
            throw c.error("unsupported format: this reader reads " + COMPARISON_FORMAT);
        }
        return s;
    }

    /** Each observation is one run; its id is its {@code mode} (or its position) after the source name. */
    private static List<Operation> readObservations(JsonCursor c, ReadContext ctx) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectArray("the observations");
        List<Operation> ops = new ArrayList<>();
        int index = 0;
        while (c.next() != JsonToken.END_ARRAY) {
            c.expectObject("an observation");
            String pointer = "/observations/" + index;
            Location at = ctx.location(c, pointer);
                RetryTraceDraft d = new RetryTraceDraft();
            String mode = null;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                c.value();
                if (name.equals("mode")) {
                    mode = c.optString();
                } else if (!d.bind(name, c, ctx, pointer)) {
                    c.skip();
                }
            }
            if (!d.hasAttempts()) {
                throw Drafts.missing(at, "attempts");
            }
            String id = ctx.source() + "#" + (mode != null ? mode : "observation-" + (index + 1));
            Operation op = d.build(id, at);
            if (op != null) {
                ops.add(op);
            }
            index++;
        }
        return ops;
    }
}
