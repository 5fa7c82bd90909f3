package dev.retryaudit.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Thresholds, per-tool settings and per-rule settings that the rules read. A caller takes {@link #DEFAULTS},
 * has a JSON policy file read ({@code AuditSettings.Builder.policy(Path)}; {@code RetryAudit.settings().policy()}
 * gives it read), builds one in code ({@link #builder()}, {@link #toBuilder()}), or reads the policy of an audit
 * from {@code RuleContext.policy()}.
 */
public final class Policy implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The policy used when no policy file is given; its values are the documented ones. */
    public static final Policy DEFAULTS = new Builder().build();

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
    private final Map<String, String> toolKeyArguments;
    private final Map<String, Severity> ruleSeverities;
    private final Map<String, Boolean> rulesEnabled;
    private final List<String> grpcReads;
    private final List<String> grpcWrites;
    private final Set<GrpcStatus> grpcNonRetryableStatuses;

    private Policy(Builder b) {
        if (b.maxAttempts < 1 || b.minBackoffMs < 0 || b.retryBudgetRatio < 0 || b.retryBudgetMinRetries < 0
                || b.retryAfterToleranceMs < 0 || b.httpDateSkewMs < 0 || b.retryAfterMaxSeconds < 0
                || b.validationLoop < 1) {
            throw new IllegalArgumentException("policy values out of range");
        }
        this.maxAttempts = b.maxAttempts;
        this.minBackoffMs = b.minBackoffMs;
        this.retryBudgetRatio = b.retryBudgetRatio;
        this.retryBudgetMinRetries = b.retryBudgetMinRetries;
        this.retryAfterToleranceMs = b.retryAfterToleranceMs;
        this.httpDateSkewMs = b.httpDateSkewMs;
        this.retryAfterMaxSeconds = b.retryAfterMaxSeconds;
        this.nonRetryableStatuses = Set.copyOf(b.nonRetryableStatuses);
        this.retryableRejections = Set.copyOf(b.retryableRejections);
        this.validationLoop = b.validationLoop;
        this.tools = Set.copyOf(b.tools);
        this.toolEffects = Map.copyOf(b.toolEffects);
        this.toolMaxAttempts = Map.copyOf(b.toolMaxAttempts);
        this.toolsDedupingByKey = Set.copyOf(b.toolsDedupingByKey);
        this.toolKeyArguments = Map.copyOf(b.toolKeyArguments);
        this.ruleSeverities = Map.copyOf(b.ruleSeverities);
        this.rulesEnabled = Map.copyOf(b.rulesEnabled);
        this.grpcReads = List.copyOf(b.grpcReads);
        this.grpcWrites = List.copyOf(b.grpcWrites);
        this.grpcNonRetryableStatuses = Set.copyOf(b.grpcNonRetryableStatuses);
    }

    /** A builder starting from the documented defaults ({@link #DEFAULTS}). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy's values and settings, for a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder(this);
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

    /**
     * The argument of an agent's tool whose value is the call's idempotency key ({@code key_argument} of a
     * tools file), or null when the tool has none.
     */
    public String keyArgument(String tool) {
        return toolKeyArguments.get(Objects.requireNonNullElse(tool, ""));
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

    /** The tools this policy has settings for, even settings that are all absent. */
    public Set<String> tools() {
        return tools;
    }

    /** The severity this policy gives rule {@code id}, or null to keep the rule's own. */
    public Severity ruleSeverity(String id) {
        return ruleSeverities.get(id);
    }

    /** Whether this policy enables rule {@code id}: null when it does not say. */
    public Boolean ruleEnabled(String id) {
        return rulesEnabled.get(id);
    }

    /** The rules this policy has settings for. */
    public Set<String> rules() {
        Set<String> ids = new TreeSet<>(ruleSeverities.keySet());
        ids.addAll(rulesEnabled.keySet());
        return ids;
    }

    /** The gRPC methods (full names or patterns, {@code *} for any run of characters) this policy says read. */
    public List<String> grpcReads() {
        return grpcReads;
    }

    /** The gRPC methods (full names or patterns) this policy says write; a method both lists name writes. */
    public List<String> grpcWrites() {
        return grpcWrites;
    }

    /** Every part by its name, in the order the policy file gives them: what {@link #differences}, equality and {@link #toString} read. */
    private Map<String, Object> parts() {
        Map<String, Object> parts = new LinkedHashMap<>();
        parts.put("maxAttempts", maxAttempts);
        parts.put("minBackoffMs", minBackoffMs);
        parts.put("retryBudgetRatio", retryBudgetRatio);
        parts.put("retryBudgetMinRetries", retryBudgetMinRetries);
        parts.put("retryAfterToleranceMs", retryAfterToleranceMs);
        parts.put("httpDateSkewMs", httpDateSkewMs);
        parts.put("retryAfterMaxSeconds", retryAfterMaxSeconds);
        parts.put("nonRetryableStatuses", nonRetryableStatuses);
        parts.put("retryableRejections", retryableRejections);
        parts.put("validationLoop", validationLoop);
        parts.put("tools", tools);
        parts.put("toolEffects", toolEffects);
        parts.put("toolMaxAttempts", toolMaxAttempts);
        parts.put("toolsDedupingByKey", toolsDedupingByKey);
        parts.put("toolKeyArguments", toolKeyArguments);
        parts.put("ruleSeverities", ruleSeverities);
        parts.put("rulesEnabled", rulesEnabled);
        parts.put("grpcReads", grpcReads);
        parts.put("grpcWrites", grpcWrites);
        parts.put("grpcNonRetryableStatuses", grpcNonRetryableStatuses);
        return parts;
    }

    /** The names of the parts in which {@code other} differs from this policy ({@code maxAttempts}, {@code toolEffects}, ...), in their order. */
    public List<String> differences(Policy other) {
        Map<String, Object> theirs = other.parts();
        List<String> names = new ArrayList<>();
        parts().forEach((name, value) -> {
            if (!value.equals(theirs.get(name))) {
                names.add(name);
            }
        });
        return names;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Policy p && parts().equals(p.parts());
    }

    @Override
    public int hashCode() {
        return parts().hashCode();
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Policy[");
        parts().forEach((name, value) -> s.append(s.length() == 7 ? "" : ", ").append(name).append('=').append(value));
        return s.append(']').toString();
    }

    /**
     * Builds a policy in code, as a policy file gives one: it starts from the defaults ({@link Policy#builder()})
     * or another policy ({@link Policy#toBuilder()}); a value out of range is refused when built.
     */
    public static final class Builder {
        private int maxAttempts = 3;
        private long minBackoffMs = 50;
        private double retryBudgetRatio = 0.2;
        private int retryBudgetMinRetries = 10;
        private long retryAfterToleranceMs = 100;
        private long httpDateSkewMs = 1000;
        private long retryAfterMaxSeconds = 21600;
        private Set<Integer> nonRetryableStatuses = Set.of(400, 403, 404, 405, 406, 410, 411, 414, 415, 422, 501);
        private Set<Integer> retryableRejections = Set.of(408, 425, 429, 503);
        private int validationLoop = 3;
        private final Set<String> tools = new HashSet<>();
        private final Map<String, Effect> toolEffects = new HashMap<>();
        private final Map<String, Integer> toolMaxAttempts = new HashMap<>();
        private final Set<String> toolsDedupingByKey = new HashSet<>();
        private final Map<String, String> toolKeyArguments = new HashMap<>();
        private final Map<String, Severity> ruleSeverities = new HashMap<>();
        private final Map<String, Boolean> rulesEnabled = new HashMap<>();
        private List<String> grpcReads = List.of();
        private List<String> grpcWrites = List.of();
        private Set<GrpcStatus> grpcNonRetryableStatuses = defaultGrpcNonRetryable();

        private Builder() {
        }

        private Builder(Policy p) {
            maxAttempts = p.maxAttempts;
            minBackoffMs = p.minBackoffMs;
            retryBudgetRatio = p.retryBudgetRatio;
            retryBudgetMinRetries = p.retryBudgetMinRetries;
            retryAfterToleranceMs = p.retryAfterToleranceMs;
            httpDateSkewMs = p.httpDateSkewMs;
            retryAfterMaxSeconds = p.retryAfterMaxSeconds;
            nonRetryableStatuses = p.nonRetryableStatuses;
            retryableRejections = p.retryableRejections;
            validationLoop = p.validationLoop;
            tools.addAll(p.tools);
            toolEffects.putAll(p.toolEffects);
            toolMaxAttempts.putAll(p.toolMaxAttempts);
            toolsDedupingByKey.addAll(p.toolsDedupingByKey);
            toolKeyArguments.putAll(p.toolKeyArguments);
            ruleSeverities.putAll(p.ruleSeverities);
            rulesEnabled.putAll(p.rulesEnabled);
            grpcReads = p.grpcReads;
            grpcWrites = p.grpcWrites;
            grpcNonRetryableStatuses = p.grpcNonRetryableStatuses;
        }

        /** The attempt budget of an operation ({@code max_attempts}), unless its tool has its own. */
        public Builder maxAttempts(int value) {
            maxAttempts = value;
            return this;
        }

        /** The shortest wait between attempts that is not a hot loop ({@code min_backoff_ms}). */
        public Builder minBackoffMs(long value) {
            minBackoffMs = value;
            return this;
        }

        /** The retry budget: at most {@code ratio} retries per first attempt, judged after {@code minRetries} retries. */
        public Builder retryBudget(double ratio, int minRetries) {
            retryBudgetRatio = ratio;
            retryBudgetMinRetries = minRetries;
            return this;
        }

        /** The Retry-After settings: tolerance and HTTP-date skew in milliseconds, the longest wait in seconds. */
        public Builder retryAfter(long toleranceMs, long httpDateSkewMs, long maxSeconds) {
            retryAfterToleranceMs = toleranceMs;
            this.httpDateSkewMs = httpDateSkewMs;
            retryAfterMaxSeconds = maxSeconds;
            return this;
        }

        /** The HTTP statuses that repeating a request unchanged cannot fix ({@code non_retryable_statuses}). */
        public Builder nonRetryableStatuses(Set<Integer> value) {
            nonRetryableStatuses = value;
            return this;
        }

        /** The rejections a server sends to be retried later ({@code retryable_rejections}). */
        public Builder retryableRejections(Set<Integer> value) {
            retryableRejections = value;
            return this;
        }

        /** How many identical failed attempts make a validation loop ({@code validation_loop}). */
        public Builder validationLoop(int value) {
            validationLoop = value;
            return this;
        }

        /** The settings of {@code tool}, in place of any it had; a null value falls back to the policy-wide one. */
        public Builder tool(String tool, Effect effect, Integer maxAttempts, Boolean dedupesByKey) {
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

        /** The argument of agent tool {@code tool} whose value is the call's idempotency key; null for none. */
        public Builder keyArgument(String tool, String argument) {
            put(toolKeyArguments, tool, argument);
            return this;
        }

        /** The settings of rule {@code id}, in place of any it had; a null value keeps the rule's default. */
        public Builder rule(String id, Severity severity, Boolean enabled) {
            put(ruleSeverities, id, severity);
            put(rulesEnabled, id, enabled);
            return this;
        }

        /** The gRPC settings: the methods that read and write (patterns, {@code *} for any run), and the non-retryable status codes. */
        public Builder grpc(List<String> reads, List<String> writes, Set<GrpcStatus> nonRetryable) {
            grpcReads = new ArrayList<>(reads);
            grpcWrites = new ArrayList<>(writes);
            grpcNonRetryableStatuses = nonRetryable;
            return this;
        }

        /** The policy; a value out of range is an {@link IllegalArgumentException}. */
        public Policy build() {
            return new Policy(this);
        }

        private static <V> void put(Map<String, V> map, String key, V value) {
            if (value == null) {
                map.remove(key);
            } else {
                map.put(key, value);
            }
        }
    }
}
