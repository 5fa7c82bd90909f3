package dev.retryaudit.model;

import dev.retryaudit.model.values.ParentRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One logical call or side effect with its attempts ordered by attempt_id, built by its
 * {@link Builder}. {@code effect} is what
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
    private final boolean serverClock;
    private final List<Attempt> attempts;
    private final List<Check> checks;
    private final String attributesJson;
    private final Set<Field> carried;
    private final String groupedBy;

    private Operation(Builder b, List<Attempt> attempts, List<Check> checks) {
        super(b);
        Objects.requireNonNull(b.id, "id");
        Objects.requireNonNull(b.tool, "tool");
        Objects.requireNonNull(b.carried, "carried");
        if (attempts == null || attempts.isEmpty()) {
            throw new IllegalArgumentException("an operation needs at least one attempt");
        }
        for (int i = 1; i < attempts.size(); i++) {
            if (attempts.get(i - 1).attemptId() > attempts.get(i).attemptId()) {
                throw new IllegalArgumentException("attempts must be ordered by attempt_id");
            }
        }
        this.id = b.id;
        this.tool = b.tool;
        this.effect = b.effect;
        this.method = b.method;
        this.target = b.target;
        this.idempotencyKey = b.idempotencyKey;
        this.runId = b.runId;
        this.parent = b.parent;
        this.deadlineMs = b.deadlineMs;
        this.reportedOutcome = b.reportedOutcome;
        this.serverClock = b.serverClock;
        this.attempts = List.copyOf(attempts);
        this.checks = checks == null ? List.of() : List.copyOf(checks);
        this.attributesJson = b.attributesJson;
        this.carried = b.carried;
        this.groupedBy = b.groupedBy;
    }

    /** A builder with no field set, carrying every optional field; reuse it for operation after operation. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this operation's fields, attempts, checks and place, for a copy that differs in some. */
    public Builder toBuilder() {
        Builder b = new Builder();
        placeInto(b);
        b.id = id;
        b.tool = tool;
        b.effect = effect;
        b.method = method;
        b.target = target;
        b.idempotencyKey = idempotencyKey;
        b.runId = runId;
        b.parent = parent;
        b.deadlineMs = deadlineMs;
        b.reportedOutcome = reportedOutcome;
        b.serverClock = serverClock;
        b.attempts = attempts;
        b.checks = checks;
        b.attributesJson = attributesJson;
        b.carried = carried;
        b.groupedBy = groupedBy;
        return b;
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
        return serverClock;
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
                && serverClock == o.serverClock
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
                reportedOutcome, serverClock, attempts, checks, attributesJson, carried, groupedBy, location());
    }

    @Override
    public String toString() {
        return "Operation[id=" + id + ", tool=" + tool + ", effect=" + effect + ", method=" + method
                + ", target=" + target
                + ", idempotencyKey=" + idempotencyKey + ", runId=" + runId + ", parent=" + parent
                + ", deadlineMs=" + deadlineMs + ", reportedOutcome=" + reportedOutcome + ", serverClock=" + serverClock
                + ", attempts=" + attempts + ", checks=" + checks + ", attributes=" + attributesJson
                + ", location=" + location() + ", carried=" + carried + ", groupedBy=" + groupedBy + "]";
    }

    /**
     * Builds operations: an id, a tool, at least one attempt and the place ({@code at}) are required, and the
     * optional fields stay absent unless set (null clears them again). A reader reuses one builder, setting
     * every field, the attempts (in attempt id order) and the checks for each operation; a caller may add
     * attempts and checks one by one instead, which are ordered by attempt id and placed at the operation
     * when they are given no place of their own.
     */
    public static final class Builder extends PlacedBuilder<Builder> {
        private String id;
        private String tool;
        private Effect effect;
        private String method;
        private String target;
        private String idempotencyKey;
        private String runId;
        private ParentRef parent;
        private Long deadlineMs;
        private ReportedOutcome reportedOutcome;
        private boolean serverClock;
        private List<Attempt> attempts = List.of();
        private List<Check> checks = List.of();
        private String attributesJson;
        private Set<Field> carried = Field.ALL;
        private String groupedBy;
        /** The attempts and checks added one by one, built with the operation's place when they have none. */
        private final List<Attempt.Builder> added = new ArrayList<>();
        private final List<Function<Location, Check>> addedChecks = new ArrayList<>();

        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        public Builder id(String value) {
            id = value;
            return this;
        }

        /** The tool (or client) that made the operation's calls. */
        public Builder tool(String value) {
            tool = value;
            return this;
        }

        /** Whether the operation reads or writes; when unset, implied by the method and the policy's tools. */
        public Builder effect(Effect value) {
            effect = value;
            return this;
        }

        /** The HTTP method, for example {@code POST}. */
        public Builder method(String value) {
            method = value;
            return this;
        }

        /** The URL or resource the operation addressed. */
        public Builder target(String value) {
            target = value;
            return this;
        }

        public Builder idempotencyKey(String value) {
            idempotencyKey = value;
            return this;
        }

        public Builder runId(String value) {
            runId = value;
            return this;
        }

        /** The attempt of another operation this one ran inside; a null operation for none. */
        public Builder parent(String operation, int attempt) {
            parent = operation == null ? null : new ParentRef(operation, attempt);
            return this;
        }

        public Builder deadline(Duration value) {
            return deadlineMs(value == null ? null : value.toMillis());
        }

        /** The deadline in milliseconds after the first attempt's start; null for none. */
        public Builder deadlineMs(Long value) {
            deadlineMs = value;
            return this;
        }

        public Builder reportedOutcome(ReportedOutcome value) {
            reportedOutcome = value;
            return this;
        }

        /** Whether the timestamps are the server's (arrivals it observed) rather than the client's, as they are by default. */
        public Builder serverClock(boolean server) {
            serverClock = server;
            return this;
        }

        /** Free-form attributes as a JSON object, kept as given and in the evidence of every finding about the operation. */
        public Builder attributesJson(String json) {
            attributesJson = json;
            return this;
        }

        /** The optional fields the operation's format can carry (every one unless set): a rule that needs one it cannot carry says so. */
        public Builder carried(Set<Field> fields) {
            carried = fields;
            return this;
        }

        /** Why the tool joined the attempts into one operation, for a format that does not state its operations; null for none. */
        public Builder groupedBy(String value) {
            groupedBy = value;
            return this;
        }

        /** The attempts, in attempt id order, in place of those set or added before. */
        public Builder attempts(List<Attempt> value) {
            attempts = value;
            added.clear();
            return this;
        }

        /** Adds the attempt with {@code attemptId}, set up by {@code setup}; it stands at the operation unless placed. */
        public Builder attempt(int attemptId, Consumer<Attempt.Builder> setup) {
            if (attemptId < 1) {
                throw new IllegalArgumentException("attempt_id must be >= 1: " + attemptId);
            }
            Attempt.Builder a = Attempt.builder().attemptId(attemptId);
            setup.accept(a);
            added.add(a);
            return this;
        }

        /** The reconcile reads, in place of those set or added before. */
        public Builder checks(List<Check> value) {
            checks = value;
            addedChecks.clear();
            return this;
        }

        /**
         * Adds a reconcile read after attempt {@code afterAttempt} (1 or more) that returned {@code result}
         * (required): when it ran ({@code at}), what was read ({@code kind}, for example {@code ledger_lookup}),
         * how many matching records it found ({@code count}) and where it stands ({@code location}); each of
         * the last four is null when unknown, the location then the operation's.
         */
        public Builder check(int afterAttempt, CheckResult result, Instant at, String kind, Long count,
                Location location) {
            if (afterAttempt < 1) {
                throw new IllegalArgumentException("after_attempt must be >= 1: " + afterAttempt);
            }
            if (result == null) {
                throw new IllegalArgumentException("a check needs its result");
            }
            addedChecks.add(here -> new Check(afterAttempt, at, kind, result, count, location == null ? here : location));
            return this;
        }

        /** The operation; one without a place is an {@link IllegalStateException}, one without attempts an {@link IllegalArgumentException}. */
        public Operation build() {
            if (!placed()) {
                throw new IllegalStateException("operation " + id + " needs a location: at(Location.atRecord(...))");
            }
            if (added.isEmpty() && addedChecks.isEmpty()) {
                return new Operation(this, attempts, checks);
            }
            Location here = location();
            List<Attempt> all = new ArrayList<>(attempts);
            for (Attempt.Builder a : added) {
                all.add(a.placed() ? a.build() : a.at(here).build());
            }
            all.sort(Attempt.BY_ID);
            List<Check> allChecks = new ArrayList<>(checks);
            for (Function<Location, Check> c : addedChecks) {
                allChecks.add(c.apply(here));
            }
            return new Operation(this, all, allChecks);
        }
    }
}
