package dev.retryaudit.probe;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.rules.RuleInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Judges one probe run: honoured, violated or not tested, with the reason in words, and the
 * probe's own findings. Whether a retry came early is the audit's {@code retry-after/early}; this
 * class adds what only the probe can know: that nothing was tested and why, that the waits do not
 * follow the delays asked (a backoff that happened to be long enough), and which of two headers the
 * waits followed.
 */
public final class ProbeVerdict {
    /** The run tested nothing: no request, no retry, a killed or failed client, or clients that cannot be told apart. */
    public static final RuleInfo NOT_TESTED = ProbeCatalogue.NOT_TESTED;

    /** Every retry waited long enough, but not because of Retry-After. */
    public static final RuleInfo NOT_FOLLOWED = ProbeCatalogue.NOT_FOLLOWED;

    /** The audit's rule that judges each wait. */
    public static final String EARLY = "retry-after/early";

    /** The audit's rule that judges the waits after a failure that asked for none: a backoff, not an immediate retry. */
    public static final String NO_BACKOFF = "budget/no-backoff";

    /** A finding of the probe's own: its rule, the attempt it is about (0 for the run), message and evidence. */
    public record Issue(RuleInfo rule, int sequence, String message, Evidence evidence) {
    }

    /**
     * The verdict, its reason, the header the waits obeyed (null unless two were sent), the probe's
     * findings, and whether the recorded requests can be judged as one client's at all.
     */
    public record Verdict(String kind, String reason, String obeyed, List<Issue> issues, boolean reliable) {
        Verdict(String kind, String reason, String obeyed, List<Issue> issues) {
            this(kind, reason, obeyed, issues, true);
        }
    }

    /**
     * How a probe run ended: the client (null when the probe only served), the timeout, the audit's findings by
     * rule, and whether the audit ran the rule that judges the waits ({@link #waitRule}).
     */
    public record Run(RecordedTrace trace, ClientRun.Result client, long timeoutSeconds, String url,
            Set<String> foundRules, boolean earlyJudged, long toleranceMs) {
    }

    /**
     * The audit's rule that judges the waits of {@code s}: {@link #EARLY} when its failures ask for a wait,
     * {@link #NO_BACKOFF} when they ask for none and the client must back off on its own.
     */
    public static String waitRule(Scenario s) {
        return s.headerFormat().asksWait() ? EARLY : NO_BACKOFF;
    }

    /** One wait: the request whose answer asked for it, what it asked (and the other header, or null), the gap taken. */
    private record Wait(int sequence, long askedMs, Long otherMs, long gapMs) {
    }

    private ProbeVerdict() {
    }

    public static Verdict judge(Run run) {
        RecordedTrace t = run.trace();
        Verdict overdue = overdue(run);
        if (overdue != null) {
            return overdue;
        }
        String untested = untested(run);
        if (untested != null) {
            return new Verdict(ProbeFacts.NOT_TESTED, untested, null, List.of(new Issue(NOT_TESTED, 0,
                    "nothing was tested: " + untested, Evidence.of().put("reason", untested))), !interleaved(t));
        }
        if (t.scenario().rejects()) {
            return rejection(run);
        }
        if (t.scenario().stalls()) {
            return stall(run);
        }
        return t.scenario().headerFormat().asksWait() ? retryAfter(run) : backoff(run);
    }

