package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.CommitState;
import dev.retryaudit.report.ProbeFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The verdict's logic on recorded traces built by hand: no server, no clock. */
class ProbeVerdictTest {
    private static final String URL = "http://127.0.0.1:1/retry-after-probe";
    private static final String HASH = "sha256:00";
    private static final long T0 = 1_800_000_000_000L;
    private static final ClientRun.Result EXITED_0 = new ClientRun.Result(0, false);

    @Test
    void waitsThatFollowEachDelayAreHonoured() {
        RecordedTrace t = gets(HeaderFormat.SECONDS, List.of(3L, 1L, 4L), 3, 1, 1, 1, 1);
        ProbeVerdict.Verdict v = judge(t, EXITED_0, Set.of(), 3010, 1005, 4020);

        assertThat(v.kind()).isEqualTo(ProbeFacts.HONOURED);
        assertThat(v.reason()).isEqualTo("every retry waited what was asked (asked 3000, 1000, 4000 ms, waited 3010,"
                + " 1005, 4020 ms)");
        assertThat(v.issues()).isEmpty();
        assertThat(v.obeyed()).isNull();
    }

    @Test
    void anEarlyFindingIsAViolationSayingHowEarly() {
        RecordedTrace t = gets(HeaderFormat.SECONDS, List.of(3L, 1L, 4L), 3, 1, 1, 1, 1);
        ProbeVerdict.Verdict v = judge(t, EXITED_0, Set.of("retry-after/early"), 1000, 2000, 4000);

        assertThat(v.kind()).isEqualTo(ProbeFacts.VIOLATED);
        assertThat(v.reason()).startsWith("came back 2000 ms before the wait asked after request 1 (");
        assertThat(v.issues()).isEmpty();
    }

    @Test
    void aFixedBackoffLongEnoughForEveryDelayDoesNotFollowThem() {
        RecordedTrace t = gets(HeaderFormat.SECONDS, List.of(3L, 1L, 4L), 3, 1, 1, 1, 1);
        ProbeVerdict.Verdict v = judge(t, EXITED_0, Set.of(), 5000, 5000, 5000);
        ProbeVerdict.Verdict longFirst = judge(t, EXITED_0, Set.of(), 3500, 3500, 4100);

        assertThat(longFirst.issues()).singleElement().satisfies(i -> assertThat(i.sequence()).isEqualTo(3));

        assertThat(v.kind()).isEqualTo(ProbeFacts.VIOLATED);
        assertThat(v.issues()).singleElement().satisfies(i -> {
            assertThat(i.rule()).isEqualTo(ProbeVerdict.NOT_FOLLOWED);
            assertThat(i.sequence()).isEqualTo(2);
            assertThat(i.message()).startsWith("request 2 came 5000 ms after request 1, which asked for 3000 ms");
        });
    }

    @Test
    void anHttpDateWaitMayRunASecondLongerForTheClientsWholeSecondClock() {
        RecordedTrace t = gets(HeaderFormat.HTTP_DATE, List.of(2L), 1, 1, 1);

        long asked = t.attempts().get(0).ask().askedMillis();
        assertThat(judge(t, EXITED_0, Set.of(), asked + 2000).kind()).isEqualTo(ProbeFacts.HONOURED);
        assertThat(judge(t, EXITED_0, Set.of(), asked + 2200).kind()).isEqualTo(ProbeFacts.VIOLATED);
    }

    @Test
    void withBothHeadersTheVerdictSaysWhichOneTheWaitsFollowed() {
        RecordedTrace t = gets(HeaderFormat.RETRY_AFTER_MS_AND_SECONDS, List.of(2L, 1L), 2, 1, 1, 1);

        assertThat(judge(t, EXITED_0, Set.of(), 2010, 1010).obeyed()).isEqualTo("retry-after-ms");
        assertThat(judge(t, EXITED_0, Set.of(), 5010, 3010).obeyed()).isEqualTo("Retry-After");
        ProbeVerdict.Verdict neither = judge(t, EXITED_0, Set.of(), 9000, 9000);
        assertThat(neither.obeyed()).isEqualTo("neither");
        assertThat(neither.kind()).isEqualTo(ProbeFacts.VIOLATED);
    }

