package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.LineReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OTLP lines a task has read lately, so that a line is read once for the several linking contexts
 * it feeds, not once per context: the task links its contexts in the order of their first lines, and
 * a context's lines stand close together, so a few dozen lines held are enough. The notes of reading
 * are the routing's: those of the reader here are never taken.
 */
final class ReadLines {
    private static final int HELD = 64;

    private final LineReader reader;
    private final List<String> sources;
    private final Map<Long, LineReader.Line> held = new LinkedHashMap<>(2 * HELD, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, LineReader.Line> eldest) {
            return size() > HELD;
        }
    };

    ReadLines(LineReader reader, List<String> sources) {
        this.reader = reader;
        this.sources = sources;
    }

    /** A number that tells the line from every other line of the inputs. */
    static long key(SpanLine l) {
        // A source's lines are numbered below 2^31 (the OTLP reader's bound), sources below 2^32.
        return (long) l.sourceIndex() << 31 | l.line();
    }

    /** The line read, or null when it is blank; rejects a line the reader rejects. */
    LineReader.Line get(SpanLine l) throws RetryAuditException {
        long key = key(l);
        LineReader.Line read = held.get(key);
        if (read == null) {
            read = reader.read(sources.get(l.sourceIndex()), l.sourceIndex(), l.line(), l.bytes());
            if (read != null) {
                held.put(key, read);
            }
        }
        return read;
    }
}
