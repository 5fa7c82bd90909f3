package dev.retryaudit.probe;

import dev.retryaudit.model.CommitState;
import java.util.Objects;

/**
 * One request as the probe server saw it. {@code sequence} numbers the requests of the scenario's
 * method from 1 and is 0 for other methods; {@code connection} numbers the client connections in the
 * order they first sent a request. The journal keeps the request's method, path, idempotency key
 * (null when the key header was absent), the SHA-256 of its body ({@code sha256:HEX}) and the body's
 * length in bytes; then what it was answered: the status, the Retry-After headers ({@code ask}, null
 * without one), whether the server committed it (null for reads), when the answer was sent
 * ({@code answeredMillis}, later than the arrival by {@code stalledMillis} when it was held), and the
 * request whose result it replayed instead of committing again ({@code replayOf}, else 0).
 */
public record RecordedRequest(int sequence, long receivedMillis, int connection, Sent sent, Answer answer) {

    public RecordedRequest {
        Objects.requireNonNull(sent, "sent");
        Objects.requireNonNull(answer, "answer");
    }

    /** What the client sent: the method, path, idempotency key (null without one), body hash and body length. */
    public record Sent(String method, String path, String idempotencyKey, String requestHash, long contentLength) {
        public Sent {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(requestHash, "requestHash");
        }
    }

    /**
     * What the server answered: the status, the Retry-After headers ({@code ask}, null without one), the commit
     * state (null for reads), how long it held the answer, and the request it replayed (else 0).
     */
    public record Answer(int status, HeaderFormat.Ask ask, CommitState commitState, long stalledMillis, int replayOf) {
    }

    public String method() {
        return sent.method();
    }

    public String path() {
        return sent.path();
    }

    public String idempotencyKey() {
        return sent.idempotencyKey();
    }

    public String requestHash() {
        return sent.requestHash();
    }

    public long contentLength() {
        return sent.contentLength();
    }

    public int status() {
        return answer.status();
    }

    public HeaderFormat.Ask ask() {
        return answer.ask();
    }

    public CommitState commitState() {
        return answer.commitState();
    }

    public long stalledMillis() {
        return answer.stalledMillis();
    }

    public int replayOf() {
        return answer.replayOf();
    }

    /** Whether this is a request of the scenario's method. */
    public boolean inScenario() {
        return sequence > 0;
    }

    /** When the answer was sent: the arrival, plus the stall when the server held it. */
    public long answeredMillis() {
        return receivedMillis + answer.stalledMillis();
    }

    /** The Retry-After header sent, or null. */
    public String retryAfter() {
        return answer.ask() == null ? null : answer.ask().retryAfter();
    }
}
