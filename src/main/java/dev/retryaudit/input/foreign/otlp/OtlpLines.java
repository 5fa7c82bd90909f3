package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.NoteParts;
import dev.retryaudit.input.foreign.LinkingContexts;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OTLP/JSON Lines (the file exporter's one export a line) read one line at a time, for an engine that
 * splits an input over machines: a line parsed on its own at its place in its source with the checks
 * and messages of {@link OtlpReader}, the keys of the linking contexts its attempt spans belong to
 * ({@link RetryLinker#contexts}), and the lines of one context, brought together from anywhere,
 * linked into operations as {@link OtlpReader} links them, with the reader's notes kept in parts
 * ({@link NoteParts}). Not thread-safe.
 */
public final class OtlpLines {
    private static final String SPANS_SEVERAL = "an export in JSON Lines must fit on one line; this one spans several";
    private static final String END_OF_INPUT = "malformed JSON: Unexpected end-of-input";
    /** Spans of one line are ordered after every span of the lines before it: a line's place, then the span's. */
    private static final int ORDER_BITS = 32;
    /** The lines of a source that can be ordered so. */
    private static final long MAX_LINE = (1L << (63 - ORDER_BITS)) - 1;

    private final Limits limits;
    private final StrictJson json;
    private final Set<Integer> logs;

    /**
     * A reader of the lines of sources that are exports, or, for the sources (by index) in {@code logs},
     * logs whose lines carry exports after a log prefix (see {@link #isLog}).
     */
    public OtlpLines(Limits limits, Set<Integer> logs) {
        this.limits = limits;
        this.json = new StrictJson(limits);
        this.logs = Set.copyOf(logs);
    }

    /**
     * Whether a source whose first bytes (up to 64 KiB, or all of a shorter source) are {@code head} is
     * a log of a span exporter rather than OTLP/JSON, as the reader decides it.
     */
    public static boolean isLog(byte[] head) {
        return OtlpLogLines.isLog(head, head.length);
    }

    /** Whether the line holds an export, or is blank (in a log: carries no export). */
    public boolean holdsExport(SpanLines.Text t) {
        for (byte b : bytes(t)) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return true;
            }
        }
        return false;
    }

    private byte[] bytes(SpanLines.Text t) {
        return logs.contains(t.sourceIndex()) ? OtlpLogLines.blankingLine(t.bytes()) : t.bytes();
    }

    /**
     * One line read once: its attempt spans, placed at the line, by the keys of their linking contexts
     * ({@link LinkingContexts#byContext}), the facts that tell its SDK call spans ({@link LinkingContexts#callFacts}),
     * and the notes its reading made; to be linked in each of its contexts without reading the line
     * again. Linking a gRPC context ({@code g}) completes its spans in place: its lines are read anew for it.
     */
    public static final class Line {
        private final SpanLines.Text text;
        private final Map<String, List<ForeignSpan>> byContext;
        private final List<String[]> callFacts;
        private final NoteParts notes;

        private Line(SpanLines.Text text, Map<String, List<ForeignSpan>> byContext, List<String[]> callFacts,
                NoteParts notes) {
            this.text = text;
            this.byContext = byContext;
            this.callFacts = callFacts;
            this.notes = notes;
        }

        /** The keys of the linking contexts of the line's attempt spans, in the order first seen. */
        public List<String> contexts() {
            return new ArrayList<>(byContext.keySet());
        }

        /** The facts about the line's HTTP requests that tell an SDK call span, as {@link LinkingContexts#callFacts} gives them. */
        public List<String[]> callFacts() {
            return callFacts;
        }

        /** The notes reading the line made, or null when it made none. */
        public NoteParts notes() {
            return notes;
        }
    }

    /** The line {@code t} read, or null for a blank line; rejects a line the reader would reject. */
    public Line line(SpanLines.Text t) throws InputException {
        RetryLinker linker = new RetryLinker();
        NoteParts notes = new NoteParts();
        if (!read(t, linker, notes)) {
            return null;
        }
        return new Line(t, linker.held().byContext(), linker.held().callFacts(), notes.isEmpty() ? null : notes);
    }

    /**
     * The operations of one linking context of source {@code sourceIndex} named {@code source}, without
     * their parents: {@code lines}, read once ({@link #line}) and in line order, are the lines that hold
     * its spans. {@code single} says whether the source holds one export only, whose locations carry
     * JSON Pointers as the reader gives them. {@code calls} are the {@code trace/span} keys of the SDK call
     * spans of this context, which are linked with their sends, not here ({@link LinkingContexts#callSpan}).
     * The linking's notes go to {@code notes}.
     */
    public List<RetryLinker.Linked> operations(String context, List<Line> lines, String source, int sourceIndex,
            boolean single, Set<String> calls, NoteParts notes) throws InputException {
        RetryLinker linker = new RetryLinker();
        for (Line l : lines) {
            if (context.equals(LinkingContexts.GRPC_CONTEXT)) {
                read(l.text, linker, null);
                continue;
            }
            for (ForeignSpan s : l.byContext.getOrDefault(context, List.of())) {
                linker.add(s, calls);
            }
        }
        linker.held().keep(context);
        ReadContext ctx = new ReadContext(source, sourceIndex, InputStream.nullInputStream(), json, limits, null);
        return linker.link(ctx, single, true, notes);
    }

    /** The notes made reading {@code t} on its own, where the parser counted it as line 1, placed at the line's own number. */
    private static List<InputNote> placed(SpanLines.Text t, List<InputNote> made) {
        List<InputNote> out = new ArrayList<>(made.size());
        for (InputNote n : made) {
            out.add(new InputNote(t.source(), n.line() == 0 ? 0 : t.line(), n.column(),
                    n.message().replace("; line: 1, column: ", "; line: " + t.line() + ", column: ")));
        }
        return out;
    }

    /** The rejection of a source with no export (blank lines only, none, or a log with none), as the reader words it. */
    public static InputException empty(String source, boolean log) {
        return OtlpReader.empty(source, log);
    }

    /**
     * Reads one line's export into {@code into}, its spans placed at the line, and its notes into
     * {@code notes} (when not null) placed at the line; false for a blank line.
     */
    private boolean read(SpanLines.Text t, RetryLinker into, NoteParts notes) throws InputException {
        if (t.line() > MAX_LINE) {
            throw new IllegalArgumentException("a source of more than " + MAX_LINE + " lines");
        }
        long[] start = {0};
        RetryLinker line = new RetryLinker();
        SpanScratch scratch = new SpanScratch();
        ReadContext ctx = new ReadContext(t.source(), t.sourceIndex(), new ByteArrayInputStream(bytes(t)), json,
                limits, null);
        try {
            JsonCursor c = ctx.open();
            boolean read = ParseFailures.reading(t.source(), () -> c.parser(), limits, () -> {
                JsonToken first = c.next();
                if (first == null) {
                    return false;
                }
                if (first != JsonToken.START_OBJECT) {
                    throw c.error("$", "expected an OTLP trace export (an object with resourceSpans), found "
                            + JsonCursor.describe(first));
                }
                start[0] = c.column();
                OtlpReader.readExport(c, ctx, line::add, scratch, "", true);
                if (c.next() != null) {
                    throw c.error("$", "a second JSON value on one line: JSON Lines hold one export a line");
                }
                return true;
            });
            for (ForeignSpan s : line.spans()) {
                s.line = t.line();
                s.order = (t.line() << ORDER_BITS) + s.order;
                into.add(s);
            }
            if (notes != null && read) {
                notes.add(t.source(), t.sourceIndex(), NoteParts.READ, t.line(), placed(t, ctx.made()), ctx.leftOut());
                scratch.unused.count(notes, t.source(), t.sourceIndex(), t.line());
            }
            return read;
        } catch (InputException e) {
            if (start[0] > 0 && e.detail().startsWith(END_OF_INPUT)) {
                throw InputException.rejected(t.source(), t.line(), start[0], "$", SPANS_SEVERAL);
            }
            throw SpanLines.placed(t, e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes held in memory", e);
        }
    }
}
