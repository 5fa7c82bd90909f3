package dev.retryaudit.input.foreign.retrytrace;

import dev.retryaudit.model.internal.LimitChecks;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The fields of one Retry Trace run, as they appear at the top of a trace, inside a
 * finding record's {@code evidence} and in each observation of a curl comparison. Fields the
 * reader does not use are skipped; the ones it uses are typed strictly.
 */
final class RetryTraceDraft {
    /** The tool name of every operation read from a Retry Trace. */
    static final String TOOL = InputFormat.RETRY_TRACE.id();

    private static final List<String> HEADER_FORMATS =
            List.of("seconds", "http-date", "retry-after-ms", "retry-after-ms-and-seconds", "http-date-past", "none",
                    "negative", "fractional");

    String runId;
    List<Attempt> attempts;
    /** The probe's additions: the client command (the tool), the method, and the key header of its journal. */
    String client;
    String method;
    String keyHeader;

    /** Reads the value of field {@code name} if it is a run field; false when it is not one. */
    boolean bind(String name, JsonCursor c, ReadContext ctx, String pointer) throws IOException, InputException {
        switch (name) {
            case "run_id" -> runId = c.optString();
            case "created_at", "expires_at" -> c.optTimestamp();
            case "status" -> c.optInt(100, 599);
            case "failures" -> c.optInt(0, Integer.MAX_VALUE);
            case "delay_seconds" -> c.optLong(0, Long.MAX_VALUE);
            case "reached_success" -> c.optBoolean();
            case "header_format" -> headerFormat(c);
            case "client" -> client = c.optString();
            case "method" -> method = c.optString();
            case "key_header" -> keyHeader = c.optString();
            case "stall_seconds", "unrecorded_requests" -> c.optLong(0, Long.MAX_VALUE);
            case "dedupes_by_key" -> c.optBoolean();
            case "delays_seconds" -> delays(c);
            case "attempts" -> attempts = readAttempts(c, ctx, pointer + "/attempts");
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Whether an {@code attempts} array was read. */
    boolean hasAttempts() {
        return attempts != null;
    }

    /**
     * The run as one server-observed operation with id {@code id}, or null when it holds no attempt
     * (a probe that no client called). Its tool is the client command when the trace names one, and
     * its method GET unless the trace says otherwise (the effect follows the method); a trace with a
     * {@code key_header} (the probe's journal) carries idempotency keys, request hashes and commit states.
     */
    Operation build(String id, Location at) {
        if (attempts == null || attempts.isEmpty()) {
            return null;
        }
        List<Attempt> sorted = new ArrayList<>(attempts);
        sorted.sort(Attempt.BY_ID);
        Set<Field> carried = keyHeader == null ? Set.of()
                : Set.of(Field.IDEMPOTENCY_KEY, Field.REQUEST_HASH, Field.COMMIT_STATE);
        return Operation.builder().id(id).tool(client == null ? TOOL : client).effect(method == null ? Effect.READ : null)
                .method(method == null ? "GET" : method).runId(runId).serverClock(true).attempts(sorted).carried(carried)
                .at(at).build();
    }

    private static void delays(JsonCursor c) throws IOException, InputException {
        if (c.isNull()) {
            return;
        }
        c.expectArray("the delays");
        while (c.next() != JsonToken.END_ARRAY) {
            c.optLong(0, Long.MAX_VALUE);
        }
    }

    private static void headerFormat(JsonCursor c) throws IOException, InputException {
        String s = c.optString();
        if (s != null && !HEADER_FORMATS.contains(s)) {
            throw c.error("expected one of " + String.join(", ", HEADER_FORMATS));
        }
    }

    private static List<Attempt> readAttempts(JsonCursor c, ReadContext ctx, String pointer)
            throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectArray("the attempts");
        List<Attempt> list = new ArrayList<>();
        while (c.next() != JsonToken.END_ARRAY) {
            LimitChecks.attempts(ctx.limits(), list.size() + 1, "trace", "attempts", c::error);
            list.add(readAttempt(c, ctx, pointer + "/" + list.size()));
        }
        return list;
    }

    private static Attempt readAttempt(JsonCursor c, ReadContext ctx, String pointer)
            throws IOException, InputException {
        c.expectObject("an attempt");
        Location at = ctx.location(c, pointer);
        Integer sequence = null;
        long received = Times.NONE;
        Integer status = null;
        String retryAfter = null;
        Long retryAfterMs = null;
        Outcome outcome = null;
        String key = null;
        String hash = null;
        CommitState commit = null;
        CommitStateSource source = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            switch (name) {
                case "sequence" -> sequence = c.optInt(1, Integer.MAX_VALUE);
                case "received" -> received = c.optTimestamp();
                case "status" -> status = c.optInt(100, 599);
                case "retry_after" -> retryAfter = c.optString();
                case "retry_after_ms" -> retryAfterMs = milliseconds(c);
                case "gap_from_previous_ms", "asked_ms", "content_length", "stalled_ms", "connection", "replay_of" ->
                        c.optLong(0, Long.MAX_VALUE);
                case "outcome" -> outcome = c.optEnum(Outcome.class);
                case "idempotency_key" -> key = c.optString();
                case "request_hash" -> hash = c.optString();
                case "commit_state" -> commit = c.optEnum(CommitState.class);
                case "commit_state_source" -> source = c.optEnum(CommitStateSource.class);
                default -> c.skip();
            }
        }
        String missing = sequence == null ? "sequence" : !Times.present(received) ? "received"
                : status == null ? "status" : null;
        if (missing != null) {
            throw Drafts.missing(at, missing);
        }
        if (outcome == null) {
            outcome = status < 400 ? Outcome.SUCCESS : Outcome.ERROR;
        }
        return Attempt.builder().attemptId(sequence).idempotencyKey(key).startMillis(received).outcome(outcome)
                .status(status).retryAfter(RetryTraceReader.wait(retryAfter, retryAfterMs)).commitState(commit)
                .commitStateSource(commit == null ? null : source).requestHash(hash).at(at).build();
    }

    /** A {@code retry-after-ms} value as sent: a string of decimal digits, or null. */
    private static Long milliseconds(JsonCursor c) throws IOException, InputException {
        String s = c.optString();
        if (s == null) {
            return null;
        }
        if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw c.error("expected retry-after-ms as a whole number of milliseconds");
        }
        return Long.parseLong(s);
    }
}