    /**
     * A client killed at the timeout while it still waited after a wait asked for had long passed (a date
     * already past read as a wait without end, say): the wait does not follow the delay asked. Null when the
     * run did not end that way, or the wait asked had not yet passed, with its slack, when the client was killed.
     */
    private static Verdict overdue(Run run) {
        RecordedTrace t = run.trace();
        if (run.client() == null || !run.client().timedOut() || t.attempts().isEmpty() || interleaved(t)
                || t.scenario().stalls() || t.scenario().rejects() || !t.scenario().headerFormat().asksWait()) {
            return null;
        }
        RecordedRequest last = t.attempts().get(t.attempts().size() - 1);
        if (last.ask() == null) {
            return null;
        }
        long asked = last.ask().askedMillis();
        long tolerance = run.toleranceMs() + (t.scenario().headerFormat() == HeaderFormat.HTTP_DATE
                || t.scenario().headerFormat() == HeaderFormat.HTTP_DATE_PAST ? 1000 : 0);
        // the client started after the server did, so it was killed no sooner than this
        long waited = t.createdMillis() + run.timeoutSeconds() * 1000 - last.receivedMillis();
        if (waited <= asked + slack(asked, tolerance)) {
            return null;
        }
        String message = "request " + last.sequence() + " asked for " + asked + " ms (" + header(last)
                + ") and the client was still waiting at least " + waited + " ms later, when the " + run.timeoutSeconds()
                + " s timeout killed it: the wait does not follow the delay asked";
        Evidence evidence = Evidence.of().put("asked_ms", asked).put("waited_at_least_ms", waited)
                .put("slack_ms", slack(asked, tolerance));
        return new Verdict(ProbeFacts.VIOLATED, "still waiting " + waited + " ms after request " + last.sequence()
                + ", which asked for " + asked + " ms, when the timeout killed it", null,
                List.of(new Issue(NOT_FOLLOWED, last.sequence(), message, evidence)));
    }

    /** Why nothing was tested, or null when something was. */
    private static String untested(Run run) {
        RecordedTrace t = run.trace();
        String method = t.scenario().method();
        if (t.attempts().isEmpty()) {
            if (!t.otherRequests().isEmpty()) {
                return "no " + method + " reached the probe, only " + t.otherRequests().size()
                        + " request(s) of other methods, answered 405";
            }
            if (t.unfinished() > 0) {
                String partial = t.unfinished()
                        + " unfinished request(s) (cut off, timed out, or a protocol other than plain HTTP?)";
                return ending(run, "before any request arrived whole, after " + partial, "after only " + partial,
                        "only " + partial + " reached " + run.url());
            }
            return ending(run, "before any request reached " + run.url()
                    + " (a wrong URL, or a protocol other than plain HTTP?)", "without calling " + run.url(),
                    "no request reached " + run.url());
        }
        if (interleaved(t)) {
            return "requests came on " + t.connections() + " connections that interleave (several clients at once?),"
                    + " so they cannot be told apart: the verdict is not reliable";
        }
        int last = t.attempts().size() - 1;
        RecordedRequest end = t.attempts().get(last);
        if (t.scenario().rejects()) {
            boolean killed = run.client() != null && run.client().timedOut();
            return killed && !retriedAfterFailure(t) ? "the client was killed at the " + run.timeoutSeconds()
                    + " s timeout before it either gave up or re-sent the rejected request" : null;
        }
        if (!retriedAfterFailure(t)) {
            String pending = t.scenario().stalls() ? "while its " + method + " was held unanswered"
                    : !t.scenario().headerFormat().asksWait() ? "before it retried the failed request " + end.sequence()
                    : "while a wait of " + end.ask().askedMillis() + " ms asked by " + header(end) + " was still pending";
            if (run.client() != null && run.client().timedOut()) {
                return "the client was killed at the " + run.timeoutSeconds() + " s timeout " + pending;
            }
            String after = t.scenario().stalls() ? "request " + end.sequence() + " was held for "
                    + t.scenario().stallSeconds() + " s (is its timeout longer than --stall?)"
                    : "request " + end.sequence() + " failed";
            return ending(run, "before retrying", "without retrying after " + after, "no retry followed request "
                    + end.sequence());
        }
        if (!t.scenario().stalls() && !run.earlyJudged()) {
            return waitRule(t.scenario()) + " is disabled, so no wait was judged";
        }
        return null;
    }

    /** Whether a request followed one of the failures (or held requests) the scenario answers first. */
    private static boolean retriedAfterFailure(RecordedTrace t) {
        for (int i = 0; i + 1 < t.attempts().size(); i++) {
            if (t.attempts().get(i).sequence() <= t.scenario().failures()) {
                return true;
            }
        }
        return false;
    }

    /** Why nothing was tested, by how the client ended: killed or a non-zero exit ({@code failed}), exit 0, or none ran. */
    private static String ending(Run run, String failed, String quiet, String served) {
        if (run.client() == null) {
            return served + " in the " + run.timeoutSeconds() + " s the probe served";
        }
        if (run.client().timedOut()) {
            return "the client was killed at the " + run.timeoutSeconds() + " s timeout " + failed;
        }
        if (run.client().exitCode() != 0) {
            return "the client exited with code " + run.client().exitCode() + " " + failed;
        }
        return "the client exited with code 0 " + quiet;
    }

