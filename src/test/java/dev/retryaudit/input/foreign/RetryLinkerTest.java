package dev.retryaudit.input.foreign;

import dev.retryaudit.json.StrictJson;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** The retry-linking rules, on spans and entries as the readers hand them over. */
class RetryLinkerTest {
    private static final String TRACE = "7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5e";
    private static final String URL = "https://api.example/v1/orders";
    private static final long T0 = 1_800_000_000_000L;

    private final List<Operation> ops = new ArrayList<>();
    private ReadContext ctx;
    private int order;

    /** An HTTP span under parent {@code parent} of trace {@code trace} ("" for a root span), sent at {@code at} ms for {@code took} ms. */
    private ForeignSpan span(String trace, String parent, String method, String url, long at, long took, Integer status,
            Outcome outcome) {
        ForeignSpan s = new ForeignSpan();
        s.kind = ForeignSpan.Kind.HTTP;
        s.order = order++;
        s.line = order;
        s.column = 1;
        s.traceId = trace;
        s.spanId = String.format("%016x", order);
        s.parentSpanId = parent;
        s.method = method;
        s.url = url;
        s.host = Http.host(url);
        s.startNanos = (T0 + at) * 1_000_000;
        s.hop.spanId = s.spanId;
        s.hop.startedAt = T0 + at;
        s.hop.endedAt = T0 + at + took;
        s.hop.status = status;
        s.hop.outcome = outcome != null ? outcome : status == null ? null : Http.outcome(status);
        return s;
    }

    private ForeignSpan sibling(String method, long at, long took, Integer status) {
        return span(TRACE, "00000000000000aa", method, URL, at, took, status, null);
    }

    private List<Operation> link(ForeignSpan... spans) throws InputException {
        ctx = new ReadContext("t.json", 0, new ByteArrayInputStream(new byte[0]), new StrictJson(Limits.DEFAULTS),
                Limits.DEFAULTS, ops::add);
        RetryLinker linker = new RetryLinker();
        for (ForeignSpan s : spans) {
            linker.add(s);
        }
        linker.emit(ctx, false);
        return ops;
    }

    private static List<Integer> sizes(List<Operation> ops) {
        return ops.stream().map(op -> op.attempts().size()).toList();
    }

