package dev.retryaudit.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Thresholds, per-tool settings and per-rule settings that the rules read. A caller takes {@link #DEFAULTS},
 * has a JSON policy file read ({@code AuditSettings.Builder.policy(Path)}; {@code RetryAudit.settings().policy()}
 * gives it read), or reads the policy of an audit from {@code RuleContext.policy()}; the policy reader and the
 * probe make theirs through the model's internal factory.
 */
public final class Policy implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The names of the parts, in the order of {@link #parts()}: what {@link #differences} and {@link #toString} name. */
    private static final List<String> PARTS = List.of("maxAttempts", "minBackoffMs", "retryBudgetRatio",
            "retryBudgetMinRetries", "retryAfterToleranceMs", "httpDateSkewMs", "retryAfterMaxSeconds",
            "nonRetryableStatuses", "retryableRejections", "validationLoop", "tools", "toolEffects", "toolMaxAttempts",
            "toolsDedupingByKey", "ruleSeverities", "rulesEnabled", "grpcReads", "grpcWrites",
            "grpcNonRetryableStatuses");

    /** The policy used when no policy file is given; its values are the documented ones. */
    public static final Policy DEFAULTS = new Policy(3, 50, 0.2, 10, 100, 1000, 21600,
            Set.of(400, 403, 404, 405, 406, 410, 411, 414, 415, 422, 501),
            Set.of(408, 425, 429, 503),
            3, Set.of(), Map.of(), Map.of(), Set.of(), Map.of(), Map.of(), List.of(), List.of(), defaultGrpcNonRetryable());

    private final int maxAttempts;
    private final long minBackoffMs;
    private final double retryBudgetRatio;
    private final int retryBudgetMinRetries;
    private final long retryAfterToleranceMs;
    private final long httpDateSkewMs;
    private final long retryAfterMaxSeconds;
    private final Set<Integer> nonRetryableStatuses;
    private final Set<Integer> retryableRejections;
    private final int validationLoop;
    private final Set<String> tools;
    private final Map<String, Effect> toolEffects;
    private final Map<String, Integer> toolMaxAttempts;
    private final Set<String> toolsDedupingByKey;
    private final Map<String, Severity> ruleSeverities;
    private final Map<String, Boolean> rulesEnabled;
    private final List<String> grpcReads;
    private final List<String> grpcWrites;
    private final Set<GrpcStatus> grpcNonRetryableStatuses;

    /**
     * Reached by {@code model.internal.PolicyBuilder} alone, in the order of {@link #PARTS}: {@code tools} names
     * every tool with settings, the maps hold the settings a tool or rule sets (a tool's effect and attempt
     * budget, a rule's severity and whether it is enabled), the gRPC lists the methods that read and write.
     */
    private Policy(int maxAttempts, long minBackoffMs, double retryBudgetRatio, int retryBudgetMinRetries,
            long retryAfterToleranceMs, long httpDateSkewMs, long retryAfterMaxSeconds, Set<Integer> nonRetryableStatuses,
            Set<Integer> retryableRejections, int validationLoop, Set<String> tools, Map<String, Effect> toolEffects,
            Map<String, Integer> toolMaxAttempts, Set<String> toolsDedupingByKey, Map<String, Severity> ruleSeverities,
            Map<String, Boolean> rulesEnabled, List<String> grpcReads, List<String> grpcWrites,
            Set<GrpcStatus> grpcNonRetryableStatuses) {
        if (maxAttempts < 1 || minBackoffMs < 0 || retryBudgetRatio < 0 || retryBudgetMinRetries < 0
                || retryAfterToleranceMs < 0 || httpDateSkewMs < 0 || retryAfterMaxSeconds < 0 || validationLoop < 1) {
            throw new IllegalArgumentException("policy values out of range");
        }
        this.maxAttempts = maxAttempts;
        this.minBackoffMs = minBackoffMs;
        this.retryBudgetRatio = retryBudgetRatio;
        this.retryBudgetMinRetries = retryBudgetMinRetries;
        this.retryAfterToleranceMs = retryAfterToleranceMs;
        this.httpDateSkewMs = httpDateSkewMs;
        this.retryAfterMaxSeconds = retryAfterMaxSeconds;
        this.nonRetryableStatuses = Set.copyOf(nonRetryableStatuses);
        this.retryableRejections = Set.copyOf(retryableRejections);
        this.validationLoop = validationLoop;
        this.tools = Set.copyOf(tools);
        this.toolEffects = Map.copyOf(toolEffects);
        this.toolMaxAttempts = Map.copyOf(toolMaxAttempts);
        this.toolsDedupingByKey = Set.copyOf(toolsDedupingByKey);
        this.ruleSeverities = Map.copyOf(ruleSeverities);
        this.rulesEnabled = Map.copyOf(rulesEnabled);
        this.grpcReads = List.copyOf(grpcReads);
        this.grpcWrites = List.copyOf(grpcWrites);
        this.grpcNonRetryableStatuses = Set.copyOf(grpcNonRetryableStatuses);
        if (!tools.containsAll(toolEffects.keySet()) || !tools.containsAll(toolMaxAttempts.keySet())
                || !tools.containsAll(toolsDedupingByKey)) {
            throw new IllegalArgumentException("tool settings of a tool the policy does not name");
        }
    }

    private static Set<GrpcStatus> defaultGrpcNonRetryable() {
        Set<GrpcStatus> s = EnumSet.noneOf(GrpcStatus.class);
        for (GrpcStatus g : GrpcStatus.values()) {
            // UNAUTHENTICATED is the one rejection that new credentials may fix.
            if (g.isRejected() && g != GrpcStatus.UNAUTHENTICATED) {
                s.add(g);
            }
        }
        return s;
    }

    /** The attempt budget of an operation ({@code max_attempts}), unless its tool has its own. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The shortest wait between attempts that is not a hot loop ({@code min_backoff_ms}). */
    public long minBackoffMs() {
        return minBackoffMs;
    }

    /** The most retries per first attempt a run may make ({@code retry_budget.ratio}). */
    public double retryBudgetRatio() {
        return retryBudgetRatio;
    }

    /** The retries a run makes before its ratio is judged ({@code retry_budget.min_retries}). */
    public int retryBudgetMinRetries() {
        return retryBudgetMinRetries;
    }

    /** How much earlier than Retry-After asked a retry may come ({@code retry_after.tolerance_ms}). */
    public long retryAfterToleranceMs() {
        return retryAfterToleranceMs;
    }

    /** The clock skew allowed between an HTTP-date Retry-After and the response's Date ({@code retry_after.http_date_skew_ms}). */
    public long httpDateSkewMs() {
        return httpDateSkewMs;
    }

    /** The longest Retry-After a client should honour ({@code retry_after.max_seconds}). */
    public long retryAfterMaxSeconds() {
        return retryAfterMaxSeconds;
    }

    /** The HTTP statuses that repeating a request unchanged cannot fix ({@code non_retryable_statuses}). */
    public Set<Integer> nonRetryableStatuses() {
        return nonRetryableStatuses;
    }

    /** The rejections a server sends to be retried later ({@code retryable_rejections}). */
    public Set<Integer> retryableRejections() {
        return retryableRejections;
    }

    /** How many identical failed attempts make a validation loop ({@code validation_loop}). */
    public int validationLoop() {
        return validationLoop;
    }

    /**
     * The gRPC status codes that are validation-like failures, which repeating the call unchanged cannot fix
     * ({@code grpc.non_retryable_statuses}, the gRPC counterpart of {@link #nonRetryableStatuses}).
     */
    public Set<GrpcStatus> grpcNonRetryableStatuses() {
        return grpcNonRetryableStatuses;
    }

    /**
     * The effect of an operation: what the input says, else the tool's policy, else, for an operation with no
     * HTTP method (a gRPC call is named by its full method name, {@code package.Service/Method}), the policy's gRPC
     * method lists (patterns in which {@code *} stands for any run of characters; a method both name writes),
     * else implied by the method (fail closed).
     */
    public Effect effectOf(Operation op) {
        if (op.effect() != null) {
            return op.effect();
        }
        Effect t = toolEffects.get(op.tool());
        if (t != null) {
            return t;
        }
        Effect declared = op.method() == null ? grpcEffectOf(op.tool()) : null;
        return declared != null ? declared : op.impliedEffect();
    }

    /** Whether the operation writes, after the policy's per-tool effect. */
    public boolean isWrite(Operation op) {
        return effectOf(op) == Effect.WRITE;
    }

    /** The attempt budget of a tool. */
    public int maxAttemptsFor(String tool) {
        Integer t = toolMaxAttempts.get(Objects.requireNonNullElse(tool, ""));
        return t != null ? t : maxAttempts;
    }

    /** Whether the tool's server deduplicates requests by idempotency key. */
    public boolean dedupesByKey(String tool) {
        return toolsDedupingByKey.contains(Objects.requireNonNullElse(tool, ""));
    }

    /** The effect the gRPC lists give method {@code fullName}: write when the writes name it, else read when the reads do, else null. */
    Effect grpcEffectOf(String fullName) {
        if (fullName == null) {
            return null;
        }
        for (String p : grpcWrites) {
            if (matches(p, fullName)) {
                return Effect.WRITE;
            }
        }
        for (String p : grpcReads) {
            if (matches(p, fullName)) {
                return Effect.READ;
            }
        }
        return null;
    }

    /** Whether {@code name} matches {@code pattern}, in which {@code *} is any run of characters and all else is literal. */
    static boolean matches(String pattern, String name) {
        int p = 0;
        int n = 0;
        int star = -1;
        int resume = 0;
        while (n < name.length()) {
            if (p < pattern.length() && pattern.charAt(p) != '*' && pattern.charAt(p) == name.charAt(n)) {
                p++;
                n++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = n;
            } else if (star >= 0) {
                p = star + 1;
                n = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    /** Every part, in the order of {@link #PARTS} and of the constructor; the internal factory reads them. */
    private Object[] parts() {
        return new Object[] {maxAttempts, minBackoffMs, retryBudgetRatio, retryBudgetMinRetries, retryAfterToleranceMs,
            httpDateSkewMs, retryAfterMaxSeconds, nonRetryableStatuses, retryableRejections, validationLoop, tools,
            toolEffects, toolMaxAttempts, toolsDedupingByKey, ruleSeverities, rulesEnabled, grpcReads, grpcWrites,
            grpcNonRetryableStatuses};
    }

    /** The names of the parts in which {@code other} differs from this policy, in their order; for the internal factory. */
    private List<String> differences(Policy other) {
        Object[] mine = parts();
        Object[] theirs = other.parts();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < mine.length; i++) {
            if (!mine[i].equals(theirs[i])) {
                names.add(PARTS.get(i));
            }
        }
        return names;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Policy p && Arrays.equals(parts(), p.parts());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(parts());
    }

    @Override
    public String toString() {
        Object[] values = parts();
        StringBuilder s = new StringBuilder("Policy[");
        for (int i = 0; i < values.length; i++) {
            s.append(i == 0 ? "" : ", ").append(PARTS.get(i)).append('=').append(values[i]);
        }
        return s.append(']').toString();
    }
}