    /**
     * Whether requests from several connections interleave: a connection sends again after a newer
     * one (numbered by first request) has sent. One client, even one that opens a connection per
     * retry, never does.
     */
    static boolean interleaved(RecordedTrace t) {
        List<RecordedRequest> all = new ArrayList<>(t.attempts());
        all.addAll(t.otherRequests());
        all.sort(java.util.Comparator.comparingLong(RecordedRequest::receivedMillis));
        int newest = 0;
        for (RecordedRequest r : all) {
            if (r.connection() < newest) {
                return true;
            }
            newest = Math.max(newest, r.connection());
        }
        return false;
    }

    private static Verdict retryAfter(Run run) {
        List<Wait> waits = waits(run.trace());
        HeaderFormat format = run.trace().scenario().headerFormat();
        // a client reads an HTTP-date against its own clock in whole seconds, so it may wait up to a second more
        long tolerance = run.toleranceMs()
                + (format == HeaderFormat.HTTP_DATE || format == HeaderFormat.HTTP_DATE_PAST ? 1000 : 0);
        String obeyed = format == HeaderFormat.RETRY_AFTER_MS_AND_SECONDS ? obeyed(waits, tolerance) : null;
        String asked = "asked " + join(waits, true) + " ms, waited " + join(waits, false) + " ms";
        if (run.foundRules().contains(EARLY)) {
            Wait worst = waits.stream().min(java.util.Comparator.comparingLong(w -> w.gapMs() - w.askedMs())).orElseThrow();
            return new Verdict(ProbeFacts.VIOLATED, "came back " + (worst.askedMs() - worst.gapMs())
                    + " ms before the wait asked after request " + worst.sequence() + " (" + asked + ")", obeyed, List.of());
        }
        // a wait of nothing (Retry-After: 0, a date already past) is followed at once or after any backoff
        List<Wait> strays = waits.stream().filter(w -> w.askedMs() > 0 && !follows(w.askedMs(), w.gapMs(), tolerance)
                && (w.otherMs() == null || !follows(w.otherMs(), w.gapMs(), tolerance))).toList();
        if (!strays.isEmpty()) {
            Wait w = strays.get(0);
            String message = "request " + (w.sequence() + 1) + " came " + w.gapMs() + " ms after request "
                    + w.sequence() + ", which asked for " + w.askedMs() + " ms: the waits do not follow the delays asked ("
                    + asked + "), so the client's own backoff happened to be long enough";
            Evidence evidence = Evidence.of().put("asked_ms", waits.stream().map(Wait::askedMs).toList())
                    .put("waited_ms", waits.stream().map(Wait::gapMs).toList())
                    .put("slack_ms", slack(w.askedMs(), tolerance));
            return new Verdict(ProbeFacts.VIOLATED, "the waits do not follow the delays asked (" + asked
                    + "): the client's own backoff happened to be long enough", obeyed,
                    List.of(new Issue(NOT_FOLLOWED, w.sequence() + 1, message, evidence)));
        }
        return new Verdict(ProbeFacts.HONOURED, "every retry waited what was asked (" + asked + ")"
                + (obeyed == null ? "" : ", following " + obeyed), obeyed, List.of());
    }

    /**
     * A failure that asks for no wait (no header, or an invalid one): the client must fall back to a backoff of its
     * own; a retry at once ({@link #NO_BACKOFF}) is the bug of reading an invalid value as zero.
     */
    private static Verdict backoff(Run run) {
        List<RecordedRequest> a = run.trace().attempts();
        List<String> gaps = new ArrayList<>();
        for (int i = 0; i + 1 < a.size() && a.get(i).sequence() <= run.trace().scenario().failures(); i++) {
            gaps.add(String.valueOf(a.get(i + 1).receivedMillis() - a.get(i).receivedMillis()));
        }
        String asked = asked(run.trace().scenario());
        String waited = "waited " + String.join(", ", gaps) + " ms";
        if (run.foundRules().contains(NO_BACKOFF)) {
            return new Verdict(ProbeFacts.VIOLATED, "retried at once after " + asked + " (" + waited
                    + "): it read no wait as zero instead of backing off", null, List.of());
        }
        return new Verdict(ProbeFacts.HONOURED, "backed off after " + asked + " (" + waited + ")", null, List.of());
    }

