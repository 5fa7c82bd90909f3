package dev.retryaudit.api;

import dev.retryaudit.model.internal.Models;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.values.Clock;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.ParentRef;
import dev.retryaudit.model.ReportedOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Builds one {@link Operation}: an id, a tool, at least one attempt, and optional fields that stay
 * absent unless set (null clears them again). Attempts are ordered by attempt id when built. An
 * operation built here carries every optional field, as the tool's own formats do: a field left
 * unset is "absent", and rules that need it say so.
 */
public final class OperationBuilder {
    private final String id;
    private final String tool;
    private Effect effect;
    private String method;
    private String target;
    private String idempotencyKey;
    private String runId;
    private ParentRef parent;
    private Duration deadline;
    private ReportedOutcome reportedOutcome;
    private Clock clock;
    private String attributesJson;
    private Location location;
    private final List<AttemptBuilder> attempts = new ArrayList<>();
    private final List<PendingCheck> checks = new ArrayList<>();

    OperationBuilder(String id, String tool) {
        if (id == null || id.isEmpty() || tool == null || tool.isEmpty()) {
            throw new IllegalArgumentException("an operation needs a non-empty id and tool");
        }
        this.id = id;
        this.tool = tool;
    }

    /** Whether the operation reads or writes; when unset, implied by the method and the policy's tools. */
    public OperationBuilder effect(Effect value) {
        effect = value;
        return this;
    }

    /** The HTTP method, for example {@code POST}. */
    public OperationBuilder method(String value) {
        method = value;
        return this;
    }

    /** The URL or resource the operation addressed. */
    public OperationBuilder target(String value) {
        target = value;
        return this;
    }

    public OperationBuilder idempotencyKey(String value) {
        idempotencyKey = value;
        return this;
    }

    public OperationBuilder runId(String value) {
        runId = value;
        return this;
    }

    /** The attempt of another operation this one ran inside; null for none. */
    public OperationBuilder parent(String operation, int attempt) {
        parent = operation == null ? null : new ParentRef(operation, attempt);
        return this;
    }

    public OperationBuilder deadline(Duration value) {
        deadline = value;
        return this;
    }

    public OperationBuilder reportedOutcome(ReportedOutcome value) {
        reportedOutcome = value;
        return this;
    }

    /** Whether the timestamps are the server's (arrivals it observed) rather than the client's, as they are by default. */
    public OperationBuilder serverClock(boolean server) {
        clock = server ? Clock.SERVER : null;
        return this;
    }

    /** Free-form attributes as a JSON object, kept as given and in the evidence of every finding about the operation. */
    public OperationBuilder attributesJson(String json) {
        attributesJson = json;
        return this;
    }

    /** Where the operation stands ({@link Location}); required. */
    public OperationBuilder at(Location value) {
        location = value;
        return this;
    }

    /** Adds the attempt with {@code attemptId}, set up by {@code setup}. */
    public OperationBuilder attempt(int attemptId, Consumer<AttemptBuilder> setup) {
        AttemptBuilder a = new AttemptBuilder(attemptId);
        setup.accept(a);
        attempts.add(a);
        return this;
    }

    /**
     * Adds a reconcile read after attempt {@code afterAttempt} (1 or more) that returned {@code result}
     * (required): when it ran ({@code at}), what was read ({@code kind}, for example {@code ledger_lookup}),
     * how many matching records it found ({@code count}) and where it stands ({@code location}); each of
     * the last four is null when unknown, the location then the operation's.
     */
    public OperationBuilder check(int afterAttempt, CheckResult result, Instant at, String kind, Long count,
            Location location) {
        if (afterAttempt < 1) {
            throw new IllegalArgumentException("after_attempt must be >= 1: " + afterAttempt);
        }
        if (result == null) {
            throw new IllegalArgumentException("a check needs its result");
        }
        checks.add(new PendingCheck(afterAttempt, result, at, kind, count, location));
        return this;
    }

    /** A check as given, built when the operation's location is known. */
    private record PendingCheck(int afterAttempt, CheckResult result, Instant at, String kind, Long count,
            Location location) {
        Check build(Location fallback) {
            return new Check(afterAttempt, at, kind, result, count, location == null ? fallback : location);
        }
    }

    /** The operation; refuses one without a location or attempts. */
    public Operation build() {
        if (location == null) {
            throw new IllegalStateException("operation " + id + " needs a location: at(Location.atRecord(...))");
        }
        List<Attempt> built = new ArrayList<>(attempts.size());
        attempts.forEach(a -> built.add(a.build(location)));
        built.sort(Attempt.BY_ID);
        List<Check> builtChecks = new ArrayList<>(checks.size());
        checks.forEach(c -> builtChecks.add(c.build(location)));
        return Models.operation(id, tool, effect, method, target, idempotencyKey, runId, parent,
                deadline == null ? null : deadline.toMillis(), reportedOutcome, clock, built, builtChecks,
                attributesJson, location, Field.ALL);
    }
}