    @Test
    void onlyUnfinishedRequestsTestNothing() {
        RecordedTrace none = gets(HeaderFormat.SECONDS, List.of(3L), 1);
        RecordedTrace cut = new RecordedTrace(none.runId(), none.createdMillis(), none.scenario(), none.client(),
                List.of(), List.of(), 0, 3);

        ProbeVerdict.Verdict v = judge(cut, EXITED_0, Set.of());
        assertThat(v.kind()).isEqualTo(ProbeFacts.NOT_TESTED);
        assertThat(v.reason()).isEqualTo("the client exited with code 0 after only 3 unfinished request(s) (cut off,"
                + " timed out, or a protocol other than plain HTTP?)");
        assertThat(judge(cut, new ClientRun.Result(null, true), Set.of()).reason()).isEqualTo("the client was killed"
                + " at the 60 s timeout before any request arrived whole, after 3 unfinished request(s) (cut off, timed"
                + " out, or a protocol other than plain HTTP?)");
        assertThat(judge(cut, null, Set.of()).reason()).isEqualTo("only 3 unfinished request(s) (cut off, timed out,"
                + " or a protocol other than plain HTTP?) reached " + URL + " in the 60 s the probe served");
    }

    @Test
    void nothingTestedSaysWhy() {
        RecordedTrace none = gets(HeaderFormat.SECONDS, List.of(3L), 1);
        RecordedTrace one = gets(HeaderFormat.SECONDS, List.of(3L), 1, 1);

        assertThat(judge(none, EXITED_0, Set.of()).reason()).isEqualTo("the client exited with code 0 without calling "
                + URL);
        assertThat(judge(none, new ClientRun.Result(7, false), Set.of()).reason()).isEqualTo("the client exited with"
                + " code 7 before any request reached " + URL + " (a wrong URL, or a protocol other than plain HTTP?)");
        assertThat(judge(none, null, Set.of()).reason()).isEqualTo("no request reached " + URL
                + " in the 60 s the probe served");
        assertThat(judge(one, EXITED_0, Set.of()).reason()).isEqualTo("the client exited with code 0 without retrying"
                + " after request 1 failed");
        assertThat(judge(one, new ClientRun.Result(22, false), Set.of()).reason())
                .isEqualTo("the client exited with code 22 before retrying");
        RecordedTrace pending = gets(HeaderFormat.SECONDS, List.of(600L), 1, 1);
        assertThat(judge(pending, new ClientRun.Result(null, true), Set.of()).reason()).isEqualTo("the client was killed"
                + " at the 60 s timeout while a wait of 600000 ms asked by Retry-After: 600 was still pending");
        ProbeVerdict.Verdict overdue = judge(one, new ClientRun.Result(null, true), Set.of());
        assertThat(overdue.kind()).isEqualTo(ProbeFacts.VIOLATED);
        assertThat(overdue.issues()).extracting(i -> i.rule().id()).containsExactly("probe/not-followed");
        assertThat(overdue.issues().get(0).message()).startsWith("request 1 asked for 3000 ms (Retry-After: 3) and the"
                + " client was still waiting at least ");
        ProbeVerdict.Verdict v = judge(one, EXITED_0, Set.of());
        assertThat(v.kind()).isEqualTo(ProbeFacts.NOT_TESTED);
        assertThat(v.reliable()).isTrue();
        assertThat(v.issues()).singleElement().satisfies(i -> {
            assertThat(i.rule()).isEqualTo(ProbeVerdict.NOT_TESTED);
            assertThat(i.sequence()).isZero();
            assertThat(i.message()).isEqualTo("nothing was tested: " + v.reason());
        });
    }

    @Test
    void interleavedConnectionsAreNotReliable() {
        RecordedTrace t = gets(HeaderFormat.SECONDS, List.of(1L), 2, 1, 2, 1, 2);
        ProbeVerdict.Verdict v = judge(t, EXITED_0, Set.of("retry-after/early"), 5, 1000, 5);

        assertThat(v.kind()).isEqualTo(ProbeFacts.NOT_TESTED);
        assertThat(v.reliable()).isFalse();
        assertThat(v.reason()).startsWith("requests came on 2 connections that interleave");
        assertThat(ProbeVerdict.interleaved(gets(HeaderFormat.SECONDS, List.of(1L), 2, 1, 2, 3))).isFalse();
    }

    @Test
    void aDisabledEarlyRuleJudgesNothing() {
        RecordedTrace t = gets(HeaderFormat.SECONDS, List.of(1L), 1, 1, 1);
        ProbeVerdict.Verdict v = ProbeVerdict.judge(new ProbeVerdict.Run(withGaps(t, 1000), EXITED_0, 60, URL, Set.of(),
                false, 100));

        assertThat(v.kind()).isEqualTo(ProbeFacts.NOT_TESTED);
        assertThat(v.reason()).isEqualTo("retry-after/early is disabled, so no wait was judged");
    }

