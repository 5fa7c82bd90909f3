package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.util.ArrayList;
import java.util.List;

/**
 * One request and its response as a foreign format records it (an OTLP span, a HAR entry). Hops
 * become attempts through {@link #attempts}, which folds redirects and authentication challenges
 * into the request that follows them: following a redirect or answering a challenge is part of one
 * attempt, not a retry.
 */
public final class Hop {
    /** The attempt number the input states explicitly, or null. */
    Integer attemptId;
    /** How many times the client had sent this request before ({@code http.request.resend_count}), or null. */
    public Integer resendCount;
    String spanId;
    public String idempotencyKey;
    /**
     * The id a client sends unchanged on every attempt of one call ({@code x-ms-client-request-id},
     * {@code amz-sdk-invocation-id}, an Azure span's {@code requestId}), or null.
     */
    String clientRequestId;
    public long startedAt = Times.NONE;
    long endedAt = Times.NONE;
    public double durationMs = Double.NaN;
    public Outcome outcome;
    public Integer status;
    public String retryAfter;
    public String responseDate;
    CommitState commitState;
    CommitStateSource commitStateSource;
    String retryReason;
    public String requestHash;
    public Location location;
    /** A gRPC attempt's status, error class and {@code grpc-retry-pushback-ms}, or null. */
    GrpcStatus grpcStatus;
    ErrorClass errorClass;
    String retryPushback;
    /** The canonical arguments of the agent's tool call this hop was sent for, or null. */
    String toolArguments;

    /**
     * The attempts made by hops of one operation, given in the order they were sent. A hop answered by
     * a redirect, or by the first authentication challenge of its attempt, is folded into the hop that
     * follows it: the attempt starts with the first hop and takes its response from the last. Neither
     * hop may carry an explicit attempt number. Attempts are numbered explicitly where the input says
     * so; otherwise, with {@code byResendCount}, by resend count + 1 less the hops folded so far (so a
     * missing resend leaves a gap that trace rules see) but never below the number before it + 1 (a
     * request linked without a count before it is one attempt more), else one more than the number
     * before it. The result is ordered by
     * attempt number, stably.
     */
    static List<Attempt> attempts(List<Hop> hops, boolean byResendCount) {
        List<Attempt> out = new ArrayList<>(hops.size());
        int folded = 0;
        int from = 0;
        int previous = 0;
        boolean challenged = false;
        for (int i = 0; i < hops.size(); i++) {
            Hop h = hops.get(i);
            Hop next = i + 1 < hops.size() ? hops.get(i + 1) : null;
            if (next != null && h.attemptId == null && next.attemptId == null && h.status != null
                    && (Http.isRedirect(h.status) || Http.isChallenge(h.status) && !challenged)) {
                challenged |= Http.isChallenge(h.status);
                folded++;
                continue;
            }
            int number;
            if (h.attemptId != null) {
                number = h.attemptId;
            } else if (byResendCount && h.resendCount != null) {
                number = Math.max(previous + 1, h.resendCount + 1 - folded);
            } else {
                number = previous + 1;
            }
            previous = number;
            out.add(merge(hops, from, i, number));
            from = i + 1;
            challenged = false;
        }
        out.sort(Attempt.BY_ID);
        return out;
    }

    /** One attempt from hops {@code from..to}: the start, span and place of the first, the response of the last. */
    private static Attempt merge(List<Hop> hops, int from, int to, int number) {
        Hop first = hops.get(from);
        Hop last = hops.get(to);
        double duration = last.durationMs;
        if (from < to && !Double.isNaN(duration)) {
            duration = Times.present(first.startedAt) && Times.present(last.startedAt)
                    ? last.startedAt + duration - first.startedAt : Double.NaN;
        }
        String key = last.idempotencyKey;
        CommitState state = last.commitState;
        CommitStateSource source = last.commitStateSource;
        String reason = last.retryReason;
        String hash = last.requestHash;
        for (int i = to - 1; i >= from; i--) {
            Hop h = hops.get(i);
            key = or(key, h.idempotencyKey);
            state = or(state, h.commitState);
            source = or(source, h.commitStateSource);
            reason = or(reason, h.retryReason);
            hash = or(hash, h.requestHash);
        }
        return Attempt.builder().attemptId(number).spanId(first.spanId).idempotencyKey(key)
                .startMillis(first.startedAt).endMillis(last.endedAt).durationMillis(duration).outcome(last.outcome)
                .status(last.status).errorClass(last.errorClass).retryAfter(last.retryAfter)
                .responseDate(last.responseDate).commitState(state).commitStateSource(source).retryReason(reason)
                .requestHash(hash).grpcStatus(last.grpcStatus).retryPushback(last.retryPushback)
                .toolArguments(or(last.toolArguments, first.toolArguments)).at(first.location)
                .build();
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
