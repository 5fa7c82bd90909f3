package dev.retryaudit.model;

import dev.retryaudit.model.values.Clock;
import dev.retryaudit.model.values.ParentRef;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One logical call or side effect with its attempts ordered by attempt_id, built through
 * {@code dev.retryaudit.api.OperationBuilder}. {@code effect} is what
 * the input said (null when absent); {@code carried} lists the optional fields its format can carry;
 * {@code groupedBy} says, for a foreign format, why its attempts were joined into one operation (null
 * when the input states its operations, or an operation has one attempt). Its {@link Location} is kept
 * as its parts and made when asked for, as an {@link Attempt}'s is. Equal when all fields and the
 * locations are equal.
 */
public final class Operation extends Placed {
    private static final long serialVersionUID = 1L;

    /** The methods RFC 9110 defines as safe, and so reads (PUT and DELETE are idempotent but write). */
    private static final String[] READ_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"};

    private final String id;
    private final String tool;
    private final Effect effect;
    private final String method;
    private final String target;
    private final String idempotencyKey;
    private final String runId;
    private final ParentRef parent;
    private final Long deadlineMs;
    private final ReportedOutcome reportedOutcome;
    private final Clock clock;
    private final List<Attempt> attempts;
    private final List<Check> checks;
    private final String attributesJson;
    private final Set<Field> carried;
    private final String groupedBy;

    Operation(
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
            String attributesJson,
            Location location,
            Set<Field> carried,
            String groupedBy) {
        this(id, tool, effect, method, target, idempotencyKey, runId, parent, deadlineMs, reportedOutcome, clock,
                attempts, checks, attributesJson,
                Objects.requireNonNull(location, "location").source(), location.sourceIndex(), location.line(),
                location.column(), location.pointer(), -1,
                carried, groupedBy);
    }

    /** An operation as its input states it, with no grouping of the tool's own. */
    Operation(
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
            String attributesJson,
            Location location,
            Set<Field> carried) {
        this(id, tool, effect, method, target, idempotencyKey, runId, parent, deadlineMs, reportedOutcome, clock,
                attempts, checks, attributesJson, location, carried, null);
    }

    /**
     * An operation at {@code line}:{@code column} of source {@code source} (number {@code sourceIndex} of
     * the run), whose JSON Pointer is {@code pointerPrefix + pointerIndex} (or {@code pointerPrefix}
     * itself when {@code pointerIndex} is negative; null for none).
     */
    Operation(
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
            String attributesJson,
            String source, int sourceIndex, long line, long column, String pointerPrefix, int pointerIndex,
            Set<Field> carried, String groupedBy) {
        super(source, sourceIndex, line, column, pointerPrefix, pointerIndex, null, -1);
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(carried, "carried");
        if (attempts == null || attempts.isEmpty()) {
            throw new IllegalArgumentException("an operation needs at least one attempt");
        }
        for (int i = 1; i < attempts.size(); i++) {
            if (attempts.get(i - 1).attemptId() > attempts.get(i).attemptId()) {
                throw new IllegalArgumentException("attempts must be ordered by attempt_id");
            }
        }
        this.id = id;
        this.tool = tool;
        this.effect = effect;
        this.method = method;
        this.target = target;
        this.idempotencyKey = idempotencyKey;
        this.runId = runId;
        this.parent = parent;
        this.deadlineMs = deadlineMs;
        this.reportedOutcome = reportedOutcome;
        this.clock = clock;
        this.attempts = List.copyOf(attempts);
        this.checks = checks == null ? List.of() : List.copyOf(checks);
        this.attributesJson = attributesJson;
        this.carried = carried;
        this.groupedBy = groupedBy;
    }

    public String id() {
        return id;
    }

    public String tool() {
        return tool;
    }

    public Effect effect() {
        return effect;
    }

    public String method() {
        return method;
    }

    public String target() {
        return target;
    }

    public String idempotencyKey() {
        return idempotencyKey;
    }

    public String runId() {
        return runId;
    }

    /** The operation inside whose attempt this one ran (a nested retry layer), or null when it ran inside none. */
    public String parentOperation() {
        return parent == null ? null : parent.operation();
    }

    /** That attempt's id: set exactly when {@link #parentOperation} is. */
    public Integer parentAttempt() {
        return parent == null ? null : parent.attempt();
    }

    public Long deadlineMs() {
        return deadlineMs;
    }

    public ReportedOutcome reportedOutcome() {
        return reportedOutcome;
    }

    /** Whether the timestamps are the server's (arrivals it observed) rather than the client's (sends). */
    public boolean serverClock() {
        return clock == Clock.SERVER;
    }

    public List<Attempt> attempts() {
        return attempts;
    }

    public List<Check> checks() {
        return checks;
    }

    /** The free-form {@code attributes} object as compact JSON text, as it was read or given; null when there is none. */
    public String attributesJson() {
        return attributesJson;
    }

    public Set<Field> carried() {
        return carried;
    }

    public String groupedBy() {
        return groupedBy;
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

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof Operation o && Objects.equals(id, o.id)
                && Objects.equals(tool, o.tool)
                && Objects.equals(effect, o.effect)
                && Objects.equals(method, o.method)
                && Objects.equals(target, o.target)
                && Objects.equals(idempotencyKey, o.idempotencyKey)
                && Objects.equals(runId, o.runId)
                && Objects.equals(parent, o.parent)
                && Objects.equals(deadlineMs, o.deadlineMs)
                && Objects.equals(reportedOutcome, o.reportedOutcome)
                && Objects.equals(clock, o.clock)
                && Objects.equals(attempts, o.attempts)
                && Objects.equals(checks, o.checks)
                && Objects.equals(attributesJson, o.attributesJson)
                && Objects.equals(carried, o.carried)
                && Objects.equals(groupedBy, o.groupedBy)
                && location().equals(o.location());
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, tool, effect, method, target, idempotencyKey, runId, parent, deadlineMs,
                reportedOutcome, clock, attempts, checks, attributesJson, carried, groupedBy, location());
    }

    @Override
    public String toString() {
        return "Operation[id=" + id + ", tool=" + tool + ", effect=" + effect + ", method=" + method
                + ", target=" + target
                + ", idempotencyKey=" + idempotencyKey + ", runId=" + runId + ", parent=" + parent
                + ", deadlineMs=" + deadlineMs + ", reportedOutcome=" + reportedOutcome + ", clock=" + clock
                + ", attempts=" + attempts + ", checks=" + checks + ", attributes=" + attributesJson
                + ", location=" + location() + ", carried=" + carried + ", groupedBy=" + groupedBy + "]";
    }
}