    @Test
    void aHeldWriteResentUnderItsKeyIsHonouredAndAnUnsafeOneViolated() {
        Scenario s = new Scenario("POST", 429, 1, List.of(3L), HeaderFormat.SECONDS, 10, 2, true, "Idempotency-Key");
        RecordedTrace t = new RecordedTrace("run", T0, s, "c", List.of(
                new RecordedRequest(1, T0, 1,
                        new RecordedRequest.Sent("POST", "/", "k", HASH, 2),
                                new RecordedRequest.Answer(200, null, CommitState.COMMITTED, 2000, 0)),
                new RecordedRequest(2, T0 + 1200, 2,
                        new RecordedRequest.Sent("POST", "/", "k", HASH, 2),
                                new RecordedRequest.Answer(200, null, CommitState.REJECTED, 0, 1))),
                List.of(), 0);

        ProbeVerdict.Verdict clean = judge(t, EXITED_0, Set.of());
        ProbeVerdict.Verdict unsafe = judge(t, EXITED_0, Set.of("timeout-replay/keyless", "budget/no-backoff"));

        assertThat(clean.kind()).isEqualTo(ProbeFacts.HONOURED);
        assertThat(clean.reason()).isEqualTo("re-sent the held POST under its idempotency key k, which the server"
                + " deduplicated");
        assertThat(unsafe.kind()).isEqualTo(ProbeFacts.VIOLATED);
        assertThat(unsafe.reason()).isEqualTo("re-sent the held POST unsafely (timeout-replay/keyless)");
        RecordedTrace waitedItOut = new RecordedTrace("run", T0, s, "c", t.attempts().subList(0, 1), List.of(), 0);
        assertThat(judge(waitedItOut, EXITED_0, Set.of()).reason()).isEqualTo("the client exited with code 0 without"
                + " retrying after request 1 was held for 2 s (is its timeout longer than --stall?)");
    }

    @Test
    void aRequestRejectedWith422MustNotBeResentUnchanged() {
        Scenario s = new Scenario("POST", 422, 1, List.of(3L), HeaderFormat.SECONDS, 10, 0, true, "Idempotency-Key");
        RecordedRequest rejected = new RecordedRequest(1, T0, 1,
                new RecordedRequest.Sent("POST", "/", null, HASH, 2),
                        new RecordedRequest.Answer(422, null, CommitState.REJECTED, 0, 0));
        RecordedTrace once = new RecordedTrace("run", T0, s, "c", List.of(rejected), List.of(), 0);
        RecordedTrace twice = new RecordedTrace("run", T0, s, "c", List.of(rejected, new RecordedRequest(2, T0 + 10, 1, new RecordedRequest.Sent("POST", "/", null, HASH, 2), new RecordedRequest.Answer(200, null, CommitState.COMMITTED, 0, 0))), List.of(), 0);

        assertThat(judge(once, EXITED_0, Set.of()).reason())
                .isEqualTo("did not re-send the request the server rejected with 422");
        assertThat(judge(once, new ClientRun.Result(null, true), Set.of()).kind()).isEqualTo(ProbeFacts.NOT_TESTED);
        assertThat(judge(twice, EXITED_0, Set.of()).kind()).isEqualTo(ProbeFacts.HONOURED);
        assertThat(judge(twice, EXITED_0, Set.of()).reason())
                .isEqualTo("re-sent the request the server rejected with 422 only changed");
        ProbeVerdict.Verdict repeated = judge(twice, EXITED_0, Set.of("validation-repeat/identical"));
        assertThat(repeated.kind()).isEqualTo(ProbeFacts.VIOLATED);
        assertThat(repeated.reason()).isEqualTo("re-sent the request the server rejected with 422 unchanged"
                + " (validation-repeat/identical)");
    }

    @Test
    void theSlackIsASecondOrAQuarterOfTheWait() {
        assertThat(ProbeVerdict.slack(1000, 100)).isEqualTo(1100);
        assertThat(ProbeVerdict.slack(8000, 100)).isEqualTo(2100);
        assertThat(ProbeVerdict.follows(1000, 900, 100)).isTrue();
        assertThat(ProbeVerdict.follows(1000, 899, 100)).isFalse();
        assertThat(ProbeVerdict.follows(1000, 2100, 100)).isTrue();
        assertThat(ProbeVerdict.follows(1000, 2101, 100)).isFalse();
    }

