package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.InputNote;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where the spans of a source that arrives one record at a time stand (the exports a receiver is sent,
 * the frames of a protobuf file): each span of record {@code n} at line {@code n}, column 1, ordered after
 * every span of the records before it, so that the spans of records linked together are linked as one
 * file of them would be; the notes reading a record made, at the record.
 */
public final class RecordPlaces {
    /** Spans of one record are ordered after every span of the records before it: a record's number, then the span's. */
    private static final int ORDER_BITS = 32;
    /** The most records of a source that can be ordered so. */
    public static final long MAX_RECORD = (1L << (63 - ORDER_BITS)) - 1;

    private RecordPlaces() {
    }

    /** Refuses a record number that cannot be ordered: not in 1 to {@link #MAX_RECORD}. */
    public static void check(long number) {
        if (number < 1 || number > MAX_RECORD) {
            throw new IllegalArgumentException("record " + number + " is not in 1.." + MAX_RECORD);
        }
    }

    /** Places {@code spans}, read from record {@code number} alone, at the record, and hands each to {@code into}. */
    public static void place(long number, List<ForeignSpan> spans, Consumer<ForeignSpan> into) {
        for (ForeignSpan s : spans) {
            s.line = number;
            s.column = 1;
            s.order = (number << ORDER_BITS) + s.order;
            into.accept(s);
        }
    }

    /** Gives the notes that reading record {@code number} made in {@code read} to {@code notes} at the record; none when it is null. */
    public static void notes(long number, ReadContext read, ReadContext notes) {
        if (notes != null) {
            for (InputNote n : read.notes()) {
                notes.note(number, 1, n.message());
            }
        }
    }
}
