package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.RecordPlaces;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * OTLP exports that arrive one at a time, each a numbered record of one source: the frames of a
 * protobuf file, the requests a receiver is sent. A record, held as its OTLP/JSON or as its protobuf
 * ({@link OtlpProtobuf#decode}, read from the wire by {@link OtlpProtobufSpans}), is read with the checks and messages of
 * {@link OtlpReader} and its attempt spans placed at the record (line: its
 * number, column 1) and ordered after every span of the records before it, so that the spans of
 * records linked together are linked as one file of them would be. Not thread-safe.
 */
public final class OtlpRecords {
    /** The most records of a source that can be ordered so. */
    public static final long MAX_RECORD = RecordPlaces.MAX_RECORD;

    private final String source;
    private final int sourceIndex;
    private final Limits limits;
    private final StrictJson json;

    /** A reader of the records of {@code source}, the {@code sourceIndex}th of its run. */
    public OtlpRecords(String source, int sourceIndex, Limits limits) {
        this.source = source;
        this.sourceIndex = sourceIndex;
        this.limits = limits;
        this.json = new StrictJson(limits);
    }

    /**
     * One export held: its number within the source, and its OTLP/JSON, or (json null) its protobuf as
     * {@link OtlpProtobuf#decode} gave it, whose spans are read from the wire.
     */
    public record Record(long number, byte[] json, byte[] protobuf) {
        /** An export held as its OTLP/JSON. */
        public Record(long number, byte[] json) {
            this(number, json, null);
        }

        /** An export held as the protobuf {@link OtlpProtobuf#decode} gave. */
        public static Record protobuf(long number, OtlpProtobuf.Decoded decoded) {
            return new Record(number, null, decoded.message());
        }
    }

    public String source() {
        return source;
    }

    /** A context of this source whose notes are kept, with no sink: for linking records read with {@link #read}. */
    public ReadContext context() {
        return new ReadContext(source, sourceIndex, InputStream.nullInputStream(), json, limits, null);
    }

    /**
     * Reads one record's export into {@code into}; the notes reading makes go to {@code notes} at the
     * record's place, or nowhere when it is null. Rejects a record as the reader would, at the record.
     */
    public void read(Record r, RetryLinker into, ReadContext notes) throws InputException {
        RecordPlaces.check(r.number());
        RetryLinker one = new RetryLinker();
        ReadContext ctx = r.json() == null ? context()
                : new ReadContext(source, sourceIndex, new ByteArrayInputStream(r.json()), json, limits, null);
        try {
            SpanScratch scratch = new SpanScratch();
            if (r.json() == null) {
                OtlpProtobufSpans.read(r.protobuf(), ctx, scratch, one::add);
            } else {
                readJson(ctx, scratch, one);
            }
            scratch.unused.note(ctx);
        } catch (InputException e) {
            InputException here = InputException.rejected(source, r.number(), 1, e.path(), e.detail());
            throw e.limit() == null ? here : here.over(e.limit());
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes held in memory", e);
        }
        RecordPlaces.place(r.number(), one.spans(), into::add);
        RecordPlaces.notes(r.number(), ctx, notes);
    }

    /** Reads the one OTLP/JSON export that {@code ctx} holds, and nothing after it. */
    private void readJson(ReadContext ctx, SpanScratch scratch, RetryLinker into) throws IOException, InputException {
        JsonCursor c = ctx.open();
        ParseFailures.reading(source, () -> c.parser(), limits, () -> {
            JsonToken first = c.next();
            if (first != JsonToken.START_OBJECT) {
                throw c.error("$", "expected an OTLP trace export (an object with resourceSpans), found "
                        + JsonCursor.describe(first));
            }
            OtlpReader.readExport(c, ctx, into::add, scratch, "", true);
            if (c.next() != null) {
                throw c.error("$", "a second JSON value after the export");
            }
            return null;
        });
    }

    /**
     * The keys of the linking contexts of a record's attempt spans, in the order first seen (none for a
     * record with no attempt; see {@link RetryLinker#contexts}); its notes go to {@code notes}.
     */
    public List<String> contexts(Record r, ReadContext notes) throws InputException {
        RetryLinker linker = new RetryLinker();
        read(r, linker, notes);
        return linker.contexts();
    }

    /**
     * The operations of one linking context, without their parents, each offering its attempts to any
     * operation: {@code records}, in order, are the records that hold its spans. Linking's notes (spans it
     * could not link, resends of nothing) go to {@code notes}; reading's were made when the records came.
     */
    public List<RetryLinker.Linked> operations(String context, List<Record> records, ReadContext notes)
            throws InputException {
        RetryLinker linker = new RetryLinker();
        for (Record r : records) {
            read(r, linker, null);
        }
        linker.held().keep(context);
        return linker.link(notes, false, true);
    }
}