    /** What the failures of a scenario that asks for no wait sent, in words. */
    private static String asked(Scenario s) {
        HeaderFormat.Ask ask = s.headerFormat().ask(0, s.delayOf(1));
        return s.status() + (ask == null ? " without Retry-After" : " with the invalid Retry-After: " + ask.retryAfter());
    }

    /** A 422 scenario: giving up, or re-sending a changed request, is right; re-sending the same one is not. */
    private static Verdict rejection(Run run) {
        RecordedTrace t = run.trace();
        List<String> repeats = run.foundRules().stream().filter(id -> id.startsWith("validation-repeat/")).sorted()
                .toList();
        if (!repeats.isEmpty()) {
            return new Verdict(ProbeFacts.VIOLATED, "re-sent the request the server rejected with 422 unchanged ("
                    + String.join(", ", repeats) + ")", null, List.of());
        }
        return new Verdict(ProbeFacts.HONOURED, retriedAfterFailure(t)
                ? "re-sent the request the server rejected with 422 only changed"
                : "did not re-send the request the server rejected with 422", null, List.of());
    }

    private static Verdict stall(Run run) {
        RecordedTrace t = run.trace();
        Set<String> found = run.foundRules();
        List<String> write = found.stream().filter(id -> id.startsWith("effect-verification/")
                || id.startsWith("timeout-replay/")).sorted().toList();
        String method = t.scenario().method();
        if (!write.isEmpty()) {
            return new Verdict(ProbeFacts.VIOLATED, "re-sent the held " + method + " unsafely (" + String.join(", ", write)
                    + ")", null, List.of());
        }
        RecordedRequest first = t.attempts().get(0);
        String how = !t.scenario().writes() ? "re-sent the held " + method + ", which changes nothing"
                : "re-sent the held " + method + " under its idempotency key "
                        + first.idempotencyKey() + (t.scenario().dedupe() ? ", which the server deduplicated" : "");
        return new Verdict(ProbeFacts.HONOURED, how, null, List.of());
    }

    /** The waits after each answer that asked for one, in order. */
    private static List<Wait> waits(RecordedTrace t) {
        List<Wait> waits = new ArrayList<>();
        List<RecordedRequest> a = t.attempts();
        for (int i = 0; i + 1 < a.size(); i++) {
            HeaderFormat.Ask ask = a.get(i).ask();
            if (ask != null) {
                waits.add(new Wait(a.get(i).sequence(), ask.askedMillis(), ask.otherMillis(),
                        a.get(i + 1).receivedMillis() - a.get(i).receivedMillis()));
            }
        }
        return waits;
    }

    /** With two headers: the one every wait followed, else "neither". */
    private static String obeyed(List<Wait> waits, long tolerance) {
        if (waits.stream().allMatch(w -> follows(w.askedMs(), w.gapMs(), tolerance))) {
            return HeaderFormat.MS_HEADER;
        }
        if (waits.stream().allMatch(w -> w.otherMs() != null && follows(w.otherMs(), w.gapMs(), tolerance))) {
            return "Retry-After";
        }
        return "neither";
    }

    /** Whether a gap follows a wait asked: no sooner than the tolerance allows, no later than the slack. */
    static boolean follows(long askedMs, long gapMs, long toleranceMs) {
        return gapMs >= askedMs - toleranceMs && gapMs <= askedMs + slack(askedMs, toleranceMs);
    }

    /** How much longer than asked a wait may be and still follow it: a second, or a quarter of the wait, plus the tolerance. */
    static long slack(long askedMs, long toleranceMs) {
        return Math.max(1000, askedMs / 4) + toleranceMs;
    }

    private static String header(RecordedRequest r) {
        return r.ask().retryAfterMs() != null ? HeaderFormat.MS_HEADER + ": " + r.ask().retryAfterMs()
                : "Retry-After: " + r.ask().retryAfter();
    }

    private static String join(List<Wait> waits, boolean asked) {
        return String.join(", ", waits.stream().map(w -> String.valueOf(asked ? w.askedMs() : w.gapMs())).toList());
    }
}
