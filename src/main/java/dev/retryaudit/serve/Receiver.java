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
import dev.retryaudit.model.values.ParentRef;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What {@code serve} has received and not yet judged: each OTLP export a numbered record whose attempt
 * spans, as its reader made them, are held by the linking context they belong to
 * ({@link RetryLinker#contexts}) until the context has been idle for the idle time plus the longest
 * Retry-After seen in it; then the context's spans are linked by the linker {@code audit} uses, its operations audited and their findings handed on at
 * once. Zipkin bodies are one context of their own. Cross-operation rules are judged at {@link #finish}
 * over every part audited. Thread-safe: records are read outside the lock, their spans held and audited under it.
 */
final class Receiver {
    /** The source name of OTLP exports, in locations and fingerprints: the path they are posted to. */
    static final String OTLP_SOURCE = "/v1/traces";
    /** The source name of Zipkin spans. */
    static final String ZIPKIN_SOURCE = "/api/v2/spans";

    private final RetryAudit auditor;
    private final SplitAudit parted;
    private final Limits limits;
    private final long idleNanos;
    private final long maxHeldSpans;
    private final LongSupplier clock;
    private final Consumer<Finding> findings;
    private final Metrics metrics;
    private final OtlpRecords otlp;
    private final RetryAudit zipkinReader;
    private final ReadContext otlpNotes;
    private final ReadContext zipkinNotes;

    private final Map<String, Context> open = new LinkedHashMap<>();
    private final List<AuditPart> parts = new ArrayList<>();
    /** The attempts of operations audited so far by the key of the span they came from, for the children that come later. */
    private final Map<String, ParentRef> offers = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ParentRef> eldest) {
            return size() > Math.max(1024, maxHeldSpans);
        }
    };
    /** Held while linking and auditing, which the receiver's own lock is not: exports are taken meanwhile. */
    private final Object auditing = new Object();
    private final Set<Finding> emitted = new HashSet<>();
    private final List<byte[]> zipkin = new ArrayList<>();
    private long zipkinSpans;
    private long zipkinLast;
    private long records;
    private long heldSpans;
    private final long[] otlpCounts = new long[2];
    private final long[] zipkinCounts = new long[2];
    private boolean finished;

    /** The longest Retry-After that holds a context, in seconds: a longer one is taken as this long. */
    static final long RETRY_AFTER_CAP_SECONDS = 600;
    /** The spans of one context past which it is audited in a window, however busy. */
    static final int WINDOW_SPANS = 20_000;

    /**
     * One linking context held: its attempt spans, their traces, when it got its first and last one, the
     * longest Retry-After seen, and when it may next be cut in a window.
     */
    private static final class Context {
        final List<ForeignSpan> spans = new ArrayList<>(2);
        final Set<String> traces = new HashSet<>(2);
        long first;
        long last;
        long retryAfterNanos;
        long nextWindow;
    }

    /** The open contexts by the traces of their spans: an SDK call span and its sends are in two contexts of one trace. */
    private final Map<String, Set<String>> byTrace = new java.util.HashMap<>();

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
        this.limits = limits;
        this.idleNanos = idleNanos;
        this.maxHeldSpans = maxHeldSpans;
        this.clock = clock;
        this.findings = findings;
        this.metrics = metrics;
        this.otlp = new OtlpRecords(OTLP_SOURCE, 0, limits);
        this.zipkinReader = zipkinReader(limits);
        this.otlpNotes = otlp.context();
        this.zipkinNotes = new OtlpRecords(ZIPKIN_SOURCE, 1, limits).context();
    }

    /** Numbers the next record; refuses when the spans held and {@code spans} more would pass the bound. */
    private synchronized long admit(long spans) throws FullException {
        if (finished) {
            throw new IllegalStateException("the receiver has finished");
        }
        if (heldSpans > 0 && heldSpans + spans > maxHeldSpans) {
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
        OtlpRecords.Record record = new OtlpRecords.Record(number, json, decoded);
        RetryLinker linker = new RetryLinker();
        ReadContext notes = otlp.context();
        try {
            otlp.read(record, linker, notes);
        } catch (InputException e) {
            if (decoded == null && !inSpanValue(e.path())) {
                throw new BadExportException(e.diagnostic());
            }
            metrics.rejected(spans);
            return new Receipt(0, spans, e.diagnostic());
        }
        List<ForeignSpan> attemptSpans = linker.spans();
        List<String> keys = new ArrayList<>(attemptSpans.size());
        long[] retryAfter = new long[attemptSpans.size()];
        for (int i = 0; i < attemptSpans.size(); i++) {
            keys.add(contextOf(attemptSpans.get(i)));
            retryAfter[i] = retryAfterNanos(attemptSpans.get(i));
        }
        synchronized (this) {
            for (InputNote n : notes.notes()) {
                otlpNotes.note(n.line(), n.column(), n.message());
            }
            metrics.received(spans);
            long now = clock.getAsLong();
            for (int i = 0; i < attemptSpans.size(); i++) {
                ForeignSpan span = attemptSpans.get(i);
                String key = keys.get(i);
                Context c = open.get(key);
                if (c == null) {
                    c = new Context();
                    c.first = now;
                    c.nextWindow = now;
                    open.put(key, c);
                }
                c.spans.add(span);
                c.last = now;
                c.retryAfterNanos = Math.max(c.retryAfterNanos, retryAfter[i]);
                if (c.traces.add(span.traceId)) {
                    byTrace.computeIfAbsent(span.traceId, t -> new HashSet<>(2)).add(key);
                }
            }
            heldSpans += attemptSpans.size();
            metrics.held(heldSpans);
        }
        return new Receipt(spans, 0, null);
    }

    /** The key of the linking context of one attempt span, as the linker groups it. */
    private static String contextOf(ForeignSpan span) {
        RetryLinker one = new RetryLinker();
        one.add(span);
        return one.contexts().get(0);
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
            zipkin.add(body);
            zipkinSpans += spans;
            zipkinLast = clock.getAsLong();
            heldSpans += spans;
            metrics.received(spans);
            metrics.held(heldSpans);
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
        if (span.hop.retryAfter == null) {
            return 0;
        }
        RetryAfterValue v = RetryAfterValue.parse(span.hop.retryAfter, System.currentTimeMillis());
        return v != null && v.form() == RetryAfterValue.Form.DELAY_SECONDS
                ? Math.min(v.seconds(), RETRY_AFTER_CAP_SECONDS) * 1_000_000_000L : 0;
    }

    /**
     * Audits the contexts that have been idle long enough (and Zipkin's spans, when they have): taken
     * from the held spans under the receiver's lock, linked and audited outside it, so that exports go
     * on being taken meanwhile.
     */
    void sweep() {
        synchronized (auditing) {
            List<ForeignSpan> spans;
            byte[] zipkinSpans = null;
            Map<String, List<ForeignSpan>> windows;
            synchronized (this) {
                if (finished) {
                    return;
                }
                long now = clock.getAsLong();
                // A context goes with those that share a trace with it, once every one of them is idle.
                List<String> due = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                for (Map.Entry<String, Context> e : open.entrySet()) {
                    if (!seen.contains(e.getKey()) && idle(e.getValue(), now)) {
                        Set<String> component = component(List.of(e.getKey()));
                        seen.addAll(component);
                        if (component.stream().allMatch(k -> idle(open.get(k), now))) {
                            due.addAll(component);
                        }
                    }
                }
                spans = take(due);
                if (!zipkin.isEmpty() && now - zipkinLast >= idleNanos) {
                    zipkinSpans = takeZipkin();
                }
                windows = windowsDue(now);
            }
            link(spans);
            auditZipkin(zipkinSpans);
            for (Map.Entry<String, List<ForeignSpan>> w : windows.entrySet()) {
                window(w.getKey(), w.getValue());
            }
        }
    }

    /**
     * The contexts, still open, that are old (twice the idle time and their Retry-After) or large
     * ({@value #WINDOW_SPANS} spans) enough to be audited in a window, each with a copy of its spans;
     * called under the receiver's lock.
     */
    private Map<String, List<ForeignSpan>> windowsDue(long now) {
        Map<String, List<ForeignSpan>> due = new LinkedHashMap<>();
        for (Map.Entry<String, Context> e : open.entrySet()) {
            Context c = e.getValue();
            long quiet = idleNanos + c.retryAfterNanos;
            if (now - c.nextWindow >= 0 && (now - c.first >= 2 * quiet || c.spans.size() >= WINDOW_SPANS)) {
                due.put(e.getKey(), new ArrayList<>(c.spans));
                // However the window falls, the context is looked at again no sooner than half its quiet time.
                c.nextWindow = now + Math.max(quiet / 2, 1_000_000L);
            }
        }
        return due;
    }

    /**
     * Audits a window of a busy context: its spans are linked, and the operations that closed (their last
     * send started the idle time and the context's Retry-After before its newest span) and started before
     * every operation still open are audited and their spans let go; an operation that straddles that
     * point is kept whole, with every one after it, for a later window.
     */
    private void window(String key, List<ForeignSpan> snapshot) {
        long quiet;
        long newest = Long.MIN_VALUE;
        synchronized (this) {
            Context c = open.get(key);
            if (c == null) {
                return;
            }
            quiet = idleNanos + c.retryAfterNanos;
        }
        for (ForeignSpan span : snapshot) {
            newest = Math.max(newest, span.startNanos);
        }
        RetryLinker linker = new RetryLinker();
        snapshot.forEach(linker::add);
        List<RetryLinker.Linked> linked;
        try {
            linked = linker.link(otlp.context(), false, true);
        } catch (InputException e) {
            return;
        }
        long[][] ranges = new long[linked.size()][];
        long cut = Long.MAX_VALUE;
        for (int i = 0; i < linked.size(); i++) {
            ranges[i] = range(linked.get(i).operation());
            if (ranges[i] == null || ranges[i][1] > newest - quiet) {
                cut = Math.min(cut, ranges[i] == null ? Long.MIN_VALUE : ranges[i][0]);
            }
        }
        // An operation that starts before the cut and ends after it moves the cut back to its start.
        for (boolean moved = true; moved; ) {
            moved = false;
            for (long[] r : ranges) {
                if (r != null && r[0] < cut && r[1] >= cut) {
                    cut = r[0];
                    moved = true;
                }
            }
        }
        List<RetryLinker.Linked> closed = new ArrayList<>();
        for (int i = 0; i < linked.size(); i++) {
            if (ranges[i] != null && ranges[i][1] < cut) {
                closed.add(linked.get(i));
            }
        }
        if (closed.isEmpty()) {
            return;
        }
        long before = cut;
        synchronized (this) {
            Context c = open.get(key);
            if (c == null) {
                return;
            }
            Set<ForeignSpan> let = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (ForeignSpan span : snapshot) {
                if (span.startNanos < before) {
                    let.add(span);
                }
            }
            c.spans.removeIf(let::contains);
            c.first = clock.getAsLong();
            heldSpans -= let.size();
            metrics.held(heldSpans);
        }
        auditLinked(closed);
    }

    /** The start of an operation's first attempt and of its last, in nanoseconds since the epoch; null when one has no time. */
    private static long[] range(Operation op) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (dev.retryaudit.model.Attempt a : op.attempts()) {
            java.util.Optional<java.time.Instant> at = a.startedAt();
            if (at.isEmpty()) {
                return null;
            }
            long nanos = at.get().getEpochSecond() * 1_000_000_000L + at.get().getNano();
            first = Math.min(first, nanos);
            last = Math.max(last, nanos);
        }
        return first == Long.MAX_VALUE ? null : new long[] {first, last};
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
                spans = take(new ArrayList<>(open.keySet()));
                if (!zipkin.isEmpty()) {
                    zipkinSpans = takeZipkin();
                }
                finished = true;
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

    /**
     * Takes the spans of the contexts named and of every open context that shares a trace with them,
     * in the order they came: such contexts are linked together, as the spans of one file are (an SDK
     * call span with its sends, a parent with its children). Called under the receiver's lock.
     */
    private List<ForeignSpan> take(List<String> keys) {
        Set<String> component = component(keys);
        List<ForeignSpan> spans = new ArrayList<>();
        for (String key : component) {
            Context c = open.remove(key);
            spans.addAll(c.spans);
            for (String trace : c.traces) {
                Set<String> in = byTrace.get(trace);
                if (in != null && in.remove(key) && in.isEmpty()) {
                    byTrace.remove(trace);
                }
            }
        }
        heldSpans -= spans.size();
        metrics.held(heldSpans);
        spans.sort((x, y) -> Long.compare(x.order, y.order));
        return spans;
    }

    /** Whether a context has been idle for the idle time plus its longest Retry-After. */
    private boolean idle(Context c, long now) {
        return now - c.last >= idleNanos + c.retryAfterNanos;
    }

    /** The open contexts named and every open context that shares a trace with one of them, transitively. */
    private Set<String> component(List<String> keys) {
        Set<String> component = new LinkedHashSet<>();
        List<String> stack = new ArrayList<>(keys);
        while (!stack.isEmpty()) {
            String key = stack.remove(stack.size() - 1);
            Context c = open.get(key);
            if (c == null || !component.add(key)) {
                continue;
            }
            for (String trace : c.traces) {
                stack.addAll(byTrace.getOrDefault(trace, Set.of()));
            }
        }
        return component;
    }

    /** Zipkin's bodies held, as one array of their spans; called under the receiver's lock. */
    private byte[] takeZipkin() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write('[');
        for (byte[] body : zipkin) {
            int start = indexOf(body, '[') + 1;
            int end = lastIndexOf(body, ']');
            if (end > start && !blank(body, start, end)) {
                if (all.size() > 1) {
                    all.write(',');
                }
                all.write(body, start, end - start);
            }
        }
        all.write(']');
        zipkin.clear();
        heldSpans -= zipkinSpans;
        zipkinSpans = 0;
        metrics.held(heldSpans);
        return all.toByteArray();
    }

    /** Links {@code spans} into operations, with their parents among these and those audited before, and audits them. */
    private void link(List<ForeignSpan> spans) {
        if (spans.isEmpty()) {
            return;
        }
        RetryLinker linker = new RetryLinker();
        spans.forEach(linker::add);
        ReadContext notes = otlp.context();
        List<RetryLinker.Linked> linked;
        try {
            linked = linker.link(notes, false, true);
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
        auditLinked(linked);
    }

    /** Audits operations as linked, with their parents among these and those audited before. */
    private void auditLinked(List<RetryLinker.Linked> linked) {
        for (RetryLinker.Linked l : linked) {
            offers.putAll(l.offers());
        }
        List<Operation> ops = new ArrayList<>(linked.size());
        for (RetryLinker.Linked l : linked) {
            ops.add(l.withParent(l.parentKey() == null ? null : offers.get(l.parentKey())));
        }
        auditOperations(ops, otlpCounts);
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
        return heldSpans;
    }

    private static int indexOf(byte[] b, char c) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(byte[] b, char c) {
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }
}
