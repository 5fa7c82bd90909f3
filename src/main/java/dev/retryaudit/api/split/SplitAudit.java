package dev.retryaudit.api.split;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.access.SplitAccess;
import dev.retryaudit.input.foreign.NoteParts;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.rules.engine.Engine;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * An audit split across threads, processes or machines, by the policy, rules, limits and baseline of one
 * {@link RetryAudit}: each part of the input is audited where it is ({@link #auditPart}), parts are combined
 * where an engine gathers them ({@link #combine}), and all parts of the input merge into the findings and
 * notes of one pass ({@link #merge}), whatever the split and order. Immutable and thread-safe.
 */
public final class SplitAudit {
    private final RetryAudit auditor;
    private final SplitAccess.Lender<RetryAudit, AuditResult, RetryAuditException> lent;

    private SplitAudit(RetryAudit auditor) {
        this.auditor = auditor;
        this.lent = Lent.lender();
    }

    /** The split audit by {@code auditor}'s settings. */
    public static SplitAudit of(RetryAudit auditor) {
        return new SplitAudit(Objects.requireNonNull(auditor, "auditor"));
    }

    /** The auditor whose settings this audit applies. */
    public RetryAudit auditor() {
        return auditor;
    }

    /**
     * Audits one part of a larger input (a partition, a file, a shard), leaving what only the whole
     * input can show to {@link #merge}. Operations of one run, key or parent chain may be in any part.
     */
    public AuditPart auditPart(Iterable<Operation> operations) {
        return auditPart(operations, NoteParts::new);
    }

    /**
     * Audits one part of a larger input as {@link #auditPart(Iterable)} does, {@code operations} built by
     * {@code reader}, with the input notes {@code reader} made while it read their lines (or others) and
     * linked them, which it forgets. Call it once {@code operations} have been iterated.
     */
    public AuditPart auditPart(Iterable<Operation> operations, LineReader reader) {
        return auditPart(operations, reader::takeNotes);
    }

    /** {@code operations} audited as one part, with the notes {@code notes} gives once they have been iterated. */
    private AuditPart auditPart(Iterable<Operation> operations, Supplier<NoteParts> notes) {
        Engine engine = lent.engine(auditor);
        InputSummary fed = lent.feed(engine, operations);
        return new AuditPart(engine.partial(), lent.limits(auditor), fed.operations(), fed.attempts(), notes.get(),
                null);
    }

    /**
     * The findings of the whole input whose parts, audited by auditors with this one's policy,
     * rules and limits, are {@code parts}: the same as one pass over it, whatever the split and order.
     * The one input summary holds the parts' notes, each source's as its reader gives a whole source, in
     * the order of the sources. A part audited otherwise is an {@link IllegalArgumentException} that
     * says what differs. The parts are left as they were: a part may be merged again.
     */
    public AuditResult merge(Collection<AuditPart> parts) {
        Engine engine = lent.engine(auditor);
        NoteParts notes = new NoteParts();
        InputSummary counted = take(parts, engine, notes);
        List<InputNote> noted = new ArrayList<>();
        notes.finish().values().forEach(noted::addAll);
        return lent.result(auditor, counted, noted, engine);
    }

    /**
     * {@code parts}, audited by auditors with this one's policy, rules and limits, as one part, not yet
     * judged: their findings, their aggregates merged key by key and their notes, as one
     * {@link #auditPart} over all their operations would give them; for an engine that merges the
     * pieces of a partition before it sends them on. Checked as {@link #merge} checks them; the parts
     * are left as they were.
     */
    public AuditPart combine(Collection<AuditPart> parts) {
        Engine engine = lent.engine(auditor);
        NoteParts notes = new NoteParts();
        InputSummary counted = take(parts, engine, notes);
        return new AuditPart(engine.partial(), lent.limits(auditor), counted.operations(), counted.attempts(), notes,
                null);
    }

    /** Merges {@code parts} into {@code engine} and {@code notes}: their operations and attempts. */
    private InputSummary take(Collection<AuditPart> parts, Engine engine, NoteParts notes) {
        Limits limits = lent.limits(auditor);
        long ops = 0;
        long attempts = 0;
        for (AuditPart p : parts) {
            notes.merge(p.notes());
            if (!p.limits().equals(limits)) {
                throw new IllegalArgumentException("a part audited with other limits cannot merge: " + p.limits()
                        + " is not " + limits);
            }
            engine.merge(p.state());
            ops += p.operations();
            attempts += p.attempts();
        }
        return new InputSummary("", "", ops, attempts);
    }
}
