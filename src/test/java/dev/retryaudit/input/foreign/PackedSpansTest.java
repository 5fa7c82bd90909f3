package dev.retryaudit.input.foreign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.foreign.otlp.OtlpRecords;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.text.Times;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Spans packed for a receiver to hold, and unpacked again: equal field by field, and linked alike. */
class PackedSpansTest {
    /** Every field of {@code s} and its hop, in order: two spans are equal when these are. */
    private static List<Object> fields(ForeignSpan s) {
        Hop h = s.hop;
        GrpcSpan g = s.grpc;
        return Arrays.asList(s.kind, s.order, s.startNanos, s.line, s.column, s.arrayPointer, s.index, s.traceId,
                s.spanId, s.parentSpanId, s.name, s.server, s.operationId, s.runId, s.effect, s.method, s.url, s.host,
                s.toolName, s.toolCallId, s.modelCall, s.toolArguments, s.requestHeaders, s.responseHeaders, s.client,
                s.thread, s.resendSource, s.abandoned, s.placeIsId,
                g == null ? null : Arrays.asList(g.role, g.method, g.previousAttempts, g.transparent, g.conventions),
                h.attemptId, h.resendCount, h.spanId, h.idempotencyKey, h.clientRequestId, h.startedAt, h.endedAt,
                Double.doubleToRawLongBits(h.durationMs), h.outcome, h.status, h.retryAfter, h.responseDate,
                h.commitState, h.commitStateSource, h.retryReason, h.requestHash, h.location, h.grpcStatus,
                h.errorClass, h.retryPushback, h.toolArguments);
    }

    private static final String[] STRINGS = {"", "a", "0", "00", "0a", "0A", "abcdef0123456789", "GET",
        "https://example.com/orders?id=1", "é", "ü-\u0000-x", "\uD83D\uDE00", "\uD800", "e\u0301", "x".repeat(300)};

