package dev.retryaudit.model;

import java.io.Serializable;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The policy's gRPC settings: which methods read and which write (gRPC has no method semantics, so
 * only the policy can say), and which status codes are validation-like failures that repeating the
 * call unchanged cannot fix (the gRPC counterpart of {@code non_retryable_statuses}). Methods are named
 * by their full name, {@code package.Service/Method}, or a pattern in which {@code *} stands for any
 * run of characters. A method that neither list names writes (fail closed); one both name writes.
 */
public record GrpcPolicy(List<String> reads, List<String> writes, Set<GrpcStatus> nonRetryableStatuses)
        implements Serializable {

    /** The default: no method declared, and every REJECTED status but UNAUTHENTICATED (which new credentials may fix) non-retryable. */
    public static final GrpcPolicy DEFAULTS = new GrpcPolicy(List.of(), List.of(), defaultNonRetryable());

    public GrpcPolicy {
        reads = List.copyOf(reads);
        writes = List.copyOf(writes);
        nonRetryableStatuses = Set.copyOf(nonRetryableStatuses);
    }

    private static Set<GrpcStatus> defaultNonRetryable() {
        Set<GrpcStatus> s = EnumSet.noneOf(GrpcStatus.class);
        for (GrpcStatus g : GrpcStatus.values()) {
            if (g.kind() == GrpcStatus.Kind.REJECTED && g != GrpcStatus.UNAUTHENTICATED) {
                s.add(g);
            }
        }
        return s;
    }

    /** The effect the lists give method {@code fullName}: write when {@code writes} names it, else read when {@code reads} does, else null. */
    public Effect effectOf(String fullName) {
        if (fullName == null) {
            return null;
        }
        for (String p : writes) {
            if (matches(p, fullName)) {
                return Effect.WRITE;
            }
        }
        for (String p : reads) {
            if (matches(p, fullName)) {
                return Effect.READ;
            }
        }
        return null;
    }

    /** Whether {@code name} matches {@code pattern}, in which {@code *} is any run of characters and all else is literal. */
    public static boolean matches(String pattern, String name) {
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
}
