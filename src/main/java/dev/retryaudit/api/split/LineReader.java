package dev.retryaudit.api.split;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.foreign.NoteParts;
import dev.retryaudit.input.foreign.LinkingContexts;
import dev.retryaudit.input.foreign.ParentOffers;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.otlp.OtlpLines;
import dev.retryaudit.input.foreign.otlp.OtlpReader;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.values.ParentRef;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Traces read a line at a time, for an engine that splits an input over machines (a Spark job):
 * {@code spans} JSON Lines, or OTLP/JSON Lines (one trace export a line, or a span exporter's log of
 * them). Each line is checked on its own at its place in its source, with the command line's
 * messages, and read into a {@link Line} that names what it belongs to: its operation (spans) or the
 * linking contexts of its attempt spans (OTLP). The lines of one operation or context, brought together
 * from anywhere, become operations as the command line builds them. The input notes the command line
 * gives are kept as the lines are read and the contexts linked, for
 * {@link SplitAudit#auditPart(Iterable, LineReader)}. Not thread-safe: one per thread.
 */
public final class LineReader {
    private final SpanLines spans;
    private final OtlpLines otlp;
    private final Set<Integer> logs;
    private final Limits limits;
    private NoteParts notes = new NoteParts();
    private final Map<Integer, SpanLines.Held> held = new HashMap<>();
    private final Map<Integer, String> heldNames = new HashMap<>();

    private LineReader(SpanLines spans, OtlpLines otlp, Set<Integer> logs, Limits limits) {
        this.spans = spans;
        this.otlp = otlp;
        this.logs = logs;
        this.limits = limits;
    }

    /** A reader of {@code spans} JSON Lines. */
    public static LineReader spans(Limits limits) {
        return new LineReader(new SpanLines(limits), null, Set.of(), limits);
    }

    /**
     * A reader of OTLP/JSON Lines: sources that are exports, or, for the sources (by index) in
     * {@code logs}, logs whose lines carry exports after a log prefix ({@link #isLog}).
     */
    public static LineReader otlp(Limits limits, Set<Integer> logs) {
        return new LineReader(null, new OtlpLines(limits, logs), Set.copyOf(logs), limits);
    }

    /** Whether a source whose first bytes (up to 64 KiB, or all of a shorter one) are {@code head} is a span exporter's log. */
    public static boolean isLog(byte[] head) {
        return OtlpLines.isLog(head);
    }

    /**
     * One line read once: where it stands and what it belongs to. Its spans stay with it, to be built
     * into operations without reading the line again.
     */
    public static final class Line {
        private final SpanLines.Text text;
        private final SpanLines.Read spans;
        private final OtlpLines.Line otlp;

        private Line(SpanLines.Text text, SpanLines.Read spans, OtlpLines.Line otlp) {
            this.text = text;
            this.spans = spans;
            this.otlp = otlp;
        }

        /** The line's 1-based number among all lines of its source, blank ones included. */
        public long line() {
            return text.line();
        }

        /**
         * A spans line's key, which groups it with the other lines of its operation in its source (its
         * operation_id, else its idempotency key); null for an OTLP line.
         */
        public String key() {
            return spans == null ? null : spans.key();
        }

        /** The keys of the linking contexts of an OTLP line's attempt spans, in the order first seen (none for a spans line). */
        public List<String> contexts() {
            return otlp == null ? List.of() : otlp.contexts();
        }

        /**
         * What tells an SDK call span among an OTLP line's HTTP requests, as pairs of a span key and a
         * fact: the facts of one key, from every line of the source, give {@link LineReader#callSpan}.
         */
        public List<String[]> callFacts() {
            return otlp == null ? List.of() : otlp.callFacts();
        }
    }

    /** Whether the line holds something to read (in a log: carries an export after its prefix), not blank. */
    public boolean holdsExport(String source, int sourceIndex, long line, byte[] bytes) {
        SpanLines.Text t = new SpanLines.Text(source, sourceIndex, line, bytes);
        if (otlp != null) {
            return otlp.holdsExport(t);
        }
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return true;
            }
        }
        return false;
    }

    /**
     * Line {@code line} (1-based, blank lines counted) of source {@code source}, the {@code sourceIndex}-th
     * input, whose UTF-8 bytes without the line break are {@code bytes}: read, or null when it is blank.
     * Rejects a line the command line would reject, at its place.
     */
    public Line read(String source, int sourceIndex, long line, byte[] bytes) throws RetryAuditException {
        SpanLines.Text t = new SpanLines.Text(Objects.requireNonNull(source, "source"), sourceIndex, line, bytes);
        try {
            // A line read keeps its place, not its bytes: an engine may hold many lines read until they are built.
            SpanLines.Text at = new SpanLines.Text(source, sourceIndex, line, null);
            if (spans != null) {
                SpanLines.Read read = spans.read(t);
                return read == null ? null : new Line(at, read, null);
            }
            OtlpLines.Line read = otlp.line(t);
            if (read == null) {
                return null;
            }
            if (read.notes() != null) {
                notes.merge(read.notes());
            }
            return new Line(at, null, read);
        } catch (InputException e) {
            throw Lent.error(e);
        }
    }

    /**
     * The key that {@link #read} would give spans line {@code line} of source {@code source}, told from
     * its top-level fields without checking the line, for an engine that brings the lines of a key
     * together and reads each line once there: null for a blank line, empty when the line shows no key
     * that reading would give (reading it rejects it). A line that reading rejects may have any key:
     * it is rejected, at its place, wherever it is read.
     */
    public String key(String source, int sourceIndex, long line, byte[] bytes) {
        if (spans == null) {
            throw new IllegalStateException("an OTLP line belongs to linking contexts: read(...).contexts()");
        }
        return spans.key(new SpanLines.Text(Objects.requireNonNull(source, "source"), sourceIndex, line, bytes));
    }

    /**
     * The operation of spans lines of one {@link Line#key}, read by a reader of these settings, in line
     * order: merged and checked as the command line merges them (fields that disagree, the attempts
     * limit, no attempt, no tool); the lines are not parsed again.
     */
    public Operation operation(List<Line> lines) throws RetryAuditException {
        if (spans == null) {
            throw new IllegalStateException("an OTLP reader links operations by context: operations(...)");
        }
        List<SpanLines.Read> read = new ArrayList<>(lines.size());
        lines.forEach(l -> read.add(l.spans));
        try {
            return spans.operation(read);
        } catch (InputException e) {
            throw Lent.error(e);
        }
    }

    /**
     * Merges spans line {@code line} into its operation among those this reader holds of its source, as
     * {@link #operation} merges the lines of one key, for an engine that holds every line of its
     * operations (a whole file): the line is not kept, and no object is made per operation until
     * {@link #heldOperation} builds it. The operations of a source are numbered from 0 in the order of
     * their first lines.
     */
    public void hold(Line line) throws RetryAuditException {
        if (spans == null) {
            throw new IllegalStateException("an OTLP reader links operations by context: operations(...)");
        }
        int source = line.text.sourceIndex();
        heldNames.putIfAbsent(source, line.text.source());
        try {
            held.computeIfAbsent(source, s -> spans.new Held()).add(line.spans);
        } catch (InputException e) {
            throw Lent.error(e);
        }
    }

    /**
     * Reads the whole spans source {@code source}, the {@code sourceIndex}-th input, from {@code in} in one pass
     * on the calling thread (an engine's task has one core) with the command line's reader, and holds its
     * operations as {@link #hold} holds those of lines read one at a time (numbered in the order of their first
     * lines, built by {@link #heldOperation}): for an engine that has a whole file where it audits. Throws the
     * first error the command line meets while reading the source's lines, which is the source's first error but
     * for those of its operations' building; then none of its operations is held. Holds none of a source with no
     * span line.
     */
    public void holdSource(String source, int sourceIndex, InputStream in) throws RetryAuditException, IOException {
        if (spans == null) {
            throw new IllegalStateException("an OTLP reader links operations by context: operations(...)");
        }
        Objects.requireNonNull(source, "source");
        try {
            SpanLines.Held read = spans.hold(source, sourceIndex, in, false);
            heldNames.put(sourceIndex, source);
            held.put(sourceIndex, read);
        } catch (InputException e) {
            throw Lent.error(e);
        }
    }

    /**
     * Reads the whole OTLP source {@code source}, the {@code sourceIndex}-th input, from {@code in} in one pass
     * as the command line reads a file (its lines parsed on several cores, a log's exports after their
     * prefixes), then links it and hands its operations to {@code out}, parents given, in the order the
     * command line hands them on: for an engine that has a whole file where it audits. Every export must fit on
     * its line, as a source read a line at a time must. Returns the error the command line stops at in this
     * source, placed as it meets it: one of reading its lines (then no operation is handed on), or one met
     * linking at its end (then the operations before it were handed on), or the rejection of a source with no
     * export; empty when the source reads. The notes are kept, as the command line's summary gives them, for
     * {@link SplitAudit#auditPart(Iterable, LineReader)}. Throws what reading {@code in} throws.
     */
    public Optional<InputRejection> readSource(String source, int sourceIndex, InputStream in,
            Consumer<Operation> out) throws IOException {
        if (otlp == null) {
            throw new IllegalStateException("a spans reader holds a whole source: holdSource(...)");
        }
        Objects.requireNonNull(source, "source");
        ReadContext ctx = new ReadContext(source, sourceIndex, new BufferedInputStream(in, 1 << 16),
                new StrictJson(limits), limits, out::accept);
        RetryLinker linker = new RetryLinker();
        try {
            long records;
            try {
                records = ParseFailures.reading(source, () -> ctx.cursor() == null ? null : ctx.cursor().parser(),
                        limits, () -> OtlpReader.hold(ctx, linker, true));
            } catch (InputException e) {
                return Optional.of(InputRejection.reading(sourceIndex, Lent.error(e)));
            }
            if (records == 0) {
                return Optional.of(InputRejection.empty(sourceIndex, empty(source, sourceIndex)));
            }
            try {
                linker.emit(ctx, records == 1);
            } catch (InputException e) {
                RetryAuditException error = Lent.error(e);
                return Optional.of(InputRejection.atEnd(sourceIndex, error.line(), error.column(), error));
            }
            return Optional.empty();
        } finally {
            notes.add(ctx, NoteParts.READ, 0);
        }
    }

    /** How many operations this reader holds of source {@code sourceIndex} ({@link #hold}). */
    public int held(int sourceIndex) {
        SpanLines.Held h = held.get(sourceIndex);
        return h == null ? 0 : h.size();
    }

    /** The number of the first line of held operation {@code g} of source {@code sourceIndex}. */
    public long heldFirstLine(int sourceIndex, int g) {
        return held.get(sourceIndex).firstLine(g);
    }

    /**
     * Held operation {@code g} of source {@code sourceIndex}: merged and checked as {@link #operation} merges
     * and checks the same lines, with the same error.
     */
    public Operation heldOperation(int sourceIndex, int g) throws RetryAuditException {
        try {
            return held.get(sourceIndex).build(g, heldNames.get(sourceIndex), sourceIndex);
        } catch (InputException e) {
            throw Lent.error(e);
        }
    }

    /**
     * The operations of OTLP linking context {@code context}, without their parents, in the order of
     * their first spans: {@code lines}, read by a reader of these settings and in line order, are the
     * lines of one source that hold its spans. {@code single}: the source holds one export only, and
     * locations carry JSON Pointers as the command line gives them. {@code calls}: the span keys that
     * {@link #callSpan} gave this context, SDK call spans linked with their sends instead.
     */
    public List<LinkedOperation> operations(String context, List<Line> lines, boolean single, Set<String> calls)
            throws RetryAuditException {
        if (otlp == null) {
            throw new IllegalStateException("a spans reader builds operations by key: operation(...)");
        }
        List<OtlpLines.Line> read = new ArrayList<>(lines.size());
        for (Line l : lines) {
            read.add(l.otlp);
        }
        SpanLines.Text first = lines.get(0).text;
        List<LinkedOperation> out = new ArrayList<>();
        try {
            for (RetryLinker.Linked l : otlp.operations(context, read, first.source(), first.sourceIndex(), single,
                    calls, notes)) {
                out.add(new LinkedOperation(l));
            }
        } catch (InputException e) {
            throw Lent.error(e);
        }
        return out;
    }

    /**
     * {@code linked}, the {@link LinkedOperation#operation} of an operation {@link #operations} linked, with
     * attempt {@code attempt} of operation {@code operation} for its parent, as
     * {@link LinkedOperation#withParent} gives it: for an engine that keeps what it linked apart from the
     * {@link LinkedOperation} (cached, or sent elsewhere) until the parents are known.
     */
    public static Operation withParent(Operation linked, String operation, int attempt) {
        return ParentOffers.withParent(Objects.requireNonNull(linked, "linked"),
                new ParentRef(Objects.requireNonNull(operation, "operation"), attempt));
    }

    /**
     * Of the {@link Line#callFacts} of one span key, gathered from every line of its source: the linking
     * context that must leave the span out, as an SDK call span linked with its sends; null when it is
     * none. That context is linked with the key in its {@code calls}.
     */
    public static String callSpan(Iterable<String> facts) {
        return LinkingContexts.callSpan(facts);
    }

    /** The rejection of source {@code source}, the {@code sourceIndex}-th input, when it holds nothing to read. */
    public RetryAuditException empty(String source, int sourceIndex) {
        return Lent.error(spans != null ? SpanLines.empty(source)
                : OtlpLines.empty(source, logs.contains(sourceIndex)));
    }

    /** The notes made since the last call, which the reader forgets. */
    NoteParts takeNotes() {
        NoteParts taken = notes;
        notes = new NoteParts();
        return taken;
    }
}