    private static ProbeVerdict.Verdict judge(RecordedTrace t, ClientRun.Result client, Set<String> found, long... gaps) {
        return ProbeVerdict.judge(new ProbeVerdict.Run(withGaps(t, gaps), client, 60, URL, found, true, 100));
    }

    /**
     * GETs on the given connections, the first {@code failures} answered with the schedule's
     * Retry-After, one second apart until {@link #withGaps} spaces them.
     */
    @Test
    void aFailureThatAsksForNoWaitIsJudgedOnTheBackoff() {
        RecordedTrace invalid = gets(HeaderFormat.NEGATIVE, List.of(3L), 2, 1, 1, 1);
        RecordedTrace none = gets(HeaderFormat.NONE, List.of(0L), 2, 1, 1, 1);

        ProbeVerdict.Verdict atOnce = judge(invalid, EXITED_0, Set.of(ProbeVerdict.NO_BACKOFF));
        assertThat(atOnce.kind()).isEqualTo(ProbeFacts.VIOLATED);
        assertThat(atOnce.reason()).isEqualTo("retried at once after 429 with the invalid Retry-After: -3 (waited 1000,"
                + " 1000 ms): it read no wait as zero instead of backing off");
        ProbeVerdict.Verdict backedOff = judge(none, EXITED_0, Set.of());
        assertThat(backedOff.kind()).isEqualTo(ProbeFacts.HONOURED);
        assertThat(backedOff.reason()).isEqualTo("backed off after 429 without Retry-After (waited 1000, 1000 ms)");
        assertThat(ProbeVerdict.waitRule(none.scenario())).isEqualTo(ProbeVerdict.NO_BACKOFF);
    }

    @Test
    void aWaitOfNothingIsFollowedAfterAnyBackoff() {
        RecordedTrace past = gets(HeaderFormat.HTTP_DATE_PAST, List.of(30L), 2, 1, 1, 1);

        ProbeVerdict.Verdict v = judge(past, EXITED_0, Set.of(), 1000, 4000);
        assertThat(v.kind()).isEqualTo(ProbeFacts.HONOURED);
        assertThat(v.reason()).startsWith("every retry waited what was asked (asked 0, 0 ms, waited 1000, 4000 ms)");
    }

    private static RecordedTrace gets(HeaderFormat format, List<Long> delays, int failures, int... connections) {
        Scenario s = new Scenario("GET", 429, failures, delays, format, 100, 0, true, "Idempotency-Key");
        List<RecordedRequest> list = new ArrayList<>();
        for (int i = 0; i < connections.length; i++) {
            long at = T0 + i * 1000L;
            int n = i + 1;
            HeaderFormat.Ask ask = n <= failures ? format.ask(at, s.delayOf(n)) : null;
            list.add(new RecordedRequest(n, at, connections[i],
                    new RecordedRequest.Sent("GET", "/", null, HASH, 0),
                            new RecordedRequest.Answer(s.statusOf(n), ask, null, 0, 0)));
        }
        return new RecordedTrace("run", T0, s, "c", list, List.of(), 0);
    }

    /** The same requests with the given gaps between arrivals (the rest kept one second apart). */
    private static RecordedTrace withGaps(RecordedTrace t, long... gaps) {
        List<RecordedRequest> list = new ArrayList<>();
        long at = T0;
        for (int i = 0; i < t.attempts().size(); i++) {
            RecordedRequest r = t.attempts().get(i);
            if (i > 0) {
                at += i - 1 < gaps.length ? gaps[i - 1] : 1000;
            }
            HeaderFormat.Ask ask = r.ask() == null ? null : t.scenario().headerFormat().ask(at, t.scenario().delayOf(r.sequence()));
            list.add(new RecordedRequest(r.sequence(), at, r.connection(),
                    new RecordedRequest.Sent(r.method(), r.path(), r.idempotencyKey(), r.requestHash(), r.contentLength()), new RecordedRequest.Answer(r.status(), ask, r.commitState(), r.stalledMillis(), r.replayOf())));
        }
        return new RecordedTrace(t.runId(), t.createdMillis(), t.scenario(), t.client(), list, t.otherRequests(),
                t.unrecorded(), t.unfinished());
    }
}
