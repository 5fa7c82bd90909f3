package dev.retryaudit.model.internal;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.values.Clock;
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
import dev.retryaudit.model.values.LazyText;
import dev.retryaudit.model.values.ParentRef;

import dev.retryaudit.model.ReportedOutcome;
import dev.retryaudit.model.Severity;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;

/**
 * Makes attempts, operations and findings from their parts, as the readers and the engine hold them:
 * the model keeps these constructors out of its API, and this factory reaches them through classes
 * that {@link LambdaMetafactory} spins in the model's package, which call them directly (no reflection
 * on the way of an attempt), so that the model needs no reference back to this package.
 */
public final class Models {
    /** The attempt constructor of a location. */
    public interface AttemptParts {
        Attempt make(int attemptId, String spanId, String idempotencyKey, long startedAt, long endedAt,
                double durationMs, Outcome outcome, Integer status, ErrorClass errorClass, String retryAfter,
                String responseDate, CommitState commitState, CommitStateSource commitStateSource,
                String retryReason, String requestHash, String attributesJson, Location location);
    }

    /** The attempt constructor of a place kept as its parts. */
    public interface PlacedAttemptParts {
        Attempt make(int attemptId, String spanId, String idempotencyKey, long startedAt, long endedAt,
                double durationMs, Outcome outcome, Integer status, ErrorClass errorClass, String retryAfter,
                String responseDate, CommitState commitState, CommitStateSource commitStateSource,
                String retryReason, String requestHash, String attributesJson, String source, int sourceIndex,
                long line, long column, String pointerPrefix, int pointerIndex, String nestedPrefix, int nestedIndex);
    }

    /** An attempt as a gRPC call. */
    public interface Grpc {
        Attempt with(Attempt attempt, GrpcStatus grpcStatus, String retryPushback);
    }

    /** The operation constructor of a location. */
    public interface OperationParts {
        Operation make(String id, String tool, Effect effect, String method, String target, String idempotencyKey,
                String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome, Clock clock,
                List<Attempt> attempts, List<Check> checks, String attributesJson, Location location, Set<Field> carried,
                String groupedBy);
    }

    /** The operation constructor of a place kept as its parts. */
    public interface PlacedOperationParts {
        Operation make(String id, String tool, Effect effect, String method, String target, String idempotencyKey,
                String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome, Clock clock,
                List<Attempt> attempts, List<Check> checks, String attributesJson, String source, int sourceIndex,
                long line, long column, String pointerPrefix, int pointerIndex, Set<Field> carried, String groupedBy);
    }

    /** A finding's factory, its message a string or a {@link LazyText}. */
    public interface FindingParts<M> {
        Finding make(String rule, Severity severity, String operation, Integer attempt, String tool, String run,
                M message, Evidence evidence, Location location);
    }

    /** The constructor of a finding whose fingerprint is given. */
    public interface FingerprintedFindingParts {
        Finding make(String rule, Severity severity, String operation, Integer attempt, String tool, String run,
                String message, Evidence evidence, Location location, String fingerprint);
    }

    /*
     * Each factory is spun the first time it is used, in a holder class of its own: an audit of one format
     * uses a few of them, and each costs a class spun at start-up.
     */

    /** {@link AttemptParts}, spun when first used. */
    private static final class AttemptOfLocation {
        static final AttemptParts MAKE = constructing(AttemptParts.class, Attempt.class, int.class,
                String.class, String.class, long.class, long.class, double.class, Outcome.class, Integer.class,
                ErrorClass.class, String.class, String.class, CommitState.class, CommitStateSource.class,
                String.class, String.class, String.class, Location.class);
    }

    /** {@link PlacedAttemptParts}, spun when first used. */
    private static final class AttemptOfPlace {
        static final PlacedAttemptParts MAKE = constructing(PlacedAttemptParts.class, Attempt.class,
                int.class, String.class, String.class, long.class, long.class, double.class, Outcome.class,
                Integer.class, ErrorClass.class, String.class, String.class, CommitState.class,
                CommitStateSource.class, String.class, String.class, String.class, String.class, int.class,
                long.class, long.class, String.class, int.class, String.class, int.class);
    }

    /** {@link Grpc}, spun when first used. */
    private static final class GrpcAttempt {
        static final Grpc WITH = calling(Grpc.class, Attempt.class, "withGrpc",
                MethodType.methodType(Attempt.class, GrpcStatus.class, String.class));
    }

    /** {@link OperationParts}, spun when first used. */
    private static final class OperationOfLocation {
        static final OperationParts MAKE = constructing(OperationParts.class, Operation.class,
                String.class, String.class, Effect.class, String.class, String.class, String.class, String.class,
                ParentRef.class, Long.class, ReportedOutcome.class, Clock.class, List.class, List.class,
                String.class, Location.class, Set.class, String.class);
    }

