package dev.retryaudit.probe;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.model.Times;
import dev.retryaudit.report.Json;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a {@link RecordedTrace} in the retry-trace format that
 * {@link dev.retryaudit.input.RetryTraceReader} reads, plus {@code other_requests}: the requests
 * of other methods, which that format has no place for and readers skip.
 */
public final class TraceWriter {
    private TraceWriter() {
    }

    public static void write(RecordedTrace t, OutputStream out) throws IOException {
        Scenario s = t.scenario();
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartObject();
            g.writeStringField("run_id", t.runId());
            g.writeStringField("created_at", Times.format(t.createdMillis()));
            g.writeNullField("expires_at");
            g.writeNumberField("status", s.status());
            g.writeNumberField("failures", s.failures());
            g.writeStringField("header_format", s.headerFormat().id());
            g.writeNumberField("delay_seconds", s.delaySeconds());
            g.writeArrayFieldStart("attempts");
            long previous = Times.NONE;
            for (RecordedRequest r : t.attempts()) {
                g.writeStartObject();
                g.writeNumberField("sequence", r.sequence());
                g.writeStringField("received", Times.format(r.receivedMillis()));
                g.writeNumberField("status", r.status());
                g.writeStringField("retry_after", r.retryAfter());
                g.writeFieldName("gap_from_previous_ms");
                if (Times.present(previous)) {
                    g.writeNumber(r.receivedMillis() - previous);
                } else {
                    g.writeNull();
                }
                previous = r.receivedMillis();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeBooleanField("reached_success", t.reachedSuccess());
            g.writeArrayFieldStart("other_requests");
            for (RecordedRequest r : t.otherRequests()) {
                g.writeStartObject();
                g.writeStringField("received", Times.format(r.receivedMillis()));
                g.writeStringField("method", r.method());
                g.writeNumberField("status", r.status());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("limitations");
            g.writeString("Arrival times are the probe's clock when each request arrived; gaps include connection"
                    + " set-up and the client's own scheduling.");
            if (s.headerFormat() == HeaderFormat.HTTP_DATE) {
                g.writeString("HTTP-date has whole-second precision: the date is the receipt time truncated to whole"
                        + " seconds plus the delay, so a client may come back up to a second sooner than the delay.");
            }
            if (t.unrecorded() > 0) {
                g.writeString(t.unrecorded() + " further requests were answered but not recorded.");
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }
}
