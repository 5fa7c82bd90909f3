package dev.retryaudit.model;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One logical call or side effect with its attempts ordered by attempt_id. {@code effect} is what
 * the input said (null when absent); {@code carried} lists the optional fields its format can carry;
 * {@code groupedBy} says, for a foreign format, why its attempts were joined into one operation (null
 * when the input states its operations, or an operation has one attempt).
 */
public record Operation(
        String id,
        String tool,
        Effect effect,
        String method,
        String target,
        String idempotencyKey,
        String runId,
        ParentRef parent,
        Long deadlineMs,
        ReportedOutcome reportedOutcome,
        Clock clock,
        List<Attempt> attempts,
        List<Check> checks,
        RawJson attributes,
        Location location,
        Set<Field> carried,
        String groupedBy) implements Serializable {

    /** The methods RFC 9110 defines as safe, and so reads (PUT and DELETE are idempotent but write). */
    private static final String[] READ_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"};

    public Operation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(carried, "carried");
        if (attempts == null || attempts.isEmpty()) {
            throw new IllegalArgumentException("an operation needs at least one attempt");
        }
        for (int i = 1; i < attempts.size(); i++) {
            if (attempts.get(i - 1).attemptId() > attempts.get(i).attemptId()) {
                throw new IllegalArgumentException("attempts must be ordered by attempt_id");
            }
        }
        attempts = List.copyOf(attempts);
        checks = checks == null ? List.of() : List.copyOf(checks);
    }

    /** An operation as its input states it, with no grouping of the tool's own. */
    public Operation(String id, String tool, Effect effect, String method, String target, String idempotencyKey,
            String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome, Clock clock,
            List<Attempt> attempts, List<Check> checks, RawJson attributes, Location location, Set<Field> carried) {
        this(id, tool, effect, method, target, idempotencyKey, runId, parent, deadlineMs, reportedOutcome, clock,
                attempts, checks, attributes, location, carried, null);
    }

    /** Whether the operation's format can carry {@code field}. */
    public boolean carries(Field field) {
        return carried.contains(field);
    }

    /** The number of retries: attempts after the first. */
    public int retries() {
        return attempts.size() - 1;
    }

    /** The effect the input gave, else the one implied by the method: GET, HEAD, OPTIONS, TRACE read; anything else writes. */
    public Effect impliedEffect() {
        if (effect != null) {
            return effect;
        }
        if (method == null) {
            return Effect.WRITE;
        }
        for (String read : READ_METHODS) {
            if (read.equalsIgnoreCase(method)) {
                return Effect.READ;
            }
        }
        return Effect.WRITE;
    }
}