    /** {@link PlacedOperationParts}, spun when first used. */
    private static final class OperationOfPlace {
        static final PlacedOperationParts MAKE = constructing(PlacedOperationParts.class, Operation.class,
                String.class, String.class, Effect.class, String.class, String.class, String.class, String.class,
                ParentRef.class, Long.class, ReportedOutcome.class, Clock.class, List.class, List.class,
                String.class, String.class, int.class, long.class, long.class, String.class, int.class, Set.class,
                String.class);
    }

    /** {@link FindingParts} of a message given as a string, spun when first used. */
    private static final class FindingOfText {
        static final FindingParts<String> MAKE = calling(FindingParts.class, Finding.class, "of",
                MethodType.methodType(Finding.class, String.class, Severity.class, String.class, Integer.class,
                        String.class, String.class, String.class, Evidence.class, Location.class));
    }

    /** {@link FindingParts} of a {@link LazyText}, spun when first used. */
    private static final class FindingOfMessage {
        static final FindingParts<LazyText> MAKE = calling(FindingParts.class, Finding.class, "of",
                MethodType.methodType(Finding.class, String.class, Severity.class, String.class, Integer.class,
                        String.class, String.class, LazyText.class, Evidence.class, Location.class));
    }

    /** {@link FingerprintedFindingParts}, spun when first used. */
    private static final class FindingOfFingerprint {
        static final FingerprintedFindingParts MAKE = constructing(FingerprintedFindingParts.class,
                Finding.class, String.class, Severity.class, String.class, Integer.class, String.class, String.class,
                String.class, Evidence.class, Location.class, String.class);
    }

