package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.Rfc3339;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Clock;
import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceWriterTest {
    private static final Scenario SCENARIO = new Scenario(429, 2, 2, HeaderFormat.HTTP_DATE, 32);

    @Test
    void writesTheRetryTraceShape() throws Exception {
        String json = write(trace());

        assertThat(json).isEqualTo("""
                {
                  "run_id": "run-1",
                  "created_at": "2026-09-07T10:10:00.000Z",
                  "expires_at": null,
                  "status": 429,
                  "failures": 2,
                  "header_format": "http-date",
                  "delay_seconds": 2,
                  "attempts": [
                    {
                      "sequence": 1,
                      "received": "2026-09-07T10:10:00.700Z",
                      "status": 429,
                      "retry_after": "Mon, 07 Sep 2026 10:10:02 GMT",
                      "gap_from_previous_ms": null
                    },
                    {
                      "sequence": 2,
                      "received": "2026-09-07T10:10:01.710Z",
                      "status": 429,
                      "retry_after": "Mon, 07 Sep 2026 10:10:03 GMT",
                      "gap_from_previous_ms": 1010
                    },
                    {
                      "sequence": 3,
                      "received": "2026-09-07T10:10:03.050Z",
                      "status": 200,
                      "retry_after": null,
                      "gap_from_previous_ms": 1340
                    }
                  ],
                  "reached_success": true,
                  "other_requests": [
                    {
                      "received": "2026-09-07T10:10:00.900Z",
                      "method": "POST",
                      "status": 405
                    }
                  ],
                  "limitations": [
                    "Arrival times are the probe's clock when each request arrived; gaps include connection set-up and the client's own scheduling.",
                    "HTTP-date has whole-second precision: the date is the receipt time truncated to whole seconds plus the delay, so a client may come back up to a second sooner than the delay.",
                    "3 further requests were answered but not recorded."
                  ]
                }
                """);
    }

    @Test
    void theReaderReadsWhatTheWriterWrites() throws Exception {
        RecordedTrace t = trace();
        List<Operation> ops = new ArrayList<>();
        new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of("-")),
                new ByteArrayInputStream(write(t).getBytes(StandardCharsets.UTF_8)), ops::add);

        assertThat(ops).hasSize(1);
        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("run-1");
        assertThat(op.clock()).isEqualTo(Clock.SERVER);
        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        assertThat(op.attempts()).extracting(Attempt::startedAt)
                .containsExactlyElementsOf(t.attempts().stream().map(RecordedRequest::receivedMillis).toList());
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(429, 429, 200);
        assertThat(op.attempts()).extracting(Attempt::retryAfter)
                .containsExactlyElementsOf(t.attempts().stream().map(RecordedRequest::retryAfter).toList());
    }

    private static RecordedTrace trace() throws Exception {
        long a = Rfc3339.parse("2026-09-07T10:10:00.700Z");
        long b = Rfc3339.parse("2026-09-07T10:10:01.710Z");
        long c = Rfc3339.parse("2026-09-07T10:10:03.050Z");
        return new RecordedTrace("run-1", Rfc3339.parse("2026-09-07T10:10:00.000Z"), SCENARIO, List.of(
                new RecordedRequest(1, a, "GET", 429, HeaderFormat.HTTP_DATE.retryAfter(a, 2)),
                new RecordedRequest(2, b, "GET", 429, HeaderFormat.HTTP_DATE.retryAfter(b, 2)),
                new RecordedRequest(3, c, "GET", 200, null)),
                List.of(new RecordedRequest(0, Rfc3339.parse("2026-09-07T10:10:00.900Z"), "POST", 405, null)), 3);
    }

    private static String write(RecordedTrace t) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceWriter.write(t, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
