package dev.retryaudit.input.foreign.retrytrace;

import dev.retryaudit.model.internal.LimitChecks;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Retry Trace's local curl diagnostic report ({@code "kind": "local-curl-retry-after-diagnostic"}, what
 * its {@code retry-local.py} prints): a loopback fixture answered the first GET of each case with
 * {@code status} and {@code Retry-After} ({@code delay_seconds}, as seconds or as an HTTP-date), and
 * every later one with 200; each of {@code cases} records the statuses the server saw and the gaps
 * between arrivals. Each case is one server-clock GET operation named {@code SOURCE#CASE}. The
 * report holds no clock time: the first arrival of a case is placed at the epoch and the others
 * after it by the gaps. For an {@code http-date} case the headers are rebuilt as the fixture wrote
 * them: a {@code Date} of the arrival's whole second and a Retry-After date {@code delay_seconds}
 * later, which {@code retry-after/early} reads with the Date header's whole-second resolution.
 */
public final class CurlDiagnostic {
    /** The {@code kind} of the report. */
    public static final String KIND = "local-curl-retry-after-diagnostic";

    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** One case as read, turned into an operation once the report's status and delay are known. */
    private record Case(String id, String headerFormat, List<Integer> statuses, List<Long> gapsMs, Location at) {
    }

    private final List<Case> cases = new ArrayList<>();
    private String kind;

    /** Reads field {@code name} if it is the report's; false when it is not one. */
    boolean bind(String name, JsonCursor c, ReadContext ctx) throws IOException, InputException {
        switch (name) {
            case "kind" -> {
                kind = c.optString();
                if (kind != null && !kind.equals(KIND)) {
                    throw c.error("unsupported kind: this reader reads " + KIND);
                }
            }
            case "cases" -> readCases(c, ctx);
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Whether the report's own fields were seen, so that the document is this report. */
    boolean seen() {
        return kind != null || !cases.isEmpty();
    }

    /** The operations of the report, one a case; {@code status} and {@code delay} are the report's (null when absent). */
    List<Operation> operations(Location root, Integer status, Long delay) throws InputException {
        if (kind == null) {
            throw Drafts.missing(root, "kind");
        }
        if (status == null || delay == null) {
            throw Drafts.missing(root, status == null ? "status" : "delay_seconds");
        }
        List<Operation> ops = new ArrayList<>();
        for (Case k : cases) {
            ops.add(operation(k, status, delay));
        }
        return ops;
    }

    private static Operation operation(Case k, int status, long delaySeconds) {
        long delay = Math.min(delaySeconds, 1L << 40);
        boolean date = "http-date".equals(k.headerFormat());
        List<Attempt> attempts = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < k.statuses().size(); i++) {
            at += i == 0 ? 0 : k.gapsMs().get(i - 1);
            int s = k.statuses().get(i);
            String retryAfter = null;
            String responseDate = null;
            if (s == status) {
                retryAfter = date ? IMF_FIXDATE.format(Instant.ofEpochMilli(at / 1000 * 1000 + delay * 1000))
                        : Long.toString(delay);
                responseDate = date ? IMF_FIXDATE.format(Instant.ofEpochMilli(at / 1000 * 1000)) : null;
            }
            attempts.add(Attempt.builder().attemptId(i + 1).startMillis(at).outcome(s < 400 ? Outcome.SUCCESS : Outcome.ERROR)
                    .status(s).retryAfter(retryAfter).responseDate(responseDate).at(k.at()).build());
        }
        return Operation.builder().id(k.id()).tool(RetryTraceDraft.TOOL).effect(Effect.READ).method("GET")
                .serverClock(true).attempts(attempts).carried(Set.of()).at(k.at()).build();
    }

    private void readCases(JsonCursor c, ReadContext ctx) throws IOException, InputException {
        if (c.isNull()) {
            return;
        }
        c.expectArray("the cases");
        for (int index = 0; c.next() != JsonToken.END_ARRAY; index++) {
            c.expectObject("a case");
            String pointer = "/cases/" + index;
            Location at = ctx.location(c, pointer);
            String label = null;
            String headerFormat = null;
            List<Integer> statuses = null;
            List<Long> gaps = null;
            long gapsLine = 0;
            long gapsColumn = 0;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                c.value();
                switch (name) {
                    case "case" -> label = c.optString();
                    case "header_format" -> headerFormat = headerFormat(c);
                    case "server_observed_statuses" -> statuses = statuses(c, ctx.limits());
                    case "server_arrival_gaps_seconds" -> {
                        gapsLine = c.line();
                        gapsColumn = c.column();
                        gaps = gaps(c, ctx.limits());
                    }
                    default -> c.skip();
                }
            }
            if (statuses == null || gaps == null || headerFormat == null) {
                throw Drafts.missing(at, statuses == null ? "server_observed_statuses"
                        : gaps == null ? "server_arrival_gaps_seconds" : "header_format");
            }
            if (gaps.size() != Math.max(0, statuses.size() - 1)) {
                throw InputException.rejected(ctx.source(), gapsLine, gapsColumn,
                        Drafts.pathOf(at) + ".server_arrival_gaps_seconds", "expected " + Math.max(0, statuses.size() - 1)
                                + " gaps, one between each two of the " + statuses.size() + " observed statuses");
            }
            if (!statuses.isEmpty()) {
                String id = ctx.source() + "#" + (label != null && !label.isEmpty() ? label : "case-" + (index + 1));
                cases.add(new Case(id, headerFormat, statuses, gaps, at));
            }
        }
    }

    private static String headerFormat(JsonCursor c) throws IOException, InputException {
        String s = c.optString();
        if (s != null && !s.equals("seconds") && !s.equals("http-date")) {
            throw c.error("expected one of seconds, http-date");
        }
        return s;
    }

    private static List<Integer> statuses(JsonCursor c, Limits limits) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectArray("the observed statuses");
        List<Integer> list = new ArrayList<>();
        while (c.next() != JsonToken.END_ARRAY) {
            LimitChecks.attempts(limits, list.size() + 1, "case", "attempts", c::error);
            Integer s = c.optInt(100, 599);
            if (s == null) {
                throw c.error("must not be null");
            }
            list.add(s);
        }
        return list;
    }

    /** The gaps in whole milliseconds (the report rounds them to milliseconds). */
    private static List<Long> gaps(JsonCursor c, Limits limits) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectArray("the arrival gaps");
        List<Long> list = new ArrayList<>();
        while (c.next() != JsonToken.END_ARRAY) {
            LimitChecks.attempts(limits, list.size() + 1, "case", "gaps", c::error);
            double seconds = c.optNumber(0);
            if (Double.isNaN(seconds) || seconds > 1e9) {
                throw c.error(Double.isNaN(seconds) ? "must not be null"
                        : "number out of range: a gap is at most 1e9 seconds");
            }
            list.add(Math.round(seconds * 1000));
        }
        return list;
    }
}