    private static String string(Random r) {
        if (r.nextInt(5) == 0) {
            return null;
        }
        if (r.nextInt(4) == 0) {
            char[] chars = new char[r.nextInt(40)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) (r.nextBoolean() ? '0' + r.nextInt(10) : r.nextInt(Character.MAX_VALUE + 1));
            }
            return new String(chars);
        }
        return STRINGS[r.nextInt(STRINGS.length)];
    }

    private static <E> E of(Random r, E[] values) {
        return r.nextInt(4) == 0 ? null : values[r.nextInt(values.length)];
    }

    private static long number(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> 0;
            case 1 -> Long.MIN_VALUE;
            case 2 -> Long.MAX_VALUE;
            case 3 -> r.nextInt(1000) - 500;
            default -> r.nextLong();
        };
    }

    private static Integer integer(Random r) {
        return r.nextInt(3) == 0 ? null : r.nextBoolean() ? r.nextInt() : r.nextInt(10);
    }

    /** A span whose every field is drawn from {@code r}, null or absent as often as set. */
    private static ForeignSpan random(Random r) {
        ForeignSpan s = new ForeignSpan();
        s.kind = of(r, ForeignSpan.Kind.values());
        s.order = number(r);
        s.startNanos = number(r);
        s.line = number(r);
        s.column = number(r);
        s.arrayPointer = string(r);
        s.index = (int) number(r);
        s.traceId = string(r);
        s.spanId = string(r);
        s.parentSpanId = string(r);
        s.name = string(r);
        s.server = r.nextBoolean();
        s.operationId = string(r);
        s.runId = string(r);
        s.effect = of(r, Effect.values());
        s.method = string(r);
        s.url = string(r);
        s.host = string(r);
        s.toolName = string(r);
        s.toolCallId = string(r);
        s.modelCall = r.nextBoolean();
        s.toolArguments = string(r);
        s.requestHeaders = r.nextBoolean();
        s.responseHeaders = r.nextBoolean();
        s.client = string(r);
        s.thread = string(r);
        s.resendSource = string(r);
        s.abandoned = r.nextBoolean();
        s.placeIsId = r.nextBoolean();
        if (r.nextBoolean()) {
            s.grpc = new GrpcSpan(GrpcSpan.Role.values()[r.nextInt(GrpcSpan.Role.values().length)], string(r),
                    integer(r), r.nextBoolean(), r.nextBoolean());
        }
        Hop h = s.hop;
        h.attemptId = integer(r);
        h.resendCount = integer(r);
        h.spanId = string(r);
        h.idempotencyKey = string(r);
        h.clientRequestId = string(r);
        h.startedAt = r.nextBoolean() ? Times.NONE : number(r);
        h.endedAt = r.nextBoolean() ? Times.NONE : number(r);
        h.durationMs = r.nextInt(3) == 0 ? Double.NaN : r.nextBoolean() ? -0.0 : r.nextDouble() * 1e6;
        h.outcome = of(r, Outcome.values());
        h.status = integer(r);
        h.retryAfter = string(r);
        h.responseDate = string(r);
        h.commitState = of(r, CommitState.values());
        h.commitStateSource = of(r, CommitStateSource.values());
        h.retryReason = string(r);
        h.requestHash = string(r);
        if (r.nextBoolean()) {
            String pointer = string(r);
            h.location = new Location(r.nextBoolean() ? "/v1/traces" : "é.json", r.nextInt(3), 1 + r.nextInt(1 << 20),
                    1 + r.nextInt(100), pointer);
        }
        h.grpcStatus = of(r, GrpcStatus.values());
        h.errorClass = of(r, ErrorClass.values());
        h.retryPushback = string(r);
        h.toolArguments = string(r);
        return s;
    }

    @Test
    void randomSpansUnpackEqualFieldByField() {
        Random r = new Random(20261205);
        PackedSpans packing = new PackedSpans();
        PackedSpans unpacking = new PackedSpans();
        for (int i = 0; i < 20_000; i++) {
            ForeignSpan s = random(r);
            byte[] packed = packing.pack(s);
            ForeignSpan back = unpacking.unpack(packed);
            assertThat(fields(back)).as("span %d", i).isEqualTo(fields(s));
            if (i < 1_000) {
                // Every field, the listed ones and any added to a span or its hop since (the comparison is slow).
                assertThat(back).as("span %d", i).usingRecursiveComparison()
                        .withEqualsForType(Double::equals, Double.class).isEqualTo(s);
            }
            assertThat(PackedSpans.order(packed)).isEqualTo(s.order);
            assertThat(PackedSpans.startNanos(packed)).isEqualTo(s.startNanos);
            assertThat(back.hop).isNotSameAs(s.hop);
        }
    }

    @Test
    void emptySpanUnpacksEmpty() {
        ForeignSpan s = new ForeignSpan();
        assertThat(fields(new PackedSpans().unpack(new PackedSpans().pack(s)))).isEqualTo(fields(s));
    }

    @Test
    void equalStringsOfSpansUnpackedInTurnAreOneInstance() {
        ForeignSpan a = random(new Random(1));
        a.traceId = "0af7651916cd43dd8448eb211c80319c";
        a.client = "checkout";
        PackedSpans packing = new PackedSpans();
        byte[] one = packing.pack(a);
        byte[] two = packing.pack(a);
        PackedSpans unpacking = new PackedSpans();
        ForeignSpan x = unpacking.unpack(one);
        ForeignSpan y = unpacking.unpack(two);
        assertThat(y.traceId).isEqualTo(a.traceId).isSameAs(x.traceId);
        assertThat(y.client).isSameAs(x.client);
    }

    @Test
    void realSpansUnpackEqualAndLinkIntoTheSameOperations() throws IOException {
        int spans = 0;
        for (Path f : LinkingContextsTest.otlpExports()) {
            OtlpRecords records = new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS);
            RetryLinker read = new RetryLinker();
            try {
                records.read(new OtlpRecords.Record(1, Files.readAllBytes(f)), read, null);
            } catch (InputException e) {
                continue;
            }
            PackedSpans packing = new PackedSpans();
            PackedSpans unpacking = new PackedSpans();
            LinkingContexts original = new LinkingContexts();
            LinkingContexts unpacked = new LinkingContexts();
            for (ForeignSpan s : read.spans()) {
                ForeignSpan back = unpacking.unpack(packing.pack(s));
                assertThat(fields(back)).as("%s", f).isEqualTo(fields(s));
                // Every field, the listed ones and any added to a span or its hop since: none is left unpacked.
                assertThat(back).as("%s", f).usingRecursiveComparison()
                    .withEqualsForType(Double::equals, Double.class).isEqualTo(s);
                original.add(s);
                unpacked.add(back);
                spans++;
            }
            assertThat(operations(unpacked, records)).as("%s", f).isEqualTo(operations(original, records));
        }
        assertThat(spans).isGreaterThan(100);
    }

    private static List<Object> operations(LinkingContexts spans, OtlpRecords records) {
        ReadContext notes = records.context();
        List<Object> out = new ArrayList<>();
        try {
            for (RetryLinker.Linked l : spans.link(notes, false, null)) {
                out.add(l.operation());
            }
        } catch (InputException e) {
            out.add(e.diagnostic());
        }
        out.add(notes.notes());
        return out;
    }
}
