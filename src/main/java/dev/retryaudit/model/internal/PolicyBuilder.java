package dev.retryaudit.model.internal;

import dev.retryaudit.model.Effect;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes a policy from its parts, as the policy reader and the probe do: the model keeps the policy's
 * constructor and its per-tool, per-rule and gRPC settings out of its API, and this builder reaches them with
 * the model's own access (once per policy, never on the way of an attempt).
 */
public final class PolicyBuilder {
    private static final MethodHandle MAKE;
    private static final MethodHandle PARTS;
    private static final MethodHandle DIFFERENCES;
    /** Positions in the policy's parts, which are in the order of its constructor's parameters. */
    private static final int TOOLS = 10;
    private static final int RULE_SEVERITIES = 14;
    private static final int RULES_ENABLED = 15;
    private static final int GRPC_READS = 16;
    private static final int GRPC_WRITES = 17;

    static {
        try {
            var lookup = Models.lookup(Policy.class);
            MAKE = lookup.findConstructor(Policy.class, MethodType.methodType(void.class, int.class, long.class,
                    double.class, int.class, long.class, long.class, long.class, Set.class, Set.class, int.class,
                    Set.class, Map.class, Map.class, Set.class, Map.class, Map.class, List.class, List.class, Set.class));
            PARTS = lookup.findVirtual(Policy.class, "parts", MethodType.methodType(Object[].class));
            DIFFERENCES = lookup.findVirtual(Policy.class, "differences", MethodType.methodType(List.class, Policy.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int maxAttempts;
    private long minBackoffMs;
    private double retryBudgetRatio;
    private int retryBudgetMinRetries;
    private long retryAfterToleranceMs;
    private long httpDateSkewMs;
    private long retryAfterMaxSeconds;
    private Set<Integer> nonRetryableStatuses;
    private Set<Integer> retryableRejections;
    private int validationLoop;
    private final Set<String> tools;
    private final Map<String, Effect> toolEffects;
    private final Map<String, Integer> toolMaxAttempts;
    private final Set<String> toolsDedupingByKey;
    private final Map<String, Severity> ruleSeverities;
    private final Map<String, Boolean> rulesEnabled;
    private List<String> grpcReads;
    private List<String> grpcWrites;
    private Set<GrpcStatus> grpcNonRetryableStatuses;

    @SuppressWarnings("unchecked")
    private PolicyBuilder(Object[] p) {
        maxAttempts = (Integer) p[0];
        minBackoffMs = (Long) p[1];
        retryBudgetRatio = (Double) p[2];
        retryBudgetMinRetries = (Integer) p[3];
        retryAfterToleranceMs = (Long) p[4];
        httpDateSkewMs = (Long) p[5];
        retryAfterMaxSeconds = (Long) p[6];
        nonRetryableStatuses = (Set<Integer>) p[7];
        retryableRejections = (Set<Integer>) p[8];
        validationLoop = (Integer) p[9];
        tools = new HashSet<>((Set<String>) p[TOOLS]);
        toolEffects = new HashMap<>((Map<String, Effect>) p[11]);
        toolMaxAttempts = new HashMap<>((Map<String, Integer>) p[12]);
        toolsDedupingByKey = new HashSet<>((Set<String>) p[13]);
        ruleSeverities = new HashMap<>((Map<String, Severity>) p[RULE_SEVERITIES]);
        rulesEnabled = new HashMap<>((Map<String, Boolean>) p[RULES_ENABLED]);
        grpcReads = (List<String>) p[GRPC_READS];
        grpcWrites = (List<String>) p[GRPC_WRITES];
        grpcNonRetryableStatuses = (Set<GrpcStatus>) p[18];
    }

    /** A builder starting from {@code policy}'s values and settings. */
    public static PolicyBuilder of(Policy policy) {
        return new PolicyBuilder(parts(policy));
    }

    /** The names of the parts of {@code b} that differ from {@code a}'s (its {@code maxAttempts}, its {@code toolEffects}, ...). */
    @SuppressWarnings("unchecked")
    public static List<String> differences(Policy a, Policy b) {
        try {
            return (List<String>) DIFFERENCES.invokeExact(a, b);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The tools {@code policy} has settings for, even settings that are all absent. */
    @SuppressWarnings("unchecked")
    public static Set<String> tools(Policy policy) {
        return (Set<String>) parts(policy)[TOOLS];
    }

    /** The severity {@code policy} gives rule {@code id}, or null to keep the rule's own. */
    @SuppressWarnings("unchecked")
    public static Severity severity(Policy policy, String id) {
        return ((Map<String, Severity>) parts(policy)[RULE_SEVERITIES]).get(id);
    }

    /** Whether {@code policy} enables rule {@code id}: null when it does not say. */
    @SuppressWarnings("unchecked")
    public static Boolean enabled(Policy policy, String id) {
        return ((Map<String, Boolean>) parts(policy)[RULES_ENABLED]).get(id);
    }

    /** The rules {@code policy} has settings for. */
    @SuppressWarnings("unchecked")
    public static Set<String> rules(Policy policy) {
        Object[] p = parts(policy);
        Set<String> ids = new HashSet<>(((Map<String, Severity>) p[RULE_SEVERITIES]).keySet());
        ids.addAll(((Map<String, Boolean>) p[RULES_ENABLED]).keySet());
        return ids;
    }

    /** The gRPC methods (full names or patterns) {@code policy} says read. */
    @SuppressWarnings("unchecked")
    public static List<String> grpcReads(Policy policy) {
        return (List<String>) parts(policy)[GRPC_READS];
    }

    /** The gRPC methods (full names or patterns) {@code policy} says write. */
    @SuppressWarnings("unchecked")
    public static List<String> grpcWrites(Policy policy) {
        return (List<String>) parts(policy)[GRPC_WRITES];
    }

    private static Object[] parts(Policy policy) {
        try {
            return (Object[]) PARTS.invokeExact(policy);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public PolicyBuilder maxAttempts(int value) {
        maxAttempts = value;
        return this;
    }

    public PolicyBuilder minBackoffMs(long value) {
        minBackoffMs = value;
        return this;
    }

    /** The retry budget: at most {@code ratio} retries per first attempt, judged after {@code minRetries} retries. */
    public PolicyBuilder retryBudget(double ratio, int minRetries) {
        retryBudgetRatio = ratio;
        retryBudgetMinRetries = minRetries;
        return this;
    }

    /** The Retry-After settings: tolerance and HTTP-date skew in milliseconds, the longest wait in seconds. */
    public PolicyBuilder retryAfter(long toleranceMs, long httpDateSkewMs, long maxSeconds) {
        retryAfterToleranceMs = toleranceMs;
        this.httpDateSkewMs = httpDateSkewMs;
        retryAfterMaxSeconds = maxSeconds;
        return this;
    }

    public PolicyBuilder nonRetryableStatuses(Set<Integer> value) {
        nonRetryableStatuses = value;
        return this;
    }

    public PolicyBuilder retryableRejections(Set<Integer> value) {
        retryableRejections = value;
        return this;
    }

    public PolicyBuilder validationLoop(int value) {
        validationLoop = value;
        return this;
    }

    /** The settings of {@code tool}, in place of any it had; a null value falls back to the policy-wide one. */
    public PolicyBuilder tool(String tool, Effect effect, Integer maxAttempts, Boolean dedupesByKey) {
        tools.add(tool);
        put(toolEffects, tool, effect);
        put(toolMaxAttempts, tool, maxAttempts);
        if (Boolean.TRUE.equals(dedupesByKey)) {
            toolsDedupingByKey.add(tool);
        } else {
            toolsDedupingByKey.remove(tool);
        }
        return this;
    }

    /** The settings of rule {@code id}, in place of any it had; a null value keeps the rule's default. */
    public PolicyBuilder rule(String id, Severity severity, Boolean enabled) {
        put(ruleSeverities, id, severity);
        put(rulesEnabled, id, enabled);
        return this;
    }

    /** The gRPC settings: the methods that read and write, and the non-retryable status codes. */
    public PolicyBuilder grpc(List<String> reads, List<String> writes, Set<GrpcStatus> nonRetryable) {
        grpcReads = new ArrayList<>(reads);
        grpcWrites = new ArrayList<>(writes);
        grpcNonRetryableStatuses = nonRetryable;
        return this;
    }

    /** The policy; a value out of range is an {@link IllegalArgumentException}. */
    public Policy build() {
        try {
            return (Policy) MAKE.invokeExact(maxAttempts, minBackoffMs, retryBudgetRatio, retryBudgetMinRetries,
                    retryAfterToleranceMs, httpDateSkewMs, retryAfterMaxSeconds, nonRetryableStatuses, retryableRejections,
                    validationLoop, tools, toolEffects, toolMaxAttempts, toolsDedupingByKey, ruleSeverities, rulesEnabled,
                    grpcReads, grpcWrites, grpcNonRetryableStatuses);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static <V> void put(Map<String, V> map, String key, V value) {
        if (value == null) {
            map.remove(key);
        } else {
            map.put(key, value);
        }
    }
}