    @Test
    void siblingsSentAgainAfterA429AreOneOperation() throws Exception {
        List<Operation> read = link(sibling("GET", 0, 30, 429), sibling("GET", 2_100, 30, 429), sibling("GET", 4_200, 30, 200));
        assertThat(sizes(read)).containsExactly(3);
        assertThat(read.get(0).attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        assertThat(read.get(0).groupedBy()).isEqualTo("inferred: same parent, method and URL after a failure within 10 s");
    }

    @Test
    void pollingFiveTimesWithSuccessesIsFiveOperations() throws Exception {
        List<Operation> read = link(sibling("GET", 0, 10, 200), sibling("GET", 1_000, 10, 200),
                sibling("GET", 2_000, 10, 200), sibling("GET", 3_000, 10, 200), sibling("GET", 4_000, 10, 200));
        assertThat(sizes(read)).containsExactly(1, 1, 1, 1, 1);
        assertThat(read).allSatisfy(op -> assertThat(op.groupedBy()).isNull());
    }

    @Test
    void requestsStartedInTheSameMillisecondAreConcurrentEvenWhenTheFirstFails() throws Exception {
        assertThat(sizes(link(sibling("GET", 0, 40, 200), sibling("GET", 0, 40, 200)))).containsExactly(1, 1);
        ops.clear();
        assertThat(sizes(link(sibling("GET", 0, 40, 503), sibling("GET", 3, 40, 200)))).containsExactly(1, 1);
    }

    @Test
    void aFastRetryAfterTheFailureEndedIsARetryButWithNoEndRecordedItIsConcurrent() throws Exception {
        assertThat(sizes(link(sibling("GET", 0, 1, 503), sibling("GET", 2, 1, 200)))).containsExactly(2);
        ops.clear();
        ForeignSpan unended = sibling("GET", 0, 1, 503);
        unended.hop.endedAt = Times.NONE;
        assertThat(sizes(link(unended, sibling("GET", 2, 1, 200)))).containsExactly(1, 1);
    }

    @Test
    void aRequestStartedWhileTheFailedOneWasInFlightIsNoRetryOfIt() throws Exception {
        assertThat(sizes(link(sibling("GET", 0, 500, 503), sibling("GET", 100, 40, 200)))).containsExactly(1, 1);
    }

    @Test
    void unrelatedTrafficBetweenAttemptsDoesNotSplitThem() throws Exception {
        ForeignSpan first = sibling("POST", 0, 30, 503);
        ForeignSpan other = span(TRACE, "00000000000000aa", "GET", "https://api.example/v1/notifications", 500, 10, 200, null);
        List<Operation> read = link(first, other, sibling("POST", 1_000, 30, 201));
        assertThat(sizes(read)).containsExactly(2, 1);
    }

    @Test
    void aRequestAfterASuccessOrAClientErrorOrBeyondTheWindowIsANewOperation() throws Exception {
        assertThat(sizes(link(sibling("GET", 0, 10, 200), sibling("GET", 500, 10, 200)))).containsExactly(1, 1);
        ops.clear();
        assertThat(sizes(link(sibling("GET", 0, 10, 404), sibling("GET", 500, 10, 200)))).containsExactly(1, 1);
        ops.clear();
        assertThat(sizes(link(sibling("GET", 0, 10, 503), sibling("GET", 10_011, 10, 200)))).containsExactly(1, 1);
        ops.clear();
        assertThat(sizes(link(sibling("GET", 0, 10, 503), sibling("GET", 10_009, 10, 200)))).containsExactly(2);
    }

    @Test
    void theWindowGrowsByTheRetryAfterDelay() throws Exception {
        ForeignSpan first = sibling("GET", 0, 10, 503);
        first.hop.retryAfter = "30";
        assertThat(sizes(link(first, sibling("GET", 35_000, 10, 200)))).containsExactly(2);
    }

    /** Links a POST answered {@code status} and its resend a second later, with these keys and body hashes. */
    private List<Integer> postTwice(int status, String key1, String key2, String hash1, String hash2) throws Exception {
        ops.clear();
        ForeignSpan a = sibling("POST", 0, 10, status);
        ForeignSpan b = sibling("POST", 1_000, 10, 201);
        a.hop.idempotencyKey = key1;
        b.hop.idempotencyKey = key2;
        a.hop.requestHash = hash1;
        b.hop.requestHash = hash2;
        return sizes(link(a, b));
    }

    @Test
    void differentKeysOrBodiesAreDifferentRequestsAndTheKeyDecidesOverTheBody() throws Exception {
        assertThat(postTwice(503, "k-1", "k-2", null, null)).containsExactly(1, 1);
        assertThat(postTwice(503, null, null, "sha256:aa", "sha256:bb")).containsExactly(1, 1);
        assertThat(postTwice(503, "k-1", null, "sha256:aa", "sha256:aa")).containsExactly(2);
        assertThat(postTwice(422, "k-1", "k-1", "sha256:aa", "sha256:bb"))
                .as("one key, two bodies: one operation, after a client error too").containsExactly(2);
        assertThat(postTwice(422, null, null, null, null)).as("a client error with no identity to match").containsExactly(1, 1);
    }

    @Test
    void aKeylessPostSentAgainAfterATimeoutIsItsRetry() throws Exception {
        List<Operation> read = link(sibling("POST", 0, 1_000, null), sibling("POST", 1_050, 30, 201));
        assertThat(sizes(read)).containsExactly(1, 1);
        ops.clear();
        read = link(span(TRACE, "00000000000000aa", "POST", URL, 0, 1_000, null, Outcome.TIMEOUT),
                sibling("POST", 1_050, 30, 201));
        assertThat(sizes(read)).as("a timeout is a failure; an unknown outcome is not").containsExactly(2);
    }

    @Test
    void urlsAreComparedNormalised() throws Exception {
        ForeignSpan a = span(TRACE, "00000000000000aa", "GET", "HTTPS://API.example:443/v1/orders#top", 0, 10, 503, null);
        assertThat(sizes(link(a, sibling("GET", 1_000, 10, 200)))).containsExactly(2);
    }

    @Test
    void rootResendsAreLinkedAcrossTracesToTheSameClient() throws Exception {
        ForeignSpan first = span("11111111111111111111111111111111", "", "GET", URL, 0, 20, 429, null);
        ForeignSpan second = span("22222222222222222222222222222222", "", "GET", URL, 2_050, 20, 429, null);
        ForeignSpan third = span("33333333333333333333333333333333", "", "GET", URL, 4_100, 20, 200, null);
        for (ForeignSpan s : List.of(first, second, third)) {
            s.client = "service.name=checkout";
        }
        second.hop.resendCount = 1;
        second.resendSource = "resend_count";
        third.hop.resendCount = 2;
        third.resendSource = "resend_count";
        List<Operation> read = link(first, second, third);
        assertThat(sizes(read)).containsExactly(3);
        assertThat(read.get(0).groupedBy()).isEqualTo("resend_count");
        assertThat(read.get(0).attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
    }

    @Test
    void rootSpansWithoutACountAreLinkedAcrossTracesOfOneClientAndThread() throws Exception {
        ForeignSpan first = span("11111111111111111111111111111111", "", "POST", URL, 0, 1_000, null, Outcome.TIMEOUT);
        ForeignSpan again = span("22222222222222222222222222222222", "", "POST", URL, 1_500, 20, 201, null);
        ForeignSpan otherThread = span("33333333333333333333333333333333", "", "POST", URL, 1_600, 20, 201, null);
        for (ForeignSpan s : List.of(first, again, otherThread)) {
            s.client = "service.name=worker";
            s.thread = "1";
        }
        otherThread.thread = "2";
        List<Operation> read = link(first, again, otherThread);
        assertThat(sizes(read)).containsExactly(2, 1);
        assertThat(read.get(0).groupedBy())
                .isEqualTo("inferred: same client and thread, method and URL after a failure within 10 s");
    }

    @Test
    void aRootResendOfAnotherClientIsNotedAndNumberedFromOne() throws Exception {
        ForeignSpan first = span("11111111111111111111111111111111", "", "GET", URL, 0, 20, 429, null);
        ForeignSpan resend = span("22222222222222222222222222222222", "", "GET", URL, 2_050, 20, 200, null);
        first.client = "service.name=checkout";
        resend.client = "service.name=billing";
        resend.hop.resendCount = 1;
        resend.resendSource = "resend_count";
        List<Operation> read = link(first, resend);
        assertThat(sizes(read)).containsExactly(1, 1);
        assertThat(read.get(1).attempts().get(0).attemptId()).isEqualTo(1);
        assertThat(ctx.notes()).extracting(InputNote::message).singleElement().asString()
                .contains("has resend_count 1, but no earlier send of it by the same client within 10 s");
    }

    @Test
    void aResendUnderAParentWithoutItsFirstSendKeepsTheGap() throws Exception {
        ForeignSpan resend = sibling("GET", 0, 10, 200);
        resend.hop.resendCount = 2;
        resend.resendSource = "resend_count";
        assertThat(link(resend).get(0).attempts().get(0).attemptId()).isEqualTo(3);
        assertThat(ctx.notes()).isEmpty();
    }

    @Test
    void countedResendsAfterInferredOnesKeepCounting() throws Exception {
        ForeignSpan third = sibling("GET", 2_000, 10, 200);
        third.hop.resendCount = 1;
        third.resendSource = "x-stainless-retry-count";
        List<Operation> read = link(sibling("GET", 0, 10, 503), sibling("GET", 1_000, 10, 503), third);
        assertThat(read.get(0).attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        assertThat(read.get(0).groupedBy()).isEqualTo(
                "inferred: same parent, method and URL after a failure within 10 s; x-stainless-retry-count");
    }

    @Test
    void harEntriesOfOnePageAreLinkedAndOwnTheirIds() throws Exception {
        ForeignSpan a = span("", "", "GET", URL, 0, 10, null, Outcome.CONNECTION_ERROR);
        ForeignSpan b = span("", "", "GET", URL, 600, 10, 200, null);
        for (ForeignSpan s : List.of(a, b)) {
            s.spanId = null;
            s.hop.spanId = null;
            s.runId = "page_1";
            s.arrayPointer = "/log/entries";
            s.index = (int) s.order;
            s.placeIsId = true;
            s.requestHeaders = true;
        }
        List<Operation> read = link(a, b);
        assertThat(sizes(read)).containsExactly(2);
        assertThat(read.get(0).id()).isEqualTo("t.json#/log/entries/0");
        assertThat(read.get(0).runId()).isEqualTo("page_1");
        assertThat(read.get(0).groupedBy()).isEqualTo("inferred: same page, method and URL after a failure within 10 s");
    }

    @Test
    void twoFailedRequestsInFlightTogetherAreEachContinuedByTheirOwnRetry() throws Exception {
        ForeignSpan a = span("", "", "GET", URL, 0, 40, 503, null);
        ForeignSpan b = span("", "", "GET", URL, 2, 40, 503, null);
        ForeignSpan retryA = span("", "", "GET", URL, 1_000, 10, 200, null);
        ForeignSpan retryB = span("", "", "GET", URL, 1_002, 10, 200, null);
        for (ForeignSpan s : List.of(a, b, retryA, retryB)) {
            s.runId = "page_1";
        }
        List<Operation> read = link(a, b, retryA, retryB);
        assertThat(sizes(read)).containsExactly(2, 2);
        assertThat(read.get(0).attempts()).extracting(Attempt::spanId).containsExactly(a.spanId, retryA.spanId);
        assertThat(read.get(1).attempts()).extracting(Attempt::spanId).containsExactly(b.spanId, retryB.spanId);
    }

    @Test
    void twoCountedResendsOfRequestsInFlightTogetherFollowTheirOwnFirstSends() throws Exception {
        ForeignSpan a = sibling("POST", 0, 40, 429);
        ForeignSpan b = sibling("POST", 1, 40, 429);
        ForeignSpan resendA = sibling("POST", 1_100, 10, 201);
        ForeignSpan resendB = sibling("POST", 1_101, 10, 201);
        for (ForeignSpan s : List.of(resendA, resendB)) {
            s.hop.resendCount = 1;
            s.resendSource = "resend_count";
        }
        List<Operation> read = link(a, b, resendA, resendB);
        assertThat(sizes(read)).containsExactly(2, 2);
        assertThat(read.get(0).attempts()).extracting(Attempt::attemptId).containsExactly(1, 2);
        assertThat(read.get(1).attempts()).extracting(Attempt::spanId).containsExactly(b.spanId, resendB.spanId);
    }

    @Test
    void aRootRetrySentOnAnotherThreadOfTheClientIsLinked() throws Exception {
        ForeignSpan first = span("11111111111111111111111111111111", "", "POST", URL, 0, 5_000, null, Outcome.TIMEOUT);
        ForeignSpan resend = span("22222222222222222222222222222222", "", "POST", URL, 5_300, 20, 201, null);
        first.client = "service.name=orders";
        resend.client = "service.name=orders";
        first.thread = "reactor-http-nio-2";
        resend.thread = "parallel-1";
        List<Operation> read = link(first, resend);
        assertThat(sizes(read)).containsExactly(2);
        assertThat(read.get(0).groupedBy())
                .isEqualTo("inferred: same client, method and URL after a failure within 10 s");
        assertThat(ctx.notes()).isEmpty();
    }

    @Test
    void aRootRetryPrefersTheFailureOfItsOwnThread() throws Exception {
        ForeignSpan one = span("11111111111111111111111111111111", "", "GET", URL, 0, 20, 503, null);
        ForeignSpan two = span("22222222222222222222222222222222", "", "GET", URL, 1, 20, 503, null);
        ForeignSpan retryTwo = span("33333333333333333333333333333333", "", "GET", URL, 500, 20, 200, null);
        ForeignSpan retryOne = span("44444444444444444444444444444444", "", "GET", URL, 501, 20, 200, null);
        for (ForeignSpan s : List.of(one, two, retryTwo, retryOne)) {
            s.client = "service.name=worker";
        }
        one.thread = "client-1";
        retryOne.thread = "client-1";
        two.thread = "client-2";
        retryTwo.thread = "client-2";
        List<Operation> read = link(one, two, retryTwo, retryOne);
        assertThat(read.get(0).attempts()).extracting(Attempt::spanId).containsExactly(one.spanId, retryOne.spanId);
        assertThat(read.get(1).attempts()).extracting(Attempt::spanId).containsExactly(two.spanId, retryTwo.spanId);
        assertThat(read.get(0).groupedBy())
                .isEqualTo("inferred: same client and thread, method and URL after a failure within 10 s");
    }

    @Test
    void anHttpDateRetryAfterWidensTheWindowAsSecondsDo() throws Exception {
        ForeignSpan dated = sibling("GET", 0, 20, 503);
        dated.hop.retryAfter = "Fri, 15 Jan 2027 08:00:30 GMT";
        dated.hop.responseDate = "Fri, 15 Jan 2027 08:00:00 GMT";
        ForeignSpan later = sibling("GET", 35_000, 20, 200);
        assertThat(sizes(link(dated, later))).containsExactly(2);
        ops.clear();
        ForeignSpan undated = sibling("GET", 0, 20, 503);
        undated.hop.retryAfter = "Fri, 15 Jan 2027 08:00:30 GMT";
        undated.hop.responseDate = "Fri, 15 Jan 2027 08:00:20 GMT";
        assertThat(sizes(link(undated, sibling("GET", 35_000, 20, 200)))).as("30 s after its Date, 10 s is asked")
                .containsExactly(1, 1);
    }

    @Test
    void anHttpDateRetryAfterWithoutADateHeaderCountsFromTheResponse() {
        Hop h = new Hop();
        h.startedAt = java.time.Instant.parse("2027-01-15T08:00:00Z").toEpochMilli();
        h.endedAt = h.startedAt + 500;
        h.retryAfter = "Fri, 15 Jan 2027 08:00:20 GMT";
        assertThat(RetryLink.retryAfterMillis(h)).isEqualTo(19_500);
        h.retryAfter = "Fri, 15 Jan 2027 07:00:00 GMT";
        assertThat(RetryLink.retryAfterMillis(h)).as("a date in the past asks for no wait").isZero();
        h.retryAfter = "tomorrow";
        assertThat(RetryLink.retryAfterMillis(h)).isZero();
        h.retryAfter = "120";
        assertThat(RetryLink.retryAfterMillis(h)).isEqualTo(120_000);
    }

    @Test
    void theSendsUnderAnSdkCallSpanAreOneOperationAndTheCallSpanIsNone() throws Exception {
        ForeignSpan call = sibling("POST", 0, 3_000, 200);
        call.name = "anthropic.messages.create";
        call.hop.resendCount = 2;
        call.resendSource = "resend_count";
        List<ForeignSpan> sends = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sends.add(span(TRACE, "", "POST", URL, 10 + i * 1_000L, 500, i < 2 ? 529 : 200, null));
        }
        for (ForeignSpan s : sends) {
            s.parentSpanId = call.spanId;
        }
        List<Operation> read = link(sends.get(2), call, sends.get(0), sends.get(1));
        assertThat(sizes(read)).containsExactly(3);
        assertThat(read.get(0).attempts()).extracting(Attempt::spanId)
                .containsExactly(sends.get(0).spanId, sends.get(1).spanId, sends.get(2).spanId);
        assertThat(read.get(0).groupedBy()).isEqualTo("sends under call span anthropic.messages.create");
        assertThat(read.get(0).parentOperation()).isNull();
        assertThat(ctx.notes()).isEmpty();
    }

    @Test
    void aCallSpanWhoseCountDisagreesWithItsSendsIsNoted() throws Exception {
        ForeignSpan call = sibling("POST", 0, 3_000, 200);
        call.name = "anthropic.messages.create";
        call.hop.resendCount = 2;
        call.resendSource = "resend_count";
        ForeignSpan send = span(TRACE, call.spanId, "POST", URL, 2_000, 500, 200, null);
        List<Operation> read = link(call, send);
        assertThat(sizes(read)).containsExactly(1);
        assertThat(ctx.notes()).extracting(InputNote::message).singleElement().asString()
                .contains("call span " + call.spanId + " (anthropic.messages.create, POST " + URL
                        + ") records resend_count 2 (3 sends), but 1 attempt is under it");
    }

    @Test
    void aSpanWithChildrenOfAnotherMethodIsNoCallSpan() throws Exception {
        ForeignSpan page = sibling("GET", 0, 3_000, 200);
        ForeignSpan child = span(TRACE, page.spanId, "POST", URL, 100, 50, 201, null);
        assertThat(sizes(link(page, child))).containsExactly(1, 1);
    }

    @Test
    void anAbandonedSpanIsNotedOnceWithTheCount() throws Exception {
        ForeignSpan a = sibling("POST", 0, 1_000, null);
        ForeignSpan b = sibling("POST", 1_200, 1_000, null);
        for (ForeignSpan s : List.of(a, b)) {
            s.abandoned = true;
            s.hop.outcome = Outcome.TIMEOUT;
        }
        link(a, b, sibling("POST", 2_400, 20, 201));
        assertThat(ctx.notes()).extracting(InputNote::message).singleElement().asString()
                .startsWith("2 HTTP spans ended with no status code, no error.type, span status unset and no "
                        + "exception event, the first span " + a.spanId);
    }

    @Test
    void requestsWithoutAUrlAmongOthersAreNotedAsReadAlone() throws Exception {
        ForeignSpan a = span(TRACE, "00000000000000aa", "POST", URL, 0, 20, 503, null);
        ForeignSpan b = span(TRACE, "00000000000000aa", "POST", URL, 1_000, 20, 201, null);
        a.url = null;
        b.url = null;
        List<Operation> read = link(a, b);
        assertThat(sizes(read)).containsExactly(1, 1);
        assertThat(ctx.notes()).extracting(InputNote::message).containsExactly("2 HTTP spans with no URL (url.full, "
                + "http.url) among other requests of their context, the first span " + a.spanId + ": without a resend "
                + "count such a request cannot be told from another or placed after it, so each is read as an "
                + "operation of its own and a retry among them is not seen");
    }

    @Test
    void aRequestAloneInItsContextNeedsNoUrlToBeRead() throws Exception {
        ForeignSpan a = sibling("GET", 0, 20, 200);
        a.url = null;
        a.hop.startedAt = Times.NONE;
        link(a);
        assertThat(ctx.notes()).isEmpty();
    }

    @Test
    void aCountedRootResendOnAnotherThreadIsLinkedWithoutANote() throws Exception {
        ForeignSpan first = span("11111111111111111111111111111111", "", "GET", URL, 0, 20, 503, null);
        ForeignSpan resend = span("22222222222222222222222222222222", "", "GET", URL, 1_020, 20, 200, null);
        first.client = "service.name=orders";
        resend.client = "service.name=orders";
        first.responseHeaders = true;
        first.thread = "reactor-http-nio-3";
        resend.thread = "parallel-2";
        resend.hop.resendCount = 1;
        resend.resendSource = "resend_count";
        List<Operation> read = link(first, resend);
        assertThat(sizes(read)).containsExactly(2);
        assertThat(read.get(0).groupedBy()).isEqualTo("resend_count");
        assertThat(ctx.notes()).isEmpty();
    }

    /** Every order of {@code spans}, for a linking that must not depend on the order spans were met in. */
    private static List<List<ForeignSpan>> orders(List<ForeignSpan> spans) {
        if (spans.size() <= 1) {
            return List.of(spans);
        }
        List<List<ForeignSpan>> out = new ArrayList<>();
        for (int i = 0; i < spans.size(); i++) {
            List<ForeignSpan> rest = new ArrayList<>(spans);
            ForeignSpan head = rest.remove(i);
            for (List<ForeignSpan> tail : orders(rest)) {
                List<ForeignSpan> order = new ArrayList<>(List.of(head));
                order.addAll(tail);
                out.add(order);
            }
        }
        return out;
    }

    private List<Operation> linkInOrder(List<ForeignSpan> spans) throws InputException {
        ops.clear();
        for (int i = 0; i < spans.size(); i++) {
            spans.get(i).order = i;
        }
        return link(spans.toArray(ForeignSpan[]::new));
    }

    @Test
    void aCallSpanOverACallSpanOverTwoSendsIsOneOperationInEveryOrder() throws Exception {
        ForeignSpan sdk = span(TRACE, "", "POST", URL, 0, 9_000, 200, null);
        ForeignSpan client = span(TRACE, sdk.spanId, "POST", URL, 1, 8_000, 200, null);
        ForeignSpan first = span(TRACE, client.spanId, "POST", URL, 2, 900, 503, null);
        first.responseHeaders = true;
        ForeignSpan second = span(TRACE, client.spanId, "POST", URL, 1_100, 5_000, 200, null);
        for (List<ForeignSpan> order : orders(List.of(sdk, client, first, second))) {
            assertThat(linkInOrder(order)).as(order.stream().map(x -> x.spanId).toList().toString())
                    .singleElement().satisfies(op -> assertThat(op.attempts()).extracting(Attempt::spanId)
                            .containsExactly(first.spanId, second.spanId));
            assertThat(ctx.notes()).extracting(InputNote::message).singleElement().asString()
                    .startsWith("call span " + client.spanId + " (")
                    .contains("is sent under another call span of its method: it is a layer of that call, not a send");
        }
    }

    @Test
    void sendsUnderTwoLayersOfOneCallAreTheAttemptsOfTheOutermostCall() throws Exception {
        // A client instrumented twice under an SDK's call span: each send is a client span over the transport's span.
        ForeignSpan sdk = span(TRACE, "", "POST", URL, 0, 9_000, 200, null);
        ForeignSpan firstLayer = span(TRACE, sdk.spanId, "POST", URL, 1, 1_000, 503, null);
        ForeignSpan firstSend = span(TRACE, firstLayer.spanId, "POST", URL, 2, 900, 503, null);
        firstLayer.responseHeaders = true;
        firstSend.responseHeaders = true;
        ForeignSpan secondLayer = span(TRACE, sdk.spanId, "POST", URL, 1_100, 7_000, 200, null);
        ForeignSpan secondSend = span(TRACE, secondLayer.spanId, "POST", URL, 1_200, 6_000, 200, null);
        for (List<ForeignSpan> order : orders(List.of(sdk, firstLayer, firstSend, secondLayer, secondSend))) {
            assertThat(linkInOrder(order)).as(order.stream().map(x -> x.spanId).toList().toString())
                    .singleElement().satisfies(op -> assertThat(op.attempts()).extracting(Attempt::spanId)
                            .containsExactly(firstSend.spanId, secondSend.spanId));
            assertThat(ctx.notes()).hasSize(2);
        }
    }

    @Test
    void sendsUnderThreeLayersOfOneCallAreOneOperationInEveryOrder() throws Exception {
        ForeignSpan sdk = span(TRACE, "", "POST", URL, 0, 9_000, 200, null);
        sdk.name = "sdk.call";
        ForeignSpan wrapper = span(TRACE, sdk.spanId, "POST", URL, 1, 8_500, 200, null);
        ForeignSpan client = span(TRACE, wrapper.spanId, "POST", URL, 2, 8_000, 200, null);
        ForeignSpan first = span(TRACE, client.spanId, "POST", URL, 3, 900, 503, null);
        first.responseHeaders = true;
        ForeignSpan second = span(TRACE, client.spanId, "POST", URL, 1_100, 5_000, 200, null);
        for (List<ForeignSpan> order : orders(List.of(sdk, wrapper, client, first, second))) {
            assertThat(linkInOrder(order)).as(order.stream().map(x -> x.spanId).toList().toString())
                    .singleElement().satisfies(op -> {
                        assertThat(op.attempts()).extracting(Attempt::spanId).containsExactly(first.spanId, second.spanId);
                        assertThat(op.groupedBy()).isEqualTo("sends under call span sdk.call");
                    });
            assertThat(ctx.notes()).hasSize(2);
        }
    }

    @Test
    void resent429sAnd503sThatRecordNoResponseHeaderAreCountedInOneNote() throws Exception {
        link(sibling("GET", 0, 30, 429), sibling("GET", 200, 30, 503), sibling("GET", 400, 30, 200));
        assertThat(ctx.notes()).singleElement().satisfies(n -> {
            assertThat(n.line()).isEqualTo(1);
            assertThat(n.message()).isEqualTo("2 HTTP spans answered 429 or 503 and sent again record no response "
                    + "header, the first span 0000000000000001 (GET " + URL + "): the export did not capture "
                    + "Retry-After, so whether the resend waited as the server asked is not checked; capture the "
                    + "response headers retry-after, retry-after-ms and date (docs/serve.md says how for each SDK)");
        });
    }

    @Test
    void aResent503ThatRecordsAResponseHeaderIsNoNoteSinceItsRetryAfterWasCaptured() throws Exception {
        ForeignSpan refused = sibling("GET", 0, 30, 503);
        refused.responseHeaders = true;
        assertThat(sizes(link(refused, sibling("GET", 200, 30, 200)))).containsExactly(2);
        assertThat(ctx.notes()).isEmpty();
    }

    @Test
    void a503NotSentAgainAndAResent500AreNoNote() throws Exception {
        link(sibling("GET", 0, 30, 500), sibling("GET", 200, 30, 200), sibling("POST", 5_000, 30, 503));
        assertThat(ctx.notes()).isEmpty();
    }
}
