package dev.retryaudit.serve;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.http.RetryAfterValue;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.LinkingContexts;
import dev.retryaudit.input.foreign.PackedSpans;
import dev.retryaudit.input.foreign.ParentOffers;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.otlp.OtlpRecords;
import dev.retryaudit.input.foreign.zipkin.ZipkinRecords;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What {@code serve} has received and not yet judged, by source (OTLP exports, Zipkin bodies): each
 * export or body a numbered record of its source, read once, straight into attempt spans, which are held
 * by the linking context they belong to ({@link HeldContexts}) until the context closes; then the
 * context's spans are linked by the protocol {@code audit} uses ({@link LinkingContexts}), given their
 * parents among the operations of the source audited before ({@link ParentOffers}), audited, and their
 * findings handed on at once. A busy context is audited in windows ({@link ContextWindow}).
 * Cross-operation rules aggregate every part audited, key by key, and are judged at {@link #finish}; of the
 * findings handed on, the receiver keeps what the end needs ({@link HandedFindings}). Thread-safe: records are
 * read outside the lock, their spans held and audited under it.
 */
final class Receiver {
    /** The source name of OTLP exports, in locations and fingerprints: the path they are posted to. */
    static final String OTLP_SOURCE = "/v1/traces";
    /** The source name of Zipkin spans. */
    static final String ZIPKIN_SOURCE = "/api/v2/spans";

    private final RunningAudit audit;
    private final HandedFindings handed;
    private final long maxHeldSpans;
    private final LongSupplier clock;
    private final Consumer<List<Finding>> findings;
    private final Metrics metrics;
    private final OtlpRecords otlpRecords;
    private final ZipkinRecords zipkinRecords;
    private final Source otlp;
    private final Source zipkin;

    /** Held while linking and auditing, which the receiver's own lock is not: exports are taken meanwhile. */
    private final Object auditing = new Object();
    private boolean finished;

    /** The longest Retry-After that holds a context, in seconds: a longer one is taken as this long. */
    static final long RETRY_AFTER_CAP_SECONDS = 600;

    /** What became of the spans of one export: how many were taken, how many rejected, and why. */
    record Receipt(long accepted, long rejected, String message) {
    }

    /** A body that is no export (OTLP/JSON) or no array of spans (Zipkin): the receiver answers 400 with the message. */
    static final class BadExportException extends Exception {
        private static final long serialVersionUID = 1L;

        BadExportException(String message) {
            super(message, null, false, false);
        }
    }

    /** The receiver is holding as many spans as it may: the client should come back later. */
    static final class FullException extends Exception {
        private static final long serialVersionUID = 1L;

        FullException() {
            super("holding the most spans --max-held-spans allows", null, false, false);
        }
    }

    /**
     * One source of the run and what the receiver holds of it: its records numbered, its spans by context,
     * the offers of its operations audited for their children, its notes, and the operations and attempts
     * audited.
     */
    private static final class Source {
        final String name;
        final InputFormat format;
        final HeldContexts held;
        final ParentOffers offers;
        /** Makes a context to link this source's spans in. */
        final Supplier<ReadContext> linking;
        final ReadContext notes;
        final long[] counts = new long[2];
        long records;

        Source(String name, InputFormat format, long idleNanos, int offers, Supplier<ReadContext> linking) {
            this.name = name;
            this.format = format;
            this.held = new HeldContexts(idleNanos);
            this.offers = ParentOffers.latest(offers);
            this.linking = linking;
            this.notes = linking.get();
        }
    }

    /**
     * A receiver that audits by {@code auditor}, hands the findings of each part it audits to {@code findings}
     * together as they are made and, with a {@code reportSpill} directory, keeps every one for the result of
     * {@link #finish} in a temporary file there (else, when it is null, as many as its verdict needs).
     */
    Receiver(RetryAudit auditor, Limits limits, long idleNanos, long maxHeldSpans, LongSupplier clock,
            Consumer<List<Finding>> findings, Metrics metrics, Path reportSpill) {
        this.audit = RunningAudit.of(auditor);
        this.handed = new HandedFindings(audit, reportSpill);
        this.maxHeldSpans = maxHeldSpans;
        this.clock = clock;
        this.findings = findings;
        this.metrics = metrics;
        this.otlpRecords = new OtlpRecords(OTLP_SOURCE, 0, limits);
        this.zipkinRecords = new ZipkinRecords(ZIPKIN_SOURCE, 1, limits);
        int offers = (int) Math.min(Integer.MAX_VALUE, Math.max(1024, maxHeldSpans));
        this.otlp = new Source(OTLP_SOURCE, InputFormat.OTLP, idleNanos, offers, otlpRecords::context);
        this.zipkin = new Source(ZIPKIN_SOURCE, InputFormat.ZIPKIN, idleNanos, offers, zipkinRecords::context);
    }

    /** Numbers the next record of {@code source}; refuses when the spans held and {@code spans} more would pass the bound. */
    private synchronized long admit(Source source, long spans) throws FullException {
        if (finished) {
            throw new IllegalStateException("the receiver has finished");
        }
        long holding = heldSpans();
        if (holding > 0 && holding + spans > maxHeldSpans) {
            metrics.full();
            throw new FullException();
        }
        return ++source.records;
    }

    /**
     * Takes one OTLP export that holds {@code spans} spans, as OTLP/JSON or (json null) as the protobuf
     * {@code decoded} ({@link dev.retryaudit.input.foreign.otlp.OtlpProtobuf#decode}), so well-formed. A span value the audit cannot use (an attribute of the
     * wrong type) rejects the whole export, which the receipt counts and says why; JSON that is not an export
     * at all is a {@link BadExportException}.
     */
    Receipt otlp(byte[] json, byte[] decoded, long spans) throws FullException, BadExportException {
        long number = admit(otlp, spans);
        RetryLinker read = new RetryLinker();
        ReadContext notes = otlpRecords.context();
        try {
            otlpRecords.read(new OtlpRecords.Record(number, json, decoded), read, notes);
        } catch (InputException e) {
            if (decoded == null && !inSpanValue(e.path())) {
                throw new BadExportException(e.diagnostic());
            }
            metrics.rejected(spans);
            return new Receipt(0, spans, e.diagnostic());
        }
        hold(otlp, read.held(), notes.notes(), spans);
        return new Receipt(spans, 0, null);
    }

    /**
     * Takes one Zipkin v2 JSON body, read once into its attempt spans; one that is not an array of spans,
     * or holds a span the Zipkin reader rejects, is a {@link BadExportException}, taken not at all.
     */
    Receipt zipkin(byte[] body) throws FullException, BadExportException {
        ZipkinRecords.Body read;
        try {
            read = zipkinRecords.read(body, nextRecord(zipkin));
        } catch (InputException e) {
            throw new BadExportException(e.diagnostic());
        }
        RetryLinker placed = new RetryLinker();
        ReadContext notes = zipkinRecords.context();
        ZipkinRecords.place(admit(zipkin, read.spans()), read, placed, notes);
        hold(zipkin, placed.held(), notes.notes(), read.spans());
        return new Receipt(read.spans(), 0, null);
    }

    /** The number the next record of {@code source} would take, for a message about it before it is taken. */
    private synchronized long nextRecord(Source source) {
        return source.records + 1;
    }

    /**
     * Holds the attempt spans of one record of {@code source}, {@code spans} spans in all, read (and placed
     * at its record) into {@code read}, with the notes reading made, each span in its linking context.
     */
    private void hold(Source source, LinkingContexts read, List<InputNote> notes, long spans) {
        List<ForeignSpan> attemptSpans = read.spans();
        String[] keys = new String[attemptSpans.size()];
        long[] retryAfter = new long[attemptSpans.size()];
        byte[][] packed = new byte[attemptSpans.size()][];
        PackedSpans packing = new PackedSpans();
        for (int i = 0; i < keys.length; i++) {
            ForeignSpan span = attemptSpans.get(i);
            keys[i] = LinkingContexts.of(span);
            retryAfter[i] = retryAfterNanos(span);
            packed[i] = packing.pack(span);
        }
        synchronized (this) {
            for (InputNote n : notes) {
                source.notes.note(n.line(), n.column(), n.message());
            }
            metrics.received(spans);
            long now = clock.getAsLong();
            for (int i = 0; i < keys.length; i++) {
                source.held.hold(packed[i], attemptSpans.get(i).traceId(), keys[i], retryAfter[i], now);
            }
            metrics.held(heldSpans());
        }
    }

    /** Whether an error stands in a value that OTLP leaves free (an attribute's, an event's, a status's): valid OTLP, unusable spans. */
    private static boolean inSpanValue(String path) {
        return path != null && (path.contains(".attributes") || path.contains(".events") || path.contains(".status"));
    }

    /**
     * The Retry-After, in nanoseconds (at most {@link #RETRY_AFTER_CAP_SECONDS}), that the response of
     * {@code span} asked for; 0 for none or a date.
     */
    private static long retryAfterNanos(ForeignSpan span) {
        if (span.retryAfter() == null) {
            return 0;
        }
        RetryAfterValue v = RetryAfterValue.parse(span.retryAfter(), System.currentTimeMillis());
        return v != null && v.form() == RetryAfterValue.Form.DELAY_SECONDS
                ? Math.min(v.seconds(), RETRY_AFTER_CAP_SECONDS) * 1_000_000_000L : 0;
    }

    /**
     * Audits the contexts that closed, and cuts windows of the busy ones: taken from the held spans under
     * the receiver's lock, linked and audited outside it, so that exports go on being taken meanwhile.
     */
    void sweep() {
        synchronized (auditing) {
            List<List<byte[]>> otlpSpans;
            List<List<byte[]>> zipkinSpans;
            List<HeldContexts.Window> otlpWindows;
            List<HeldContexts.Window> zipkinWindows;
            synchronized (this) {
                if (finished) {
                    return;
                }
                long now = clock.getAsLong();
                otlpSpans = otlp.held.takeClosed(now);
                zipkinSpans = zipkin.held.takeClosed(now);
                otlpWindows = otlp.held.windowsDue(now);
                zipkinWindows = zipkin.held.windowsDue(now);
                metrics.held(heldSpans());
            }
            link(otlp, otlpSpans);
            link(zipkin, zipkinSpans);
            otlpWindows.forEach(w -> window(otlp, w));
            zipkinWindows.forEach(w -> window(zipkin, w));
        }
    }

    /** Audits the operations of window {@code w} of a busy context of {@code source} that closed, and lets go of their spans. */
    private void window(Source source, HeldContexts.Window w) {
        long newest = Long.MIN_VALUE;
        LinkingContexts linking = new LinkingContexts();
        List<ForeignSpan> spans = unpacked(w.spans());
        for (ForeignSpan span : spans) {
            newest = Math.max(newest, span.startNanos());
            linking.add(span);
        }
        List<RetryLinker.Linked> linked;
        try {
            linked = linking.link(source.linking.get(), false, null);
        } catch (InputException e) {
            return;
        }
        ContextWindow.Cut cut = ContextWindow.cut(linked, newest, w.quietNanos());
        if (cut.closed().isEmpty()) {
            return;
        }
        List<ForeignSpan> gone;
        synchronized (this) {
            gone = source.held.letGo(w, spans, cut, clock.getAsLong());
            if (gone == null) {
                return;
            }
            metrics.held(heldSpans());
        }
        // The window was linked whole to find the cut; the spans let go are linked again for their notes alone,
        // so that each span's notes are made once: now, or with the spans kept when they are let go.
        linked(source, gone);
        auditOperations(source.offers.parented(cut.closed()), source.counts);
    }

    /**
     * Audits every context still open and judges the cross-operation rules over everything audited, handing
     * their findings on: the findings of the whole run, as one report holds them (without a report, the
     * cross-operation rules' and, of the others, the first of each severity the baseline does not hold: what the
     * verdict needs). Exports that come after are refused.
     *
     * @throws IOException when the findings kept for the report could not all be kept or read back (the message
     *     says where and why); the rest of the run is finished all the same
     */
    AuditResult finish() throws IOException {
        synchronized (auditing) {
            List<List<byte[]>> otlpSpans;
            List<List<byte[]>> zipkinSpans;
            synchronized (this) {
                otlpSpans = otlp.held.takeAll();
                zipkinSpans = zipkin.held.takeAll();
                finished = true;
                metrics.held(heldSpans());
            }
            link(otlp, otlpSpans);
            link(zipkin, zipkinSpans);
            List<Finding> crossOperation = audit.finish();
            findings.accept(crossOperation);
            crossOperation.forEach(metrics::finding);
            List<Finding> all = audit.report(handed.kept());
            List<InputSummary> inputs = new ArrayList<>();
            synchronized (this) {
                inputs.add(summary(otlp));
                if (zipkin.counts[0] > 0 || !zipkin.notes.notes().isEmpty()) {
                    inputs.add(summary(zipkin));
                }
            }
            return new AuditResult(inputs, all);
        }
    }

    private static InputSummary summary(Source s) {
        return new InputSummary(s.name, s.format.id(), s.counts[0], s.counts[1], s.notes.notes());
    }

    /**
     * Links each part of {@code parts}, spans of {@code source}, into operations, with their parents among these
     * and those of the source audited before, and audits them.
     */
    private void link(Source source, List<List<byte[]>> parts) {
        for (List<byte[]> spans : parts) {
            if (spans.isEmpty()) {
                continue;
            }
            auditOperations(source.offers.parented(linked(source, unpacked(spans))), source.counts);
        }
    }

    /** The spans {@code packed}, unpacked. */
    private static List<ForeignSpan> unpacked(List<byte[]> packed) {
        PackedSpans unpacking = new PackedSpans();
        List<ForeignSpan> spans = new ArrayList<>(packed.size());
        for (byte[] p : packed) {
            spans.add(unpacking.unpack(p));
        }
        return spans;
    }

    /** The operations {@code spans} of {@code source} link into, without their parents; the linking's notes go to the source's. */
    private List<RetryLinker.Linked> linked(Source source, List<ForeignSpan> spans) {
        LinkingContexts linking = new LinkingContexts();
        spans.forEach(linking::add);
        ReadContext notes = source.linking.get();
        List<RetryLinker.Linked> linked;
        try {
            linked = linking.link(notes, false, null);
        } catch (InputException e) {
            // Each record was read alone when it came; linked together they may still pass a limit (attempts in one operation).
            notes.note(e.line(), e.column(), "spans left out: " + e.detail());
            linked = List.of();
        }
        synchronized (this) {
            for (InputNote n : notes.notes()) {
                source.notes.note(n.line(), n.column(), n.message());
            }
        }
        return linked;
    }

    /** Audits {@code ops}, counting them and their attempts in {@code counts}, and hands their findings on. */
    private void auditOperations(List<Operation> ops, long[] counts) {
        if (ops.isEmpty()) {
            return;
        }
        RunningAudit.Audited part = audit.audit(ops);
        counts[0] += part.operations();
        counts[1] += part.attempts();
        metrics.audited(part.operations());
        findings.accept(part.findings());
        part.findings().forEach(metrics::finding);
        handed.add(part.findings());
    }

    /**
     * What the receiver holds, besides the spans and the cross-operation rules' aggregates, of what it audited: the
     * bytes of the findings handed on kept serialized for a report, the findings held as objects for a verdict,
     * and the parent offers of the operations audited (at most {@code --max-held-spans}, and 1,024, a source).
     */
    record Retained(long findingBytes, int findingObjects, int offers) {
    }

    /** What to do the moment the findings for the report cannot be kept (end the run); nothing without a report. */
    void onKeepFailure(Runnable action) {
        synchronized (auditing) {
            if (handed.spill() != null) {
                handed.spill().onFailure(action);
            }
        }
    }

    /** What the receiver holds now of what it audited. */
    Retained retained() {
        synchronized (auditing) {
            return new Retained(handed.bytes(), handed.objects(), otlp.offers.held() + zipkin.offers.held());
        }
    }

    /** Spans held now. */
    synchronized long heldSpans() {
        return otlp.held.spans() + zipkin.held.spans();
    }
}
