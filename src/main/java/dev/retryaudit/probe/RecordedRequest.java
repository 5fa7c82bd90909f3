package dev.retryaudit.probe;

import java.util.Objects;

/**
 * One request as the probe server saw it: its arrival time (epoch milliseconds, taken when it
 * arrived), its method, and what it was answered. {@code sequence} numbers the GETs from 1 and is
 * 0 for other methods; {@code retryAfter} is null when the response had none.
 */
public record RecordedRequest(int sequence, long receivedMillis, String method, int status, String retryAfter) {
    public RecordedRequest {
        Objects.requireNonNull(method, "method");
    }

    public boolean isGet() {
        return sequence > 0;
    }
}
