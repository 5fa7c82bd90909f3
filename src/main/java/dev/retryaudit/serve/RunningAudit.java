package dev.retryaudit.serve;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.access.SplitAccess;
import dev.retryaudit.api.split.SplitAudit;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Operation;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.FindingOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * An audit in one process of operations that come in parts over time (the receiver's contexts as they close), by
 * the policy, rules and limits of one {@link RetryAudit}: each part is audited as it comes and the findings of
 * the per-operation rules are handed back at once, not kept; the cross-operation rules aggregate every part, key
 * by key, in one engine, and are judged at {@link #finish}. What it holds grows with the aggregates' keys, never
 * with the findings. The findings of one pass over every part are those handed back and those of
 * {@link #finish}, put in report order by {@link #report}: the split protocol of {@link SplitAudit} within one
 * process, with its engine, limits and judged result from the same access ({@link SplitAccess}). Not thread-safe.
 */
final class RunningAudit {
    /** What one part gave: its operations, their attempts, and the findings of the per-operation rules. */
    record Audited(long operations, long attempts, List<Finding> findings) {
        Audited {
            findings = List.copyOf(findings);
        }
    }

    private final RetryAudit auditor;
    private final SplitAccess.Lender<RetryAudit, AuditResult, RetryAuditException> lent;
    private final Engine engine;
    private List<Finding> judged;

    @SuppressWarnings("unchecked")
    private RunningAudit(RetryAudit auditor) {
        this.auditor = auditor;
        // The auditor's class has loaded, and lent its access as it did.
        this.lent = (SplitAccess.Lender<RetryAudit, AuditResult, RetryAuditException>) SplitAccess.lender();
        this.engine = lent.engine(auditor);
    }

    /** A running audit by {@code auditor}'s settings, nothing audited yet. */
    static RunningAudit of(RetryAudit auditor) {
        return new RunningAudit(Objects.requireNonNull(auditor, "auditor"));
    }

    /** Audits {@code operations}, one part of the input: the findings of the per-operation rules, which this audit forgets. */
    Audited audit(Iterable<Operation> operations) {
        requireOpen();
        InputSummary fed = lent.feed(engine, operations);
        return new Audited(fed.operations(), fed.attempts(), engine.takeFindings());
    }

    /**
     * Judges the cross-operation rules over every part audited: their findings less those the baseline holds, in
     * report order. Nothing can be audited after; a second call gives the same list.
     */
    List<Finding> finish() {
        if (judged == null) {
            judged = judged(engine);
        }
        return judged;
    }

    /**
     * Of the findings {@code handedBack} by {@link #audit} (of any parts, in any order), those the baseline does
     * not hold, in report order; of findings equal in that order, the one handed back first comes first.
     */
    List<Finding> unsuppressed(Collection<Finding> handedBack) {
        Engine.Partial none = lent.engine(auditor).partial();
        Engine alone = lent.engine(auditor);
        alone.merge(new Engine.Partial(none.setup(), List.copyOf(handedBack), none.aggregates()));
        return judged(alone);
    }

    /**
     * The findings of one pass over every part audited: those of the per-operation rules, {@code handedBack} in
     * the order {@link #audit} handed them back, and those of {@link #finish}, less those the baseline holds, in
     * report order; as {@link SplitAudit#merge} of the parts gives them.
     */
    List<Finding> report(Collection<Finding> handedBack) {
        List<Finding> perOperation = unsuppressed(handedBack);
        List<Finding> across = finish();
        // Both in report order: merged as one stable sort of the per-operation findings followed by the others.
        List<Finding> all = new ArrayList<>(perOperation.size() + across.size());
        int i = 0;
        int j = 0;
        while (i < perOperation.size() || j < across.size()) {
            if (j == across.size() || i < perOperation.size()
                    && FindingOrder.ORDER.compare(perOperation.get(i), across.get(j)) <= 0) {
                all.add(perOperation.get(i++));
            } else {
                all.add(across.get(j++));
            }
        }
        return all;
    }

    /** The judged findings of {@code e}, less those the baseline holds, in report order. */
    private List<Finding> judged(Engine e) {
        return lent.result(auditor, new InputSummary("", "", 0, 0), List.of(), e).findings();
    }

    private void requireOpen() {
        if (judged != null) {
            throw new IllegalStateException("the audit has finished");
        }
    }
}
