package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.text.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The row of the commit-state decision table (docs/rules.md) that governs one retry of a write. Each
 * blocking row belongs to exactly one rule, so a retry is reported once however many facts
 * speak against it.
 */
public enum CommitGate {
    /** The format carries no commit_state and the previous attempt neither timed out nor lost its connection. */
    NO_FACT(true),
    /** No request left the process. */
    NOT_SENT(true),
    /** Attempt 1 ended unknown and a reconcile read after it returned not_found. */
    RECONCILED(true),
    /** Attempt 1 ended unknown, the tool dedupes by key, and both attempts sent the same key. */
    DEDUPLICATED(true),
    /** The previous attempt was rejected with a status in {@code retryable_rejections}. */
    RETRYABLE_REJECTION(true),
    /** The previous attempt failed validation: validation-repeat's, whatever its commit_state. */
    VALIDATION(false),
    /** The previous attempt was rejected, neither retryably nor for validation: effect-verification/retry-after-reject. */
    REJECTED(false),
    /** An earlier attempt or a reconcile read says the write landed: effect-verification/retry-after-commit or duplicate-commit. */
    COMMITTED(false),
    /** The previous attempt's fate is unknown and neither attempt sent a key: timeout-replay/keyless. */
    KEYLESS(false),
    /** Attempt 1's fate is unknown and nothing cleared the retry: timeout-replay/unreconciled. */
    UNRECONCILED(false),
    /** Attempt 2 or later ended unknown: timeout-replay/repeated-unknown. */
    REPEATED_UNKNOWN(false),
    /** The previous attempt has no commit_state in a format that carries it: effect-verification/missing-state. */
    MISSING(false);

    private final boolean allows;

    CommitGate(boolean allows) {
        this.allows = allows;
    }

    /** Whether the table lets the retry run. */
    public boolean allows() {
        return allows;
    }

    /**
     * The rows governing every retry of the write {@code op}: element {@code i - 1} is the row of the
     * attempt at list position {@code i}. Precedence, first match wins: a commit fact before the retry
     * (an earlier committed attempt, or a check after an earlier attempt that returned committed); a
     * validation failure of the previous attempt; its commit_state not_sent or rejected; an unclear
     * previous attempt (keyless, then attempt 2 or later, then reconciled, deduplicated, unreconciled);
     * else missing or no fact. One pass over attempts and checks, whatever their number.
     */
    static List<CommitGate> rows(Operation op, Policy policy) {
        List<Attempt> attempts = op.attempts();
        int firstCommitted = firstSeenCommitted(op);
        Check committedCheck = firstCommittedCheck(op);
        boolean firstReconciled = reconcile(op, attempts.get(0)) != null;
        List<CommitGate> rows = new ArrayList<>(attempts.size() - 1);
        for (int i = 1; i < attempts.size(); i++) {
            Attempt prior = attempts.get(i - 1);
            boolean committed = (firstCommitted >= 0 && firstCommitted < i)
                    || (committedCheck != null && committedCheck.afterAttempt() <= prior.attemptId());
            rows.add(committed ? COMMITTED : row(op, i, prior, attempts.get(i), firstReconciled, policy));
        }
        return rows;
    }

    /**
     * One retry of a write: the attempt at list position {@code position} ({@code next}), the attempt
     * before it ({@code prior}), and the row of the table that governs it.
     */
    public record Retry(int position, Attempt prior, Attempt next, CommitGate row) {
    }

    /**
     * What keeps the retries of the operation under audit once for every rule that asks: the engine's
     * rule context, which computes them at most once per operation.
     */
    public interface Memo {
        /** The retries of {@code op} as {@link #retries(Operation, Policy)} computes them, computed once for the current operation. */
        List<Retry> retries(Operation op);
    }

    /** The retries of {@code op} under the context's policy, computed once per operation when the context keeps them. */
    public static List<Retry> retries(Operation op, RuleContext ctx) {
        return ctx instanceof Memo memo ? memo.retries(op) : retries(op, ctx.policy());
    }

    /** Every retry of {@code op} with its row, in attempt order; none when the operation reads. */
    public static List<Retry> retries(Operation op, Policy policy) {
        if (op.attempts().size() < 2 || !policy.isWrite(op)) {
            return List.of();
        }
        List<Attempt> attempts = op.attempts();
        List<CommitGate> rows = rows(op, policy);
        List<Retry> retries = new ArrayList<>(rows.size());
        for (int i = 1; i < attempts.size(); i++) {
            retries.add(new Retry(i, attempts.get(i - 1), attempts.get(i), rows.get(i - 1)));
        }
        return retries;
    }

