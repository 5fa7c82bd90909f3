package dev.retryaudit.probe;

import dev.retryaudit.text.Times;
import dev.retryaudit.text.Wire;
import dev.retryaudit.report.ProbeFacts;
import java.util.ArrayList;
import java.util.List;

/** Turns what a probe run recorded and its verdict into the {@link ProbeFacts} every report format prints. */
public final class ProbeFactsBuilder {
    private ProbeFactsBuilder() {
    }

    public static ProbeFacts facts(String url, RecordedTrace t, ProbeFacts.ClientEnd client, ProbeVerdict.Verdict v,
            String traceFile) {
        Scenario s = t.scenario();
        ProbeFacts.Served served = new ProbeFacts.Served(s.method(), s.status(), s.failures(), s.delays(),
                s.headerFormat().id(), s.stallSeconds(), s.dedupe(), s.keyHeader());
        ProbeFacts.Counts counts = new ProbeFacts.Counts(t.attempts().size(), t.otherRequests().size(), t.unrecorded(),
                t.unfinished(),
                t.connections(), t.reachedSuccess());
        List<ProbeFacts.Request> requests = new ArrayList<>();
        long previous = Times.NONE;
        for (RecordedRequest r : t.attempts()) {
            HeaderFormat.Ask ask = r.ask();
            ProbeFacts.Answer answer = new ProbeFacts.Answer(r.status(), r.retryAfter(),
                    ask == null ? null : ask.retryAfterMs(), ask == null ? null : ask.askedMillis(),
                    r.commitState() == null ? null : Wire.name(r.commitState(), '_'), r.stalledMillis());
            requests.add(new ProbeFacts.Request(r.sequence(), Times.format(r.receivedMillis()), r.connection(),
                    Times.present(previous) ? r.receivedMillis() - previous : null,
                    new ProbeFacts.Sent(r.idempotencyKey(), r.requestHash(), r.contentLength()), answer));
            previous = r.receivedMillis();
        }
        return new ProbeFacts(url, served, client, counts, v.kind(), v.reason(), v.obeyed(), requests, traceFile);
    }
}
