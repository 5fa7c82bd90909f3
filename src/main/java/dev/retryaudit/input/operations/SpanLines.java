package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.json.StringPool;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code spans} JSON Lines read one line at a time, for an engine that splits an input over
 * machines: a line parsed on its own at the place it has in its source, with the same checks and
 * messages as {@link SpansReader}, and the lines of one operation, brought together from anywhere,
 * built into the operation as {@link SpansReader} builds it. Not thread-safe: one per thread.
 */
public final class SpanLines {
    private static final String SPANS_SEVERAL = "a span must fit on one line (JSON Lines); this object spans several";
    private static final String END_OF_INPUT = "malformed JSON: Unexpected end-of-input";

    private final Limits limits;
    private final StrictJson json;
    /** Repeated values shared across the lines this reader parses: a pool a line would cost more than the line. */
    private final StringPool strings = new StringPool(1 << 16);

    public SpanLines(Limits limits) {
        this.limits = limits;
        this.json = new StrictJson(limits);
    }

    /**
     * One line of a source: its bytes (UTF-8, without the line break) and its 1-based line number
     * among all lines of the source, blank ones included.
     */
    public record Text(String source, int sourceIndex, long line, byte[] bytes) {
    }

    /** A line read: the key of its operation within its source, where the line's object starts, and its fields. */
    public static final class Read {
        private final String key;
        private final Parsed parsed;

        private Read(String key, Parsed parsed) {
            this.key = key;
            this.parsed = parsed;
        }

        public String key() {
            return key;
        }

        public Location at() {
            return parsed.at;
        }
    }

    /**
     * The line {@code t} read, with the key grouping it with the other lines of its operation in its
     * source (by operation_id, else by idempotency key), or null for a blank line; rejects a line the
     * reader would reject.
     */
    public Read read(Text t) throws InputException {
        Parsed p = parse(t);
        if (p == null) {
            return null;
        }
        String prefix = SpansReader.byOperationId(p.line, p.at) ? "operation_id:" : "idempotency_key:";
        return new Read(prefix + SpansReader.groupId(p.line), p);
    }

