package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Thresholds, per-tool settings and per-rule settings that the rules read. */
public record Policy(
        int maxAttempts,
        long minBackoffMs,
        double retryBudgetRatio,
        int retryBudgetMinRetries,
        long retryAfterToleranceMs,
        long httpDateSkewMs,
        long retryAfterMaxSeconds,
        Set<Integer> nonRetryableStatuses,
        Set<Integer> retryableRejections,
        int validationLoop,
        Map<String, ToolPolicy> tools,
        Map<String, RuleSetting> rules,
        GrpcPolicy grpc) implements Serializable {

    /** The policy used when no policy file is given; its values are the documented ones. */
    public static final Policy DEFAULTS = new Policy(3, 50, 0.2, 10, 100, 1000, 21600,
            Set.of(400, 403, 404, 405, 406, 410, 411, 414, 415, 422, 501),
            Set.of(408, 425, 429, 503),
            3, Map.of(), Map.of(), GrpcPolicy.DEFAULTS);

    public Policy {
        if (maxAttempts < 1 || minBackoffMs < 0 || retryBudgetRatio < 0 || retryBudgetMinRetries < 0
                || retryAfterToleranceMs < 0 || httpDateSkewMs < 0 || retryAfterMaxSeconds < 0 || validationLoop < 1) {
            throw new IllegalArgumentException("policy values out of range");
        }
        nonRetryableStatuses = Set.copyOf(nonRetryableStatuses);
        retryableRejections = Set.copyOf(retryableRejections);
        tools = Map.copyOf(tools);
        rules = Map.copyOf(rules);
        Objects.requireNonNull(grpc, "grpc");
    }

    /** A policy with the default gRPC settings. */
    public Policy(int maxAttempts, long minBackoffMs, double retryBudgetRatio, int retryBudgetMinRetries,
            long retryAfterToleranceMs, long httpDateSkewMs, long retryAfterMaxSeconds, Set<Integer> nonRetryableStatuses,
            Set<Integer> retryableRejections, int validationLoop, Map<String, ToolPolicy> tools,
            Map<String, RuleSetting> rules) {
        this(maxAttempts, minBackoffMs, retryBudgetRatio, retryBudgetMinRetries, retryAfterToleranceMs, httpDateSkewMs,
                retryAfterMaxSeconds, nonRetryableStatuses, retryableRejections, validationLoop, tools, rules,
                GrpcPolicy.DEFAULTS);
    }

    /** Settings for one tool; null fields fall back to the policy-wide values. */
    public record ToolPolicy(Effect effect, Integer maxAttempts, Boolean dedupesByKey) implements Serializable {
    }

    /** Settings for one rule; null fields keep the rule's defaults. */
    public record RuleSetting(Severity severity, Boolean enabled) implements Serializable {
    }

    /**
     * The effect of an operation: what the input says, else the tool's policy, else, for an operation
     * with no HTTP method (a gRPC call is named by its full method name), the gRPC method lists, else
     * implied by the method (fail closed).
     */
    public Effect effectOf(Operation op) {
        if (op.effect() != null) {
            return op.effect();
        }
        ToolPolicy t = tools.get(op.tool());
        if (t != null && t.effect() != null) {
            return t.effect();
        }
        Effect declared = op.method() == null ? grpc.effectOf(op.tool()) : null;
        return declared != null ? declared : op.impliedEffect();
    }

    /** Whether the operation writes, after the policy's per-tool effect. */
    public boolean isWrite(Operation op) {
        return effectOf(op) == Effect.WRITE;
    }

    /** The attempt budget of a tool. */
    public int maxAttemptsFor(String tool) {
        ToolPolicy t = tools.get(Objects.requireNonNullElse(tool, ""));
        return t != null && t.maxAttempts() != null ? t.maxAttempts() : maxAttempts;
    }

    /** Whether the tool's server deduplicates requests by idempotency key. */
    public boolean dedupesByKey(String tool) {
        ToolPolicy t = tools.get(Objects.requireNonNullElse(tool, ""));
        return t != null && Boolean.TRUE.equals(t.dedupesByKey());
    }
}
