package dev.retryaudit.input.reader;

import java.util.ArrayList;
import java.util.List;

/**
 * The spans of one source that were no attempt, counted by why: the server's side of a request, a
 * protocol the audit does not read, or nothing the audit reads at all. When a source holds no attempt,
 * this says what it held instead; it never changes what is read.
 */
public final class SpanTally {
    private long server;
    private long protocol;
    private long other;

    /**
     * Counts one span that is no attempt: one of another protocol ({@code protocol}, as its input note counts
     * it), else a server span ({@code server}), else another.
     */
    public void count(boolean server, boolean protocol) {
        if (protocol) {
            this.protocol++;
        } else if (server) {
            this.server++;
        } else {
            other++;
        }
    }

    /** Counts here what {@code more} counted. */
    public void add(SpanTally more) {
        server += more.server;
        protocol += more.protocol;
        other += more.other;
    }

    /** How many spans were counted. */
    public long spans() {
        return server + protocol + other;
    }

    /**
     * What a source that held no attempt held instead, in words:
     * {@code 3 spans, none an attempt: 1 server span, 2 spans of other protocols}, or null when it counted none.
     */
    public String found() {
        long all = spans();
        if (all == 0) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        if (server > 0) {
            parts.add(spans(server, "server span") + " (the receiving side of a request)");
        }
        if (protocol > 0) {
            parts.add(spans(protocol, "span") + " of other protocols");
        }
        if (other > 0) {
            parts.add(spans(other, "span") + " with no HTTP request, gRPC call or tool call");
        }
        return spans(all, "span") + ", none an attempt: " + String.join(", ", parts);
    }

    private static String spans(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
