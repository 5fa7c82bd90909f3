package dev.retryaudit.probe;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.text.Times;
import dev.retryaudit.text.Wire;
import dev.retryaudit.json.Json;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link RecordedTrace} in the retry-trace format that
 * the Retry Trace reader reads: the hosted service's fields, plus the
 * probe's own (the method, the client command, the delay schedule, the request journal and the
 * server's commit facts) and {@code other_requests}, the requests of other methods.
 */
public final class TraceWriter {
    private TraceWriter() {
    }

    /** Where a JSON value of a written trace starts: the 1-based line and column of its first character. */
    public record Position(long line, long column) {
    }

    /**
     * Writes {@code t} to {@code out}, which stays open, and returns where each attempt's object starts, in
     * order: the positions a reader of the written trace reports for them. The document starts at 1:1.
     */
    public static List<Position> write(RecordedTrace t, OutputStream out) throws IOException {
        Scenario s = t.scenario();
        PositionCounter counter = new PositionCounter(out);
        List<Position> positions = new ArrayList<>();
        try (JsonGenerator g = Json.generator(counter)) {
            g.writeStartObject();
            g.writeStringField("run_id", t.runId());
            g.writeStringField("created_at", Times.format(t.createdMillis()));
            g.writeNullField("expires_at");
            g.writeStringField("client", t.client());
            g.writeStringField("method", s.method());
            g.writeNumberField("status", s.status());
            g.writeNumberField("failures", s.failures());
            g.writeStringField("header_format", s.headerFormat().id());
            g.writeNumberField("delay_seconds", s.delays().get(0));
            g.writeFieldName("delays_seconds");
            Json.value(g, s.delays());
            g.writeNumberField("stall_seconds", s.stallSeconds());
            g.writeStringField("key_header", s.keyHeader());
            g.writeBooleanField("dedupes_by_key", s.dedupe());
            g.writeArrayFieldStart("attempts");
            for (int i = 0; i < t.attempts().size(); i++) {
                g.writeStartObject();
                g.flush();
                positions.add(counter.last());
                writeAttempt(g, t, i);
            }
            g.writeEndArray();
            g.writeBooleanField("reached_success", t.reachedSuccess());
            g.writeNumberField("unrecorded_requests", t.unrecorded());
            g.writeArrayFieldStart("other_requests");
            for (RecordedRequest r : t.otherRequests()) {
                g.writeStartObject();
                g.writeStringField("received", Times.format(r.receivedMillis()));
                g.writeStringField("method", r.method());
                g.writeStringField("path", r.path());
                g.writeNumberField("connection", r.connection());
                g.writeNumberField("status", r.status());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("limitations");
            g.writeString("Arrival times are the probe's clock when each request arrived; gaps include connection"
                    + " set-up and the client's own scheduling.");
            if (s.headerFormat() == HeaderFormat.HTTP_DATE) {
                g.writeString("HTTP-date has whole-second precision: the date is the arrival plus the delay rounded up"
                        + " to the next whole second, so asked_ms is the delay plus up to a second.");
            }
            if (t.unrecorded() > 0) {
                g.writeString(t.unrecorded() + " further requests were answered but not recorded.");
            }
            if (t.unfinished() > 0) {
                g.writeString(t.unfinished() + " further requests never arrived whole (cut off, timed out or not"
                        + " HTTP/1.x) and are not attempts.");
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeRaw('\n');
        }
        return positions;
    }

    private static void writeAttempt(JsonGenerator g, RecordedTrace t, int i) throws IOException {
        RecordedRequest r = t.attempts().get(i);
        g.writeNumberField("sequence", r.sequence());
        g.writeStringField("received", Times.format(r.receivedMillis()));
        g.writeStringField("path", r.path());
        g.writeNumberField("connection", r.connection());
        g.writeNumberField("status", r.status());
        g.writeStringField("retry_after", r.retryAfter());
        g.writeStringField("retry_after_ms", r.ask() == null ? null : r.ask().retryAfterMs());
        g.writeFieldName("asked_ms");
        Json.value(g, r.ask() == null ? null : r.ask().askedMillis());
        g.writeFieldName("gap_from_previous_ms");
        Json.value(g, i == 0 ? null : r.receivedMillis() - t.attempts().get(i - 1).receivedMillis());
        g.writeStringField("idempotency_key", r.idempotencyKey());
        g.writeStringField("request_hash", r.requestHash());
        g.writeNumberField("content_length", r.contentLength());
        g.writeStringField("commit_state", r.commitState() == null ? null : Wire.name(r.commitState(), '_'));
        g.writeStringField("commit_state_source", r.commitState() == null ? null : "server");
        if (r.replayOf() > 0) {
            g.writeNumberField("replay_of", r.replayOf());
        }
        if (r.stalledMillis() > 0) {
            g.writeNumberField("stalled_ms", r.stalledMillis());
            g.writeStringField("outcome", t.gaveUp(i) ? "timeout" : null);
        }
        g.writeEndObject();
    }

    /** Passes bytes on and tracks the line and column of the last one (JSON whitespace and the structure are ASCII). */
    private static final class PositionCounter extends FilterOutputStream {
        private long line = 1;
        private long column;

        PositionCounter(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                count(b[i]);
            }
        }

        private void count(byte b) {
            if (b == '\n') {
                line++;
                column = 0;
            } else if ((b & 0xC0) != 0x80) {
                column++;
            }
        }

        Position last() {
            return new Position(line, column);
        }
    }
}
