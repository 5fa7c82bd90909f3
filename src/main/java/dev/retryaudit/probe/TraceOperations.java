package dev.retryaudit.probe;

import dev.retryaudit.http.AskedWait;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The operations of a recorded trace, built directly: what reading the document {@link TraceWriter} writes for
 * it as a Retry Trace gives, located in that document. The run is one server-observed operation (none when no
 * request of the scenario's method came): its id and tool are the client command (or the run id and
 * {@link #TOOL} when the probe only served), and its attempts carry the journal's keys, request hashes and
 * commit states.
 */
final class TraceOperations {
    /** The tool of a run the probe only served: the one a Retry Trace's reader names, the format's id. */
    static final String TOOL = InputFormat.RETRY_TRACE.id();

    private static final Set<Field> CARRIED = Set.of(Field.IDEMPOTENCY_KEY, Field.REQUEST_HASH, Field.COMMIT_STATE);

    private TraceOperations() {
    }

    /** The operations of {@code t} as read from a source named {@code source}, the first of its input set. */
    static List<Operation> of(RecordedTrace t, String source) {
        if (t.attempts().isEmpty()) {
            return List.of();
        }
        List<TraceWriter.Position> positions;
        try {
            positions = TraceWriter.write(t, OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("a trace written to nowhere failed", e);
        }
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < t.attempts().size(); i++) {
            TraceWriter.Position at = positions.get(i);
            attempts.add(attempt(t, i, new Location(source, 0, at.line(), at.column(), "/attempts/" + i)));
        }
        attempts.sort(Attempt.BY_ID);
        String tool = t.client() == null ? TOOL : t.client();
        return List.of(Operation.builder().id(t.client() == null ? t.runId() : t.client()).tool(tool)
                .method(t.scenario().method()).runId(t.runId()).serverClock(true).attempts(attempts)
                .carried(CARRIED).at(new Location(source, 0, 1, 1, "")).build());
    }

    private static Attempt attempt(RecordedTrace t, int index, Location at) {
        RecordedRequest r = t.attempts().get(index);
        Outcome outcome = r.stalledMillis() > 0 && t.gaveUp(index) ? Outcome.TIMEOUT
                : r.status() < 400 ? Outcome.SUCCESS : Outcome.ERROR;
        String retryAfterMs = r.ask() == null ? null : r.ask().retryAfterMs();
        String wait = AskedWait.of(r.retryAfter(), retryAfterMs == null ? null : Long.parseLong(retryAfterMs));
        return Attempt.builder().attemptId(r.sequence()).idempotencyKey(r.idempotencyKey())
                .startMillis(r.receivedMillis()).outcome(outcome).status(r.status()).retryAfter(wait)
                .commitState(r.commitState()).commitStateSource(r.commitState() == null ? null : CommitStateSource.SERVER)
                .requestHash(r.requestHash()).at(at).build();
    }
}