    /**
     * The key {@link #read} gives line {@code t}, told from its top-level fields without checking the
     * line, for an engine that brings the lines of a key together first and reads each line once there:
     * null for a blank line, empty when the line shows no key that reading it would give (reading it
     * rejects it). A line that reading rejects may have any key.
     */
    public String key(Text t) {
        try (JsonParser p = json.parser(t.bytes(), 0, t.bytes().length)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonToken first = p.nextToken();
            if (first == null) {
                return null;
            }
            if (first != JsonToken.START_OBJECT) {
                return "";
            }
            String operationId = null;
            String idempotencyKey = null;
            int seen = 0;
            JsonToken token;
            while ((token = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                int field = name.equals("operation_id") ? 1 : name.equals("idempotency_key") ? 2 : 0;
                if (field == 0) {
                    p.skipChildren();
                    continue;
                }
                if ((seen & field) != 0 || value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                    return "";
                }
                seen |= field;
                String text = value == JsonToken.VALUE_NULL ? null : p.getText();
                if (field == 1) {
                    operationId = text;
                } else {
                    idempotencyKey = text;
                }
            }
            if (token != JsonToken.END_OBJECT) {
                return "";
            }
            return operationId != null ? "operation_id:" + operationId
                    : idempotencyKey != null ? "idempotency_key:" + idempotencyKey : "";
        } catch (IOException | RuntimeException e) {
            // Reading the line rejects it, with the reader's own message, where its key's lines meet.
            return "";
        }
    }

    /**
     * The operation whose lines, all with one key, are {@code lines} read ({@link #read}) in line order:
     * merged and checked as the reader merges them (fields that disagree, the attempts limit, an
     * operation with no attempt or no tool).
     */
    public Operation operation(List<Read> lines) throws InputException {
        HeldOperations groups = new HeldOperations();
        Location first = null;
        for (Read r : lines) {
            Parsed p = r.parsed;
            if (first == null) {
                boolean byOperationId = SpansReader.byOperationId(p.line, p.at);
                groups.add(byOperationId, SpansReader.find(groups, byOperationId, p.line), p.at.line(),
                        (int) p.at.column());
                first = p.at;
            }
            groups.merge(0, p.line, p.at.source(), p.at.sourceIndex(), p.at.line(), p.at.column(), limits);
        }
        if (first == null) {
            throw new IllegalArgumentException("an operation needs at least one non-blank line");
        }
        return groups.build(0, first.source(), first.sourceIndex());
    }

    /**
     * The operations of lines of one source read by this reader, each line merged into its operation as it
     * is added, in the compact table the whole-source reader holds (no object kept per line), numbered in
     * the order of their first lines: for an engine that holds every line of its operations. An operation
     * one of whose lines did not merge keeps that error, its later lines are not merged, and building it
     * throws the error, as {@link #operation} throws it.
     */
    public final class Held {
        private final HeldOperations groups;
        private final Map<Integer, InputException> failed = new HashMap<>();

        /** No operation yet: lines are added one at a time. */
        public Held() {
            this(new HeldOperations());
        }

        private Held(HeldOperations groups) {
            this.groups = groups;
        }

        /** Merges line {@code r} into its operation, as {@link #operation} merges it. */
        public void add(Read r) throws InputException {
            Parsed p = r.parsed;
            boolean byOperationId = SpansReader.byOperationId(p.line, p.at);
            int g = SpansReader.find(groups, byOperationId, p.line);
            if (g < 0) {
                g = groups.add(byOperationId, g, p.at.line(), (int) p.at.column());
            }
            if (failed.containsKey(g)) {
                return;
            }
            try {
                groups.merge(g, p.line, p.at.source(), p.at.sourceIndex(), p.at.line(), p.at.column(), limits);
            } catch (InputException e) {
                failed.put(g, e);
            }
        }

        /** How many operations there are. */
        public int size() {
            return groups.size();
        }

        /** The line of operation {@code g}'s first line. */
        public long firstLine(int g) {
            return groups.firstLine(g);
        }

        /** Operation {@code g} of source {@code source}, checked as {@link #operation} checks it. */
        public Operation build(int g, String source, int sourceIndex) throws InputException {
            InputException e = failed.get(g);
            if (e != null) {
                throw e;
            }
            return groups.build(g, source, sourceIndex);
        }
    }

    /**
     * The operations of a whole source, read from {@code in} as {@link SpansReader} reads a file (its chunks
     * parsed on several cores when {@code parallel}, else in one pass on the calling thread), held as
     * {@link Held} holds lines added one at a time: none when the source holds no span line. Throws the
     * source's first error of a line, as the reader words it.
     */
    public Held hold(String source, int sourceIndex, InputStream in, boolean parallel)
            throws IOException, InputException {
        ReadContext ctx = new ReadContext(source, sourceIndex, in, json, limits, null);
        return new Held(ParseFailures.reading(source, () -> ctx.cursor() == null ? null : ctx.cursor().parser(), limits,
                () -> SpansReader.hold(ctx, parallel)));
    }

    /** The rejection of a source with no span line (blank lines only, or none). */
    public static InputException empty(String source) {
        return SpansReader.empty(source);
    }

    /**
     * An error of {@code t} read on its own, where the parser counted it as line 1, placed at the line's
     * own number (in the parser's message too).
     */
    public static InputException placed(Text t, InputException e) {
        String detail = e.detail().replace("; line: 1, column: ", "; line: " + t.line() + ", column: ");
        InputException here = InputException.rejected(t.source(), t.line(), e.column(), e.path(), detail);
        return e.limit() == null ? here : here.over(e.limit());
    }

    private record Parsed(SpansReader.Line line, Location at) {
    }

    /** Parses one line where it stands: errors name the source and line, the column within the line. */
    private Parsed parse(Text t) throws InputException {
        long[] start = {0};
        try {
            JsonParser parser = json.parser(t.bytes(), 0, t.bytes().length);
            parser.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonCursor c = new JsonCursor(parser, t.source(), limits, strings);
            return ParseFailures.reading(t.source(), () -> parser, limits, () -> {
                JsonToken first = c.next();
                if (first == null) {
                    return null;
                }
                if (first != JsonToken.START_OBJECT) {
                    throw c.error("$", "expected one JSON object a line, found " + JsonCursor.describe(first));
                }
                start[0] = c.column();
                SpansReader.Line line = SpansReader.readLine(c, new Location(t.source(), t.sourceIndex(), 1, start[0], null));
                JsonToken after = c.next();
                if (after != null) {
                    throw c.error("$", "a second JSON value on one line: JSON Lines holds one span a line");
                }
                return new Parsed(line, new Location(t.source(), t.sourceIndex(), t.line(), start[0], null));
            });
        } catch (InputException e) {
            if (start[0] > 0 && e.detail().startsWith(END_OF_INPUT)) {
                throw InputException.rejected(t.source(), t.line(), start[0], "$", SPANS_SEVERAL);
            }
            throw placed(t, e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes held in memory", e);
        }
    }
}
