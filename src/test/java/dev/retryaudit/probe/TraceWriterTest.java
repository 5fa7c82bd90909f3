package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.json.Rfc3339;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceWriterTest {
    private static final Scenario SCENARIO = new Scenario("GET", 429, 2, List.of(2L, 1L), HeaderFormat.HTTP_DATE, 32, 0,
            true, "Idempotency-Key");
    private static final String HASH = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void writesTheRetryTraceShapeWithTheJournal() throws Exception {
        String json = write(trace());

        assertThat(json).isEqualTo("""
                {
                  "run_id": "run-1",
                  "created_at": "2026-09-07T10:10:00.000Z",
                  "expires_at": null,
                  "client": "curl --retry 3 {url}",
                  "method": "GET",
                  "status": 429,
                  "failures": 2,
                  "header_format": "http-date",
                  "delay_seconds": 2,
                  "delays_seconds": [
                    2,
                    1
                  ],
                  "stall_seconds": 0,
                  "key_header": "Idempotency-Key",
                  "dedupes_by_key": true,
                  "attempts": [
                    {
                      "sequence": 1,
                      "received": "2026-09-07T10:10:00.700Z",
                      "path": "/retry-after-probe",
                      "connection": 1,
                      "status": 429,
                      "retry_after": "Mon, 07 Sep 2026 10:10:03 GMT",
                      "retry_after_ms": null,
                      "asked_ms": 2300,
                      "gap_from_previous_ms": null,
                      "idempotency_key": null,
                      "request_hash": "%1$s",
                      "content_length": 0,
                      "commit_state": null,
                      "commit_state_source": null
                    },
                    {
                      "sequence": 2,
                      "received": "2026-09-07T10:10:03.010Z",
                      "path": "/retry-after-probe",
                      "connection": 1,
                      "status": 429,
                      "retry_after": "Mon, 07 Sep 2026 10:10:05 GMT",
                      "retry_after_ms": null,
                      "asked_ms": 1990,
                      "gap_from_previous_ms": 2310,
                      "idempotency_key": null,
                      "request_hash": "%1$s",
                      "content_length": 0,
                      "commit_state": null,
                      "commit_state_source": null
                    },
                    {
                      "sequence": 3,
                      "received": "2026-09-07T10:10:05.050Z",
                      "path": "/retry-after-probe",
                      "connection": 2,
                      "status": 200,
                      "retry_after": null,
                      "retry_after_ms": null,
                      "asked_ms": null,
                      "gap_from_previous_ms": 2040,
                      "idempotency_key": null,
                      "request_hash": "%1$s",
                      "content_length": 0,
                      "commit_state": null,
                      "commit_state_source": null
                    }
                  ],
                  "reached_success": true,
                  "unrecorded_requests": 3,
                  "other_requests": [
                    {
                      "received": "2026-09-07T10:10:00.900Z",
                      "method": "POST",
                      "path": "/retry-after-probe",
                      "connection": 1,
                      "status": 405
                    }
                  ],
                  "limitations": [
                    "Arrival times are the probe's clock when each request arrived; gaps include connection set-up and the client's own scheduling.",
                    "HTTP-date has whole-second precision: the date is the arrival plus the delay rounded up to the next whole second, so asked_ms is the delay plus up to a second.",
                    "3 further requests were answered but not recorded."
                  ]
                }
                """.formatted(HASH));
    }

    @Test
    void theReaderReadsWhatTheWriterWrites() throws Exception {
        RecordedTrace t = trace();
        Operation op = read(write(t));

        assertThat(op.id()).isEqualTo("curl --retry 3 {url}");
        assertThat(op.tool()).isEqualTo("curl --retry 3 {url}");
        assertThat(op.runId()).isEqualTo("run-1");
        assertThat(op.serverClock()).isTrue();
        assertThat(op.method()).isEqualTo("GET");
        assertThat(op.impliedEffect()).isEqualTo(Effect.READ);
        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        assertThat(op.attempts()).extracting(Attempt::startMillis)
                .containsExactlyElementsOf(t.attempts().stream().map(RecordedRequest::receivedMillis).toList());
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(429, 429, 200);
        assertThat(op.attempts()).extracting(Attempt::retryAfter)
                .containsExactlyElementsOf(t.attempts().stream().map(RecordedRequest::retryAfter).toList());
        assertThat(op.attempts()).extracting(Attempt::requestHash).containsOnly(HASH);
        assertThat(op.carries(Field.COMMIT_STATE)).isTrue();
    }

    @Test
    void requestsThatNeverArrivedWholeAreNamedInTheLimitationsAndTheTraceStillReads() throws Exception {
        RecordedTrace t = trace();
        RecordedTrace cut = new RecordedTrace(t.runId(), t.createdMillis(), t.scenario(), t.client(), t.attempts(),
                t.otherRequests(), t.unrecorded(), 2);
        String written = write(cut);

        assertThat(written).contains("\"2 further requests never arrived whole (cut off, timed out or not HTTP/1.x)"
                + " and are not attempts.\"");
        assertThat(read(written).attempts()).hasSize(3);
        assertThat(write(t)).doesNotContain("never arrived whole");
    }

    @Test
    void aHeldWriteTheClientGaveUpOnIsATimeoutCommittedOnTheServer() throws Exception {
        Scenario stall = new Scenario("POST", 429, 1, List.of(0L), HeaderFormat.SECONDS, 10, 5, true, "Idempotency-Key");
        long a = Rfc3339.parse("2026-09-07T10:10:00.000Z");
        RecordedTrace t = new RecordedTrace("run-2", a, stall, "client", List.of(
                new RecordedRequest(1, a, 1,
                        new RecordedRequest.Sent("POST", "/p", "k-1", HASH, 0),
                                new RecordedRequest.Answer(200, null, CommitState.COMMITTED, 5000, 0)),
                new RecordedRequest(2, a + 1500, 2,
                        new RecordedRequest.Sent("POST", "/p", "k-1", HASH, 0),
                                new RecordedRequest.Answer(200, null, CommitState.REJECTED, 0, 1))),
                List.of(), 0);

        String json = write(t);
        Operation op = read(json);

        assertThat(json).contains("\"stalled_ms\": 5000,\n      \"outcome\": \"timeout\"", "\"replay_of\": 1");
        assertThat(op.method()).isEqualTo("POST");
        assertThat(op.impliedEffect()).isEqualTo(Effect.WRITE);
        assertThat(op.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.TIMEOUT, Outcome.SUCCESS);
        assertThat(op.attempts()).extracting(Attempt::commitState)
                .containsExactly(CommitState.COMMITTED, CommitState.REJECTED);
        assertThat(op.attempts()).extracting(Attempt::commitStateSource).containsOnly(CommitStateSource.SERVER);
        assertThat(op.attempts()).extracting(Attempt::idempotencyKey).containsOnly("k-1");
    }

    @Test
    void aClientGaveUpOnAHeldRequestWhenItCameBackBeforeTheAnswerOrOnAnotherConnection() {
        Scenario stall = new Scenario("POST", 429, 1, List.of(0L), HeaderFormat.SECONDS, 10, 2, true, "Idempotency-Key");
        long a = 1_800_000_000_000L;
        RecordedRequest held = new RecordedRequest(1, a, 1,
                new RecordedRequest.Sent("POST", "/p", "k", HASH, 0),
                        new RecordedRequest.Answer(200, null, CommitState.COMMITTED, 2000, 0));
        java.util.function.BiFunction<Long, Integer, Boolean> gaveUp = (at, connection) -> new RecordedTrace("r", a,
                stall, null, List.of(held, new RecordedRequest(2, at, connection,
                        new RecordedRequest.Sent("POST", "/p", "k", HASH, 0),
                                new RecordedRequest.Answer(200, null, CommitState.REJECTED, 0, 1))), List.of(), 0).gaveUp(0);

        assertThat(gaveUp.apply(a + 1500, 1)).isTrue();
        assertThat(gaveUp.apply(a + 2500, 2)).isTrue();
        assertThat(gaveUp.apply(a + 2500, 1)).isFalse();
        assertThat(new RecordedTrace("r", a, stall, null, List.of(held), List.of(), 0).gaveUp(0)).isFalse();
    }

    @Test
    void retryAfterMsIsTheWaitTheRulesJudgeInWholeSecondsRoundedUp() throws Exception {
        Scenario ms = new Scenario("GET", 429, 1, List.of(2L), HeaderFormat.RETRY_AFTER_MS_AND_SECONDS, 10, 0, true,
                "Idempotency-Key");
        long a = Rfc3339.parse("2026-09-07T10:10:00.000Z");
        RecordedTrace t = new RecordedTrace("run-3", a, ms, null, List.of(
                new RecordedRequest(1, a, 1,
                        new RecordedRequest.Sent("GET", "/p", null, HASH, 0),
                                new RecordedRequest.Answer(429, new HeaderFormat.Ask("5", "1500", 1500, 5000L), null, 0, 0)),
                new RecordedRequest(2, a + 1600, 1,
                        new RecordedRequest.Sent("GET", "/p", null, HASH, 0),
                                new RecordedRequest.Answer(200, null, null, 0, 0))), List.of(), 0);

        Operation op = read(write(t));

        assertThat(op.id()).isEqualTo("run-3");
        assertThat(op.tool()).isEqualTo("retry-trace");
        assertThat(op.attempts().get(0).retryAfter()).isEqualTo("2");
    }

    private static Operation read(String json) throws Exception {
        List<Operation> ops = new ArrayList<>();
        new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of("-")),
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), ops::add);
        assertThat(ops).hasSize(1);
        return ops.get(0);
    }

    private static RecordedTrace trace() throws Exception {
        long a = Rfc3339.parse("2026-09-07T10:10:00.700Z");
        long b = Rfc3339.parse("2026-09-07T10:10:03.010Z");
        long c = Rfc3339.parse("2026-09-07T10:10:05.050Z");
        return new RecordedTrace("run-1", Rfc3339.parse("2026-09-07T10:10:00.000Z"), SCENARIO, "curl --retry 3 {url}",
                List.of(request(1, a, 1, 429, HeaderFormat.HTTP_DATE.ask(a, 2)),
                        request(2, b, 1, 429, HeaderFormat.HTTP_DATE.ask(b, 1)),
                        request(3, c, 2, 200, null)),
                List.of(new RecordedRequest(0, Rfc3339.parse("2026-09-07T10:10:00.900Z"), 1,
                        new RecordedRequest.Sent("POST", ProbeServer.PATH, null, HASH, 0),
                                new RecordedRequest.Answer(405, null, null, 0, 0))), 3);
    }

    private static RecordedRequest request(int n, long at, int connection, int status, HeaderFormat.Ask ask) {
        return new RecordedRequest(n, at, connection,
                new RecordedRequest.Sent("GET", ProbeServer.PATH, null, HASH, 0),
                        new RecordedRequest.Answer(status, ask, null, 0, 0));
    }

    private static String write(RecordedTrace t) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceWriter.write(t, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