    /** An instance of {@code type} whose method calls the constructor of {@code owner} that takes {@code parameters}. */
    private static <T> T constructing(Class<?> type, Class<?> owner, Class<?>... parameters) {
        try {
            return direct(type, constructor(owner, parameters));
        } catch (ReflectiveOperationException | LambdaConversionException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An instance of {@code type} whose method calls {@code owner}'s method {@code name} (static, else virtual). */
    private static <T> T calling(Class<?> type, Class<?> owner, String name, MethodType method) {
        try {
            MethodHandles.Lookup lookup = lookup(owner);
            MethodHandle target;
            try {
                target = lookup.findStatic(owner, name, method);
            } catch (IllegalAccessException | NoSuchMethodException notStatic) {
                target = lookup.findVirtual(owner, name, method);
            }
            return direct(type, target);
        } catch (ReflectiveOperationException | LambdaConversionException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Models() {
    }

    /** The lookup with the access of {@code type}'s own package, which the module always opens to itself. */
    static MethodHandles.Lookup lookup(Class<?> type) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    }

    /**
     * An instance of the one-method interface {@code type} whose method calls {@code target} directly:
     * a class spun in the target's package, as a lambda's is.
     */
    @SuppressWarnings("unchecked")
    static <T> T direct(Class<?> type, MethodHandle target) throws ReflectiveOperationException,
            LambdaConversionException {
        Method sam = null;
        for (Method m : type.getMethods()) {
            if (Modifier.isAbstract(m.getModifiers())) {
                sam = m;
                break;
            }
        }
        MethodType erased = MethodType.methodType(sam.getReturnType(), sam.getParameterTypes());
        MethodHandles.Lookup in = lookup(target.type().returnType().isPrimitive()
                ? target.type().parameterType(0) : target.type().returnType());
        try {
            return (T) LambdaMetafactory.metafactory(in, sam.getName(), MethodType.methodType(type), erased, target,
                    target.type()).getTarget().invoke();
        } catch (LambdaConversionException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
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
            String requestHash, String attributesJson, Location location) {
        return AttemptOfLocation.MAKE.make(attemptId, spanId, idempotencyKey, startedAt, endedAt, durationMs,
                outcome, status, errorClass, retryAfter, responseDate, commitState, commitStateSource,
                retryReason, requestHash, attributesJson, location);
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
            String requestHash, String attributesJson, String source, int sourceIndex, long line, long column,
            String pointerPrefix, int pointerIndex, String nestedPrefix, int nestedIndex) {
        return AttemptOfPlace.MAKE.make(attemptId, spanId, idempotencyKey, startedAt, endedAt,
                durationMs, outcome, status, errorClass, retryAfter, responseDate, commitState, commitStateSource,
                retryReason, requestHash, attributesJson, source, sourceIndex, line, column, pointerPrefix,
                pointerIndex, nestedPrefix, nestedIndex);
    }

    /**
     * {@code attempt} as a gRPC call that ended with {@code grpcStatus} (null while unknown) and whose
     * response carried {@code retryPushback} (null for none); {@code attempt} itself when both are null.
     */
    public static Attempt withGrpc(Attempt attempt, GrpcStatus grpcStatus, String retryPushback) {
        if (grpcStatus == null && retryPushback == null) {
            return attempt;
        }
        return GrpcAttempt.WITH.with(attempt, grpcStatus, retryPushback);
    }

    /**
     * An operation at {@code location}; {@code carried} lists the optional fields its format can carry,
     * {@code groupedBy} says why the tool joined its attempts (null when the input states its operations).
     */
    public static Operation operation(String id, String tool, Effect effect, String method, String target,
            String idempotencyKey, String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome,
            Clock clock, List<Attempt> attempts, List<Check> checks, String attributesJson, Location location,
            Set<Field> carried, String groupedBy) {
        return OperationOfLocation.MAKE.make(id, tool, effect, method, target, idempotencyKey, runId, parent,
                deadlineMs, reportedOutcome, clock, attempts, checks, attributesJson, location, carried, groupedBy);
    }

    /** As {@link #operation(String, String, Effect, String, String, String, String, ParentRef, Long, ReportedOutcome, Clock, List, List, String, Location, Set, String)}, as its input states it. */
    public static Operation operation(String id, String tool, Effect effect, String method, String target,
            String idempotencyKey, String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome,
            Clock clock, List<Attempt> attempts, List<Check> checks, String attributesJson, Location location,
            Set<Field> carried) {
        return operation(id, tool, effect, method, target, idempotencyKey, runId, parent, deadlineMs, reportedOutcome,
                clock, attempts, checks, attributesJson, location, carried, null);
    }

    /**
     * An operation at {@code line}:{@code column} of source {@code source} (number {@code sourceIndex} of
     * the run), whose JSON Pointer is {@code pointerPrefix + pointerIndex} (or {@code pointerPrefix}
     * itself when {@code pointerIndex} is negative; null for none).
     */
    public static Operation operation(String id, String tool, Effect effect, String method, String target,
            String idempotencyKey, String runId, ParentRef parent, Long deadlineMs, ReportedOutcome reportedOutcome,
            Clock clock, List<Attempt> attempts, List<Check> checks, String attributesJson, String source,
            int sourceIndex, long line, long column, String pointerPrefix, int pointerIndex, Set<Field> carried,
            String groupedBy) {
        return OperationOfPlace.MAKE.make(id, tool, effect, method, target, idempotencyKey, runId,
                parent, deadlineMs, reportedOutcome, clock, attempts, checks, attributesJson, source, sourceIndex,
                line, column, pointerPrefix, pointerIndex, carried, groupedBy);
    }

    /** The attempt {@code op} ran inside, as the linker and the rules pass it on; null when it ran inside none. */
    public static ParentRef parent(Operation op) {
        return op.parentOperation() == null ? null : new ParentRef(op.parentOperation(), op.parentAttempt());
    }

    /** {@code op} with {@code parent} for its parent. */
    public static Operation withParent(Operation op, ParentRef parent) {
        return operation(op.id(), op.tool(), op.effect(), op.method(), op.target(), op.idempotencyKey(), op.runId(),
                parent, op.deadlineMs(), op.reportedOutcome(), op.serverClock() ? Clock.SERVER : Clock.CLIENT, op.attempts(), op.checks(),
                op.attributesJson(), op.location(), op.carried(), op.groupedBy());
    }

    /**
     * A finding of {@code rule}; {@code operation} is null for one about a whole run, {@code attempt}
     * null for one about a whole operation. Its fingerprint is computed when first asked for.
     */
    public static Finding finding(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, String message, Evidence evidence, Location location) {
        return FindingOfText.MAKE.make(rule, severity, operation, attempt, tool, run, message, evidence,
                location);
    }

    /** As {@link #finding(String, Severity, String, Integer, String, String, String, Evidence, Location)}, the message built when read. */
    public static Finding finding(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, LazyText message, Evidence evidence, Location location) {
        return FindingOfMessage.MAKE.make(rule, severity, operation, attempt, tool, run, message,
                evidence, location);
    }

    /** As {@link #finding(String, Severity, String, Integer, String, String, String, Evidence, Location)}, with a fingerprint given. */
    public static Finding finding(String rule, Severity severity, String operation, Integer attempt, String tool,
            String run, String message, Evidence evidence, Location location, String fingerprint) {
        return FindingOfFingerprint.MAKE.make(rule, severity, operation, attempt, tool, run, message,
                evidence, location, fingerprint);
    }
}