    private static CommitGate row(Operation op, int i, Attempt prior, Attempt next, boolean firstReconciled,
            Policy policy) {
        if (NonRetryableFailure.is(prior, policy)) {
            return VALIDATION;
        }
        CommitState state = prior.commitState();
        if (state == CommitState.NOT_SENT) {
            return NOT_SENT;
        }
        if (state == CommitState.REJECTED) {
            boolean retryable = prior.grpcStatus() != null ? prior.grpcStatus().isTransient()
                    : prior.status() != null && policy.retryableRejections().contains(prior.status());
            return retryable ? RETRYABLE_REJECTION : REJECTED;
        }
        if (isUnclear(op, prior)) {
            String priorKey = Requests.key(op, prior, policy);
            String nextKey = Requests.key(op, next, policy);
            if (op.carries(Field.IDEMPOTENCY_KEY) && priorKey == null && nextKey == null) {
                return KEYLESS;
            }
            if (i > 1) {
                return REPEATED_UNKNOWN;
            }
            if (firstReconciled) {
                return RECONCILED;
            }
            if (policy.dedupesByKey(op.tool()) && priorKey != null && priorKey.equals(nextKey)) {
                return DEDUPLICATED;
            }
            return UNRECONCILED;
        }
        return state == null && op.carries(Field.COMMIT_STATE) ? MISSING : NO_FACT;
    }

    /**
     * Whether nobody knows if the attempt's write landed: commit_state unknown or, where the format
     * cannot carry commit_state, an attempt that timed out or lost its connection (a timeout means the
     * runner stopped waiting, not that the remote skipped the write), or a gRPC call that ended with a
     * status of unknown outcome (DEADLINE_EXCEEDED, CANCELLED, UNKNOWN, INTERNAL, DATA_LOSS: the server
     * may have run it).
     */
    public static boolean isUnclear(Operation op, Attempt a) {
        if (unseenCommit(a)) {
            return true;
        }
        if (a.commitState() != null) {
            return a.commitState() == CommitState.UNKNOWN;
        }
        return !op.carries(Field.COMMIT_STATE)
                && (a.outcome() == Outcome.TIMEOUT || a.outcome() == Outcome.CONNECTION_ERROR
                        || a.grpcStatus() != null && a.grpcStatus().leavesOutcomeUnknown());
    }

    /**
     * Whether the attempt committed on the server while its caller never saw the answer: a
     * {@code commit_state} committed with source {@code server} on an attempt that timed out or lost
     * its connection. It counts as a commit (a second one lands twice) but gates the retry as unclear,
     * since the caller could not know it.
     */
    public static boolean unseenCommit(Attempt a) {
        return a.commitState() == CommitState.COMMITTED && a.commitStateSource() == CommitStateSource.SERVER
                && (a.outcome() == Outcome.TIMEOUT || a.outcome() == Outcome.CONNECTION_ERROR);
    }

    /** The list position of the first committed attempt whose caller saw the commit, or -1. */
    public static int firstSeenCommitted(Operation op) {
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            if (attempts.get(i).commitState() == CommitState.COMMITTED && !unseenCommit(attempts.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /** The reconcile read that returned committed after the earliest attempt, or null. */
    public static Check firstCommittedCheck(Operation op) {
        Check first = null;
        for (Check c : op.checks()) {
            if (c.result() == CheckResult.COMMITTED && (first == null || c.afterAttempt() < first.afterAttempt())) {
                first = c;
            }
        }
        return first;
    }

    /** The reconcile read after {@code prior} that returned not_found, or null: what makes the next attempt reconciled. */
    public static Check reconcile(Operation op, Attempt prior) {
        for (Check c : op.checks()) {
            if (c.afterAttempt() == prior.attemptId() && c.result() == CheckResult.NOT_FOUND) {
                return c;
            }
        }
        return null;
    }

    /**
     * How an unclear attempt ended, in words: "whose commit_state is unknown", "that ended in timeout with
     * no commit_state" or, for a gRPC call, "that ended in gRPC DEADLINE_EXCEEDED with no commit_state".
     */
    public static String unclearEnding(Attempt a) {
        if (unseenCommit(a)) {
            return "that ended in " + Wire.name(a.outcome(), '_') + " before its caller saw the server commit it";
        }
        if (a.commitState() != null) {
            return "whose commit_state is " + Wire.name(a.commitState(), '_');
        }
        if (a.grpcStatus() != null) {
            return "that ended in gRPC " + a.grpcStatus() + " with no commit_state";
        }
        return "that ended in " + Wire.name(Objects.requireNonNull(a.outcome()), '_') + " with no commit_state";
    }
}
