package dev.retryaudit.api.access;

import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.rules.engine.Engine;
import java.util.List;
import java.util.Objects;

/**
 * The one place where the library face ({@code RetryAudit}, {@code RetryAuditException}) lends the split protocol
 * (and {@code serve}'s running audit, which audits a run part by part as the protocol does) what no library caller
 * may reach: an auditor's engine, limits and judged result, and the library error of an input error. The library
 * face lends it as its auditor class loads; the split protocol asks for it with that class loaded (it holds an
 * auditor, or loads the class first).
 */
public final class SplitAccess {
    private static volatile Lender<?, ?, ?> lender;

    private SplitAccess() {
    }

    /**
     * What an auditor of type {@code A} lends: results of type {@code R}, errors of type {@code X}.
     *
     * @param <A> the auditor
     * @param <R> its result
     * @param <X> its input error
     */
    public interface Lender<A, R, X extends Exception> {
        /** A new engine with the auditor's policy and rules, keeping no timelines. */
        Engine engine(A auditor);

        /** The auditor's limits. */
        Limits limits(A auditor);

        /** Hands {@code operations} to {@code engine}: their count and attempts, as an input of operations. */
        InputSummary feed(Engine engine, Iterable<Operation> operations);

        /**
         * The judged result of {@code engine}: one input of operations, with {@code counted}'s operations and attempts
         * and {@code notes}.
         */
        R result(A auditor, InputSummary counted, List<InputNote> notes, Engine engine);

        /** The library error of {@code e}. */
        X error(InputException e);
    }

    /** Lends {@code given}; once. */
    public static void lend(Lender<?, ?, ?> given) {
        lender = Objects.requireNonNull(given, "given");
    }

    /** What was lent; an {@link IllegalStateException} before the library face loaded. */
    public static Lender<?, ?, ?> lender() {
        Lender<?, ?, ?> l = lender;
        if (l == null) {
            throw new IllegalStateException("the library face lends the split protocol its access as it loads");
        }
        return l;
    }
}
