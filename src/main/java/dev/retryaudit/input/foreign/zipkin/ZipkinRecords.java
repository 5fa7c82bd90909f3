package dev.retryaudit.input.foreign.zipkin;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.RecordPlaces;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.internal.InputException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Zipkin v2 bodies that arrive one at a time, as a receiver is sent them ({@code POST /api/v2/spans}):
 * each a numbered record, one JSON array of spans (or of arrays of spans, as the query API answers), read
 * once, straight into attempt spans with the checks and messages of {@link ZipkinReader}, then placed at
 * its record ({@link RecordPlaces}) once it is numbered, so that the spans of bodies linked together are linked as one file of
 * them would be. Not thread-safe.
 */
public final class ZipkinRecords {
    private final String source;
    private final int sourceIndex;
    private final Limits limits;
    private final StrictJson json;

    /** A reader of the bodies of {@code source}, the {@code sourceIndex}th of its run. */
    public ZipkinRecords(String source, int sourceIndex, Limits limits) {
        this.source = source;
        this.sourceIndex = sourceIndex;
        this.limits = limits;
        this.json = new StrictJson(limits);
    }

    /** A context of this source whose notes are kept, with no sink: for linking the spans of bodies read. */
    public ReadContext context() {
        return new ReadContext(source, sourceIndex, InputStream.nullInputStream(), json, limits, null);
    }

    /** One body read: its attempt spans, not yet placed, the context that read it (and its notes), and how many spans it held. */
    public record Body(List<ForeignSpan> attempts, ReadContext read, long spans) {
    }

    /**
     * Reads {@code body}, its attempt spans and the notes reading makes, for {@link #place} to place at its
     * record. A body that is not one array of Zipkin spans, or a span the reader rejects, rejects the whole
     * body, at record {@code number}, the one it would take.
     */
    public Body read(byte[] body, long number) throws InputException {
        RecordPlaces.check(number);
        RetryLinker one = new RetryLinker();
        ReadContext ctx = new ReadContext(source, sourceIndex, new ByteArrayInputStream(body), json, limits, null);
        long spans;
        try {
            JsonCursor c = ctx.open();
            SpanScratch scratch = ZipkinReader.scratch();
            spans = ParseFailures.reading(source, () -> c.parser(), limits, () -> spans(c, ctx, scratch, one));
            scratch.unused.note(ctx);
        } catch (InputException e) {
            InputException here = InputException.rejected(source, number, 1, e.path(), e.detail());
            throw e.limit() == null ? here : here.over(e.limit());
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes held in memory", e);
        }
        return new Body(one.spans(), ctx, spans);
    }

    /** Places the spans of {@code body} at record {@code number} into {@code into}, and its notes into {@code notes}. */
    public static void place(long number, Body body, RetryLinker into, ReadContext notes) {
        RecordPlaces.check(number);
        RecordPlaces.place(number, body.attempts(), into::add);
        RecordPlaces.notes(number, body.read(), notes);
    }

    /** The spans of the one array at the cursor, read into {@code into}: how many. */
    private static long spans(JsonCursor c, ReadContext ctx, SpanScratch scratch, RetryLinker into)
            throws IOException, InputException {
        JsonToken first = c.next();
        if (first != JsonToken.START_ARRAY) {
            throw c.error("$", "expected a JSON array of Zipkin v2 spans, found " + JsonCursor.describe(first));
        }
        long spans = 0;
        for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
            if (c.token() == JsonToken.START_ARRAY) {
                for (int j = 0; c.next() != JsonToken.END_ARRAY; j++) {
                    ZipkinReader.readSpan(c, ctx, into::add, scratch, "/" + i + "/" + j);
                    spans++;
                }
            } else {
                ZipkinReader.readSpan(c, ctx, into::add, scratch, "/" + i);
                spans++;
            }
        }
        if (c.next() != null) {
            throw c.error("$", "a second JSON value after the array of spans");
        }
        return spans;
    }
}
