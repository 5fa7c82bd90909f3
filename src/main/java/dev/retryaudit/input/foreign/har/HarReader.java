package dev.retryaudit.input.foreign.har;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.Headers;
import dev.retryaudit.input.foreign.Hop;
import dev.retryaudit.input.foreign.Http;
import dev.retryaudit.input.foreign.RetryLink;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.json.StringPool;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads HAR 1.2 ({@code log.entries[]}): entries are ordered by {@code startedDateTime} (stably,
 * since exporters do not always sort them) and linked into operations by {@link RetryLinker} among
 * the entries of one page ({@code pageref}): a request is a retry of an earlier one by the rule of
 * {@link RetryLink}, whatever other traffic stands between them, or by its
 * {@code x-stainless-retry-count} header. Fields the audit does not use are
 * skipped as the HAR specification asks; those it uses are checked strictly. Failed requests, which
 * exporters write as {@code status} -1 or 0 and {@code time} -1, are connection errors.
 */
public final class HarReader implements TraceReader {
    private static final String[] REQUEST_HEADERS = {"idempotency-key", Headers.RETRY_COUNT};
    private static final String[] RESPONSE_HEADERS = {"retry-after", "date", Headers.RETRY_AFTER_MS};

    /** The JSON Pointer of the entries, whose place names each entry's operation. */
    private static final String ENTRIES = "/log/entries";

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        JsonCursor c = ctx.open();
        if (c.next() == null) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", "empty input: expected a HAR document");
        }
        c.expectObject("a HAR document");
        Location root = ctx.location(c, "");
        List<ForeignSpan> entries = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("log")) {
                entries = readLog(c, ctx, new StringPool(1 << 16));
            } else {
                c.skip();
            }
        }
        if (entries == null) {
            throw Drafts.missing(root, "log: not a HAR document");
        }
        if (c.next() != null) {
            throw c.error("$", "trailing content after the JSON document");
        }
        entries.sort(Comparator.comparingLong(e -> e.hop.startedAt));
        RetryLinker linker = new RetryLinker();
        for (int i = 0; i < entries.size(); i++) {
            ForeignSpan s = entries.set(i, null);
            s.order = i;
            linker.add(s);
        }
        linker.emit(ctx, true);
    }

    private static List<ForeignSpan> readLog(JsonCursor c, ReadContext ctx, StringPool strings)
            throws IOException, InputException {
        c.expectObject("the HAR log");
        Location at = ctx.location(c, "/log");
        List<ForeignSpan> entries = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (!name.equals("entries")) {
                c.skip();
                continue;
            }
            c.expectArray("the HAR entries");
            entries = new ArrayList<>();
            while (c.next() != JsonToken.END_ARRAY) {
                entries.add(readEntry(c, ctx, entries.size(), strings));
            }
        }
        if (entries == null) {
            throw Drafts.missing(at, "entries");
        }
        return entries;
    }

    /** An entry as the request it records, to be linked with the others (its place is its operation's id). */
    private static ForeignSpan readEntry(JsonCursor c, ReadContext ctx, int index, StringPool strings)
            throws IOException, InputException {
        c.expectObject("a HAR entry");
        ForeignSpan e = new ForeignSpan();
        e.kind = ForeignSpan.Kind.HTTP;
        e.line = c.line();
        e.column = c.column();
        e.arrayPointer = ENTRIES;
        e.index = index;
        e.placeIsId = true;
        e.traceId = "";
        e.parentSpanId = "";
        e.requestHeaders = true;
        e.responseHeaders = true;
        boolean request = false;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            switch (name) {
                case "startedDateTime" -> e.hop.startedAt = c.optTimestamp();
                case "time" -> e.hop.durationMs = time(c);
                case "pageref" -> e.runId = c.optSharedString();
                case "request" -> request = readRequest(c, e);
                case "response" -> readResponse(c, e.hop);
                default -> c.skip();
            }
        }
        if (!Times.present(e.hop.startedAt)) {
            throw Drafts.missing(ctx.location(e.line, e.column, e.pointer()), "startedDateTime");
        }
        if (!request) {
            throw Drafts.missing(ctx.location(e.line, e.column, e.pointer()), "request");
        }
        if (e.hop.outcome == null) {
            e.hop.outcome = Outcome.CONNECTION_ERROR;
        }
        e.startNanos = e.hop.startedAt * 1_000_000;
        e.host = strings.share(Http.host(e.url));
        e.resendSource = e.hop.resendCount == null ? null : Headers.RETRY_COUNT;
        return e;
    }

    /** The entry's total time in milliseconds; -1 (not recorded) is NaN. */
    private static double time(JsonCursor c) throws IOException, InputException {
        if ((c.token() == JsonToken.VALUE_NUMBER_INT || c.token() == JsonToken.VALUE_NUMBER_FLOAT)
                && c.parser().getDoubleValue() == -1) {
            return Double.NaN;
        }
        return c.optNumber(0);
    }

    private static boolean readRequest(JsonCursor c, ForeignSpan e) throws IOException, InputException {
        if (c.isNull()) {
            return false;
        }
        c.expectObject("the request");
        long line = c.line();
        long column = c.column();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            switch (name) {
                case "method" -> e.method = c.optSharedString();
                case "url" -> e.url = c.optSharedString();
                case "headers" -> {
                    String[] values = headers(c, REQUEST_HEADERS);
                    e.hop.idempotencyKey = values[0];
                    e.hop.resendCount = Headers.retryCount(values[1]);
                }
                case "postData" -> e.hop.requestHash = postDataHash(c);
                default -> c.skip();
            }
        }
        if (e.method == null || e.url == null) {
            String path = JsonPointers.toPath(e.pointer() + "/request");
            throw InputException.rejected(c.source(), line, column, path,
                    "missing required field " + (e.method == null ? "method" : "url"));
        }
        return true;
    }

    /** Reads the response; a missing status, -1 or 0 is a request that got no response. */
    private static void readResponse(JsonCursor c, Hop hop) throws IOException, InputException {
        if (c.isNull()) {
            return;
        }
        c.expectObject("the response");
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            switch (name) {
                case "status" -> {
                    Long status = c.optLong(Long.MIN_VALUE, Long.MAX_VALUE);
                    if (status != null && status != -1 && status != 0) {
                        if (status < 100 || status > 599) {
                            throw c.error("expected an HTTP status from 100 to 599 (or -1 or 0 for a failed request)");
                        }
                        hop.status = status.intValue();
                        hop.outcome = Http.outcome(hop.status);
                    }
                }
                case "headers" -> {
                    String[] values = headers(c, RESPONSE_HEADERS);
                    hop.retryAfter = values[0] != null ? values[0] : Headers.retryAfterFromMillis(values[2]);
                    hop.responseDate = values[1];
                }
                default -> c.skip();
            }
        }
    }

    /** The first value of each wanted header; header names match whatever their case. */
    private static String[] headers(JsonCursor c, String[] wanted) throws IOException, InputException {
        String[] values = new String[wanted.length];
        if (c.isNull()) {
            return values;
        }
        c.expectArray("the headers");
        while (c.next() != JsonToken.END_ARRAY) {
            c.expectObject("a header {\"name\": ..., \"value\": ...}");
            String name = null;
            String value = null;
            InputException badValue = null;
            while (c.next() == JsonToken.FIELD_NAME) {
                String field = c.parser().currentName();
                c.valueOfCheckedField();
                if (field.equals("name")) {
                    name = c.optSharedString();
                } else if (field.equals("value")) {
                    if (c.token() == JsonToken.VALUE_STRING || c.isNull()) {
                        value = c.optSharedString();
                    } else {
                        badValue = c.error("expected a string, found " + JsonCursor.describe(c.token()));
                        c.skip();
                    }
                } else {
                    c.skip();
                }
            }
            int i = wanted.length - 1;
            while (i >= 0 && (name == null || !name.equalsIgnoreCase(wanted[i]))) {
                i--;
            }
            if (i >= 0) {
                if (badValue != null) {
                    throw badValue;
                }
                if (values[i] == null) {
                    values[i] = value;
                }
            }
        }
        return values;
    }

    /** A fingerprint of the request body, or null when the export left it out. */
    private static String postDataHash(JsonCursor c) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectObject("the request body (postData)");
        String text = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("text")) {
                text = c.optString();
            } else {
                c.skip();
            }
        }
        return text == null ? null : sha256(text);
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
