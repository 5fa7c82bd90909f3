package dev.retryaudit.serve;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.SplitAudit;
import dev.retryaudit.http.RetryAfterValue;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.LinkingContexts;
import dev.retryaudit.input.foreign.ParentOffers;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.otlp.OtlpRecords;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.internal.InputException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What {@code serve} has received and not yet judged: each OTLP export a numbered record whose attempt
 * spans, as its reader made them, are held by the linking context they belong to ({@link HeldContexts})
 * until the context closes; then the context's spans are linked by the protocol {@code audit} uses
 * ({@link LinkingContexts}), given their parents among the operations audited before
 * ({@link ParentOffers}), audited, and their findings handed on at once. A busy context is audited in
 * windows ({@link ContextWindow}). Zipkin bodies are one context of their own ({@link ZipkinBodies}).
 * Cross-operation rules are judged at {@link #finish} over every part audited. Thread-safe: records are
 * read outside the lock, their spans held and audited under it.
 */
final class Receiver {
    /** The source name of OTLP exports, in locations and fingerprints: the path they are posted to. */
    static final String OTLP_SOURCE = "/v1/traces";
    /** The source name of Zipkin spans. */
    static final String ZIPKIN_SOURCE = "/api/v2/spans";

    private final RetryAudit auditor;
    private final SplitAudit parted;
    private final long maxHeldSpans;
    private final LongSupplier clock;
    private final Consumer<Finding> findings;
    private final Metrics metrics;
    private final OtlpRecords otlp;
    private final RetryAudit zipkinReader;
    private final ReadContext otlpNotes;
    private final ReadContext zipkinNotes;

    private final HeldContexts held;
    private final ZipkinBodies zipkin = new ZipkinBodies();
    private final List<AuditPart> parts = new ArrayList<>();
    /** The attempts of operations audited so far, for the children that come later: those of the latest spans. */
    private final ParentOffers offers;
    /** Held while linking and auditing, which the receiver's own lock is not: exports are taken meanwhile. */
    private final Object auditing = new Object();
    private final Set<Finding> emitted = new HashSet<>();
    private final long idleNanos;
    private long records;
    private final long[] otlpCounts = new long[2];
    private final long[] zipkinCounts = new long[2];
    private boolean finished;

    /** The longest Retry-After that holds a context, in seconds: a longer one is taken as this long. */
    static final long RETRY_AFTER_CAP_SECONDS = 600;

    /** What became of the spans of one export: how many were taken, how many rejected, and why. */
    record Receipt(long accepted, long rejected, String message) {
    }

    /** An OTLP/JSON body that is no export: the receiver answers 400 with the message. */
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

    Receiver(RetryAudit auditor, Limits limits, long idleNanos, long maxHeldSpans, LongSupplier clock,
            Consumer<Finding> findings, Metrics metrics) {
        this.auditor = auditor;
        this.parted = SplitAudit.of(auditor);
        this.idleNanos = idleNanos;
        this.maxHeldSpans = maxHeldSpans;
        this.clock = clock;
        this.findings = findings;
        this.metrics = metrics;
        this.otlp = new OtlpRecords(OTLP_SOURCE, 0, limits);
        this.zipkinReader = zipkinReader(limits);
        this.otlpNotes = otlp.context();
        this.zipkinNotes = new OtlpRecords(ZIPKIN_SOURCE, 1, limits).context();
        this.held = new HeldContexts(idleNanos);
        this.offers = ParentOffers.latest((int) Math.min(Integer.MAX_VALUE, Math.max(1024, maxHeldSpans)));
    }

    /** Numbers the next record; refuses when the spans held and {@code spans} more would pass the bound. */
    private synchronized long admit(long spans) throws FullException {
        if (finished) {
            throw new IllegalStateException("the receiver has finished");
        }
        long holding = heldSpans();
        if (holding > 0 && holding + spans > maxHeldSpans) {
            metrics.full();
            throw new FullException();
        }
        return ++records;
    }

    /**
     * Takes one OTLP export that holds {@code spans} spans, as OTLP/JSON or (json null) as the message
     * {@code decoded} from protobuf, so well-formed. A span value the audit cannot use (an attribute of the
     * wrong type) rejects the whole export, which the receipt counts and says why; JSON that is not an export
     * at all is a {@link BadExportException}.
     */
    Receipt otlp(byte[] json, ExportTraceServiceRequest decoded, long spans) throws FullException, BadExportException {
        long number = admit(spans);
        RetryLinker read = new RetryLinker();
        ReadContext notes = otlp.context();
        try {
            otlp.read(new OtlpRecords.Record(number, json, decoded), read, notes);
        } catch (InputException e) {
            if (decoded == null && !inSpanValue(e.path())) {
                throw new BadExportException(e.diagnostic());
            }
            metrics.rejected(spans);
            return new Receipt(0, spans, e.diagnostic());
        }
        hold(read.held(), notes.notes(), spans);
        return new Receipt(spans, 0, null);
    }

    /**
     * Holds the attempt spans of one export of {@code spans} spans, read (and placed at its record) into
     * {@code read}, with the notes reading made, each span in its linking context.
     */
    private void hold(LinkingContexts read, List<InputNote> notes, long spans) {
        List<ForeignSpan> attemptSpans = read.spans();
        String[] keys = new String[attemptSpans.size()];
        long[] retryAfter = new long[attemptSpans.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = LinkingContexts.of(attemptSpans.get(i));
            retryAfter[i] = retryAfterNanos(attemptSpans.get(i));
        }
        synchronized (this) {
            for (InputNote n : notes) {
                otlpNotes.note(n.line(), n.column(), n.message());
            }
            metrics.received(spans);
            long now = clock.getAsLong();
            for (int i = 0; i < keys.length; i++) {
                held.hold(attemptSpans.get(i), keys[i], retryAfter[i], now);
            }
            metrics.held(heldSpans());
        }
    }

    /** Whether an error stands in a value that OTLP leaves free (an attribute's, an event's, a status's): valid OTLP, unusable spans. */
    private static boolean inSpanValue(String path) {
        return path != null && (path.contains(".attributes") || path.contains(".events") || path.contains(".status"));
    }

    /** Takes a Zipkin v2 JSON body of {@code spans} spans; one the Zipkin reader rejects is rejected whole. */
    Receipt zipkin(byte[] body, long spans) throws FullException {
        admit(spans);
        try {
            zipkinReader.read(AuditInput.stream(new ByteArrayInputStream(body), ZIPKIN_SOURCE));
        } catch (RetryAuditException e) {
            metrics.rejected(spans);
            return new Receipt(0, spans, e.getMessage());
        }
        synchronized (this) {
            zipkin.hold(body, spans, clock.getAsLong());
            metrics.received(spans);
            metrics.held(heldSpans());
        }
        return new Receipt(spans, 0, null);
    }

    /** A reader of Zipkin v2 JSON within the receiver's limits (its rules are not used: it only reads). */
    private static RetryAudit zipkinReader(Limits limits) {
        try {
            return RetryAudit.of(AuditSettings.builder().limits(limits).inputFormat(InputFormat.ZIPKIN).build());
        } catch (RetryAuditException e) {
            throw new IllegalStateException("an auditor with no file to read failed", e);
        }
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
     * Audits the contexts that closed (and Zipkin's spans, when they went idle), and cuts windows of the
     * busy ones: taken from the held spans under the receiver's lock, linked and audited outside it, so
     * that exports go on being taken meanwhile.
     */
    void sweep() {
        synchronized (auditing) {
            List<ForeignSpan> spans;
            byte[] zipkinSpans = null;
            List<HeldContexts.Window> windows;
            synchronized (this) {
                if (finished) {
                    return;
                }
                long now = clock.getAsLong();
                spans = held.takeClosed(now);
                if (zipkin.idle(now, idleNanos)) {
                    zipkinSpans = zipkin.take();
                }
                windows = held.windowsDue(now);
                metrics.held(heldSpans());
            }
            link(spans);
            auditZipkin(zipkinSpans);
            windows.forEach(this::window);
        }
    }

    /** Audits the operations of window {@code w} of a busy context that closed, and lets go of their spans. */
    private void window(HeldContexts.Window w) {
        long newest = Long.MIN_VALUE;
        LinkingContexts linking = new LinkingContexts();
        for (ForeignSpan span : w.spans()) {
            newest = Math.max(newest, span.startNanos());
            linking.add(span);
        }
        List<RetryLinker.Linked> linked;
        try {
            linked = linking.link(otlp.context(), false, null);
        } catch (InputException e) {
            return;
        }
        ContextWindow.Cut cut = ContextWindow.cut(linked, newest, w.quietNanos());
        if (cut.closed().isEmpty()) {
            return;
        }
        synchronized (this) {
            if (!held.letGo(w, cut, clock.getAsLong())) {
                return;
            }
            metrics.held(heldSpans());
        }
        auditOperations(offers.parented(cut.closed()), otlpCounts);
    }

    /**
     * Audits every context still open and judges the cross-operation rules over everything audited:
     * the findings of the whole run, as one report holds them. Exports that come after are refused.
     */
    AuditResult finish() {
        synchronized (auditing) {
            List<ForeignSpan> spans;
            byte[] zipkinSpans = null;
            synchronized (this) {
                spans = held.takeAll();
                if (!zipkin.isEmpty()) {
                    zipkinSpans = zipkin.take();
                }
                finished = true;
                metrics.held(heldSpans());
            }
            link(spans);
            auditZipkin(zipkinSpans);
            AuditResult merged = parted.merge(parts);
            for (Finding f : merged.findings()) {
                if (emitted.add(f)) {
                    findings.accept(f);
                    metrics.finding(f);
                }
            }
            List<InputSummary> inputs = new ArrayList<>();
            synchronized (this) {
                inputs.add(new InputSummary(OTLP_SOURCE, InputFormat.OTLP.id(), otlpCounts[0], otlpCounts[1],
                        otlpNotes.notes()));
                if (zipkinCounts[0] > 0 || !zipkinNotes.notes().isEmpty()) {
                    inputs.add(new InputSummary(ZIPKIN_SOURCE, InputFormat.ZIPKIN.id(), zipkinCounts[0],
                            zipkinCounts[1], zipkinNotes.notes()));
                }
            }
            return new AuditResult(inputs, merged.findings());
        }
    }

    /** Links {@code spans} into operations, with their parents among these and those audited before, and audits them. */
    private void link(List<ForeignSpan> spans) {
        if (spans.isEmpty()) {
            return;
        }
        LinkingContexts linking = new LinkingContexts();
        spans.forEach(linking::add);
        ReadContext notes = otlp.context();
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
                otlpNotes.note(n.line(), n.column(), n.message());
            }
        }
        auditOperations(offers.parented(linked), otlpCounts);
    }

    private void auditZipkin(byte[] spans) {
        if (spans == null) {
            return;
        }
        try {
            auditOperations(zipkinReader.read(AuditInput.stream(new ByteArrayInputStream(spans), ZIPKIN_SOURCE)), zipkinCounts);
        } catch (RetryAuditException e) {
            synchronized (this) {
                zipkinNotes.note(0, 0, "spans left out: " + e.getMessage());
            }
        }
    }

    /** Audits {@code ops}, counting them and their attempts in {@code counts}, and hands their findings on. */
    private void auditOperations(List<Operation> ops, long[] counts) {
        if (ops.isEmpty()) {
            return;
        }
        AuditPart part = parted.auditPart(ops);
        parts.add(part);
        counts[0] += part.operations();
        counts[1] += part.attempts();
        metrics.audited(part.operations());
        for (Finding f : part.findings()) {
            if (emitted.add(f)) {
                findings.accept(f);
                metrics.finding(f);
            }
        }
    }

    /** Spans held now. */
    synchronized long heldSpans() {
        return held.spans() + zipkin.spans();
    }
}
