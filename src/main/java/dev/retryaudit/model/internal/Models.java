package dev.retryaudit.model.internal;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.Clock;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.ParentRef;
import dev.retryaudit.model.RawJson;
import dev.retryaudit.model.ReportedOutcome;
import dev.retryaudit.model.Severity;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Set;

/**
 * Makes attempts, operations and findings from their parts, as the readers and the engine hold them:
 * the model keeps these constructors out of its API, and this factory reaches them through method
 * handles, which the JIT compiles to direct calls, so that the model needs no reference back to it.
 */
public final class Models {
    private static final MethodHandle ATTEMPT;
    private static final MethodHandle ATTEMPT_PLACED;
    private static final MethodHandle WITH_GRPC;
    private static final MethodHandle OPERATION;
    private static final MethodHandle OPERATION_PLACED;
    private static final MethodHandle FINDING;
    private static final MethodHandle FINDING_MESSAGE;
    private static final MethodHandle FINDING_FINGERPRINT;

    static {
        try {
            ATTEMPT = constructor(Attempt.class, int.class, String.class, String.class, long.class, long.class,
                    double.class, Outcome.class, Integer.class, ErrorClass.class, String.class, String.class,
                    CommitState.class, CommitStateSource.class, String.class, String.class, RawJson.class,
                    Location.class);
            ATTEMPT_PLACED = constructor(Attempt.class, int.class, String.class, String.class, long.class, long.class,
                    double.class, Outcome.class, Integer.class, ErrorClass.class, String.class, String.class,
                    CommitState.class, CommitStateSource.class, String.class, String.class, RawJson.class,
                    String.class, int.class, long.class, long.class, String.class, int.class, String.class, int.class);
            WITH_GRPC = lookup(Attempt.class).findVirtual(Attempt.class, "withGrpc",
                    MethodType.methodType(Attempt.class, GrpcStatus.class, String.class));
            OPERATION = constructor(Operation.class, String.class, String.class, Effect.class, String.class,
                    String.class, String.class, String.class, ParentRef.class, Long.class, ReportedOutcome.class,
                    Clock.class, List.class, List.class, RawJson.class, Location.class, Set.class, String.class);
            OPERATION_PLACED = constructor(Operation.class, String.class, String.class, Effect.class, String.class,
                    String.class, String.class, String.class, ParentRef.class, Long.class, ReportedOutcome.class,
                    Clock.class, List.class, List.class, RawJson.class, String.class, int.class, long.class,
                    long.class, String.class, int.class, Set.class, String.class);
            MethodHandles.Lookup findings = lookup(Finding.class);
            FINDING = findings.findStatic(Finding.class, "of", MethodType.methodType(Finding.class, String.class,
                    Severity.class, String.class, Integer.class, String.class, String.class, String.class,
                    Evidence.class, Location.class));
            FINDING_MESSAGE = findings.findStatic(Finding.class, "of", MethodType.methodType(Finding.class,
                    String.class, Severity.class, String.class, Integer.class, String.class, String.class,
                    Finding.Message.class, Evidence.class, Location.class));
            FINDING_FINGERPRINT = constructor(Finding.class, String.class, Severity.class, String.class,
                    Integer.class, String.class, String.class, String.class, Evidence.class, Location.class,
                    String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Models() {
    }

    /** The lookup with the access of {@code type}'s own package, which the module always opens to itself. */
    static MethodHandles.Lookup lookup(Class<?> type) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    }

    /** What a constructor or method threw, which can only be unchecked: none of them declares more. */
    static RuntimeException rethrown(Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(e);
    }

    private static MethodHandle constructor(Class<?> type, Class<?>... parameters) throws ReflectiveOperationException {
        return lookup(type).findConstructor(type, MethodType.methodType(void.class, parameters));
    }

    /**
     * An attempt at {@code location}. Times are epoch milliseconds or {@code Times.NONE}; {@code durationMs}
     * is NaN when absent; other optional values are null when absent.
     */
    public static Attempt attempt(int attemptId, String spanId, String idempotencyKey, long startedAt, long endedAt,
            double durationMs, Outcome outcome, Integer status, ErrorClass errorClass, String retryAfter,
            String responseDate, CommitState commitState, CommitStateSource commitStateSource, String retryReason,
            String requestHash, RawJson attributes, Location location) {
        try {
            return (Attempt) ATTEMPT.invokeExact(attemptId, spanId, idempotencyKey, startedAt, endedAt, durationMs,
                    outcome, status, errorClass, retryAfter, responseDate, commitState, commitStateSource,
                    retryReason, requestHash, attributes, location);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /**
     * An attempt at {@code line}:{@code column} of source {@code source} (number {@code sourceIndex} of
     * the run), whose JSON Pointer is {@code pointerPrefix + pointerIndex}, followed by
     * {@code nestedPrefix + nestedIndex} unless {@code nestedPrefix} is null ({@code pointerPrefix} alone
     * when {@code pointerIndex} is negative; null for none): the location is made only when asked for.
     */
    public static Attempt attempt(int attemptId, String spanId, String idempotencyKey, long startedAt, long endedAt,
            double durationMs, Outcome outcome, Integer status, ErrorClass errorClass, String retryAfter,
            String responseDate, CommitState commitState, CommitStateSource commitStateSource, String retryReason,
            String requestHash, RawJson attributes, String source, int sourceIndex, long line, long column,
            String pointerPrefix, int pointerIndex, String nestedPrefix, int nestedIndex) {
        try {
            return (Attempt) ATTEMPT_PLACED.invokeExact(attemptId, spanId, idempotencyKey, startedAt, endedAt,
                    durationMs, outcome, status, errorClass, retryAfter, responseDate, commitState, commitStateSource,
                    retryReason, requestHash, attributes, source, sourceIndex, line, column, pointerPrefix,
                    pointerIndex, nestedPrefix, nestedIndex);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /**
     * {@code attempt} as a gRPC call that ended with {@code grpcStatus} (null while unknown) and whose
     * response carried {@code retryPushback} (null for none); {@code attempt} itself when both are null.
     */
    public static Attempt withGrpc(Attempt attempt, GrpcStatus grpcStatus, String retryPushback) {
        if (grpcStatus == null && retryPushback == null) {
            return attempt;
        }
        try {
            return (Attempt) WITH_GRPC.invokeExact(attempt, grpcStatus, retryPushback);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /**
     * An operation at {@code location}; {@code carried} lists the optional fields its format can carry,
     * {@code groupedBy} says why the tool joined its attempts (null when the input states its operations).
     */
    public static Operation operation(String id, String tool, Effect effect, String method, String target,
            String idempotencyKey, String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome,
            Clock clock, List<Attempt> attempts, List<Check> checks, RawJson attributes, Location location,
            Set<Field> carried, String groupedBy) {
        try {
            return (Operation) OPERATION.invokeExact(id, tool, effect, method, target, idempotencyKey, runId, parent,
                    deadlineMs, reportedOutcome, clock, attempts, checks, attributes, location, carried, groupedBy);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /** As {@link #operation(String, String, Effect, String, String, String, String, ParentRef, Long, ReportedOutcome, Clock, List, List, RawJson, Location, Set, String)}, as its input states it. */
    public static Operation operation(String id, String tool, Effect effect, String method, String target,
            String idempotencyKey, String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome,
            Clock clock, List<Attempt> attempts, List<Check> checks, RawJson attributes, Location location,
            Set<Field> carried) {
        return operation(id, tool, effect, method, target, idempotencyKey, runId, parent, deadlineMs, reportedOutcome,
                clock, attempts, checks, attributes, location, carried, null);
    }

    /**
     * An operation at {@code line}:{@code column} of source {@code source} (number {@code sourceIndex} of
     * the run), whose JSON Pointer is {@code pointerPrefix + pointerIndex} (or {@code pointerPrefix}
     * itself when {@code pointerIndex} is negative; null for none).
     */
    public static Operation operation(String id, String tool, Effect effect, String method, String target,
            String idempotencyKey, String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome,
            Clock clock, List<Attempt> attempts, List<Check> checks, RawJson attributes, String source,
            int sourceIndex, long line, long column, String pointerPrefix, int pointerIndex, Set<Field> carried,
            String groupedBy) {
        try {
            return (Operation) OPERATION_PLACED.invokeExact(id, tool, effect, method, target, idempotencyKey, runId,
                    parent, deadlineMs, reportedOutcome, clock, attempts, checks, attributes, source, sourceIndex,
                    line, column, pointerPrefix, pointerIndex, carried, groupedBy);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /** {@code op} with {@code parent} for its parent. */
    public static Operation withParent(Operation op, ParentRef parent) {
        return operation(op.id(), op.tool(), op.effect(), op.method(), op.target(), op.idempotencyKey(), op.runId(),
                parent, op.deadlineMs(), op.reportedOutcome(), op.clock(), op.attempts(), op.checks(),
                op.attributes(), op.location(), op.carried(), op.groupedBy());
    }

    /**
     * A finding of {@code rule}; {@code operation} is null for one about a whole run, {@code attempt}
     * null for one about a whole operation. Its fingerprint is computed when first asked for.
     */
    public static Finding finding(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, String message, Evidence evidence, Location location) {
        try {
            return (Finding) FINDING.invokeExact(rule, severity, operation, attempt, tool, run, message, evidence,
                    location);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /** As {@link #finding(String, Severity, String, Integer, String, String, String, Evidence, Location)}, the message built when read. */
    public static Finding finding(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, Finding.Message message, Evidence evidence, Location location) {
        try {
            return (Finding) FINDING_MESSAGE.invokeExact(rule, severity, operation, attempt, tool, run, message,
                    evidence, location);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }

    /** As {@link #finding(String, Severity, String, Integer, String, String, String, Evidence, Location)}, with a fingerprint given. */
    public static Finding finding(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, String message, Evidence evidence, Location location, String fingerprint) {
        try {
            return (Finding) FINDING_FINGERPRINT.invokeExact(rule, severity, operation, attempt, tool, run, message,
                    evidence, location, fingerprint);
        } catch (Throwable e) {
            throw rethrown(e);
        }
    }
}
