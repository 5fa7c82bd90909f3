package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The spans of one source that record a protocol the audit does not read (an RPC system other than
 * gRPC, a messaging system, a database), counted by protocol so that the reader can say in one note
 * each how many spans it left out and why: an export of such spans alone would otherwise read as clean.
 */
public final class UnusedSpans {
    /** How many spans of each protocol, and where the first stood, in the order first seen. */
    private final Map<String, long[]> counts = new LinkedHashMap<>();

    /** Counts the span, which is no attempt, when it records a protocol; says whether it does. */
    boolean count(SpanScratch s, ReadContext ctx) {
        String what = protocol(s, ctx);
        if (what != null) {
            counts.computeIfAbsent(what, k -> new long[] {0, s.line, s.column})[0]++;
        }
        return what != null;
    }

    /** The protocol a span records in words ({@code RPC system "dubbo"}), or null for none. */
    private static String protocol(SpanScratch s, ReadContext ctx) {
        String rpc = s.hint(OtlpAttribute.RPC_SYSTEM, ctx);
        if ("grpc".equals(rpc)) {
            return "gRPC that name no method (neither rpc.method nor a span name package.Service/Method)";
        }
        if (rpc != null) {
            return "RPC system \"" + rpc + "\" (" + s.keys[OtlpAttribute.RPC_SYSTEM.ordinal()].key() + ")";
        }
        String messaging = s.hint(OtlpAttribute.MESSAGING_SYSTEM, ctx);
        if (messaging != null) {
            return "messaging system \"" + messaging + "\" (messaging.system)";
        }
        String db = s.hint(OtlpAttribute.DB_SYSTEM, ctx);
        if (db != null) {
            return "database system \"" + db + "\" (" + s.keys[OtlpAttribute.DB_SYSTEM.ordinal()].key() + ")";
        }
        return null;
    }

    /** What this has counted, in a new one, leaving this with nothing counted. */
    public UnusedSpans take() {
        UnusedSpans taken = new UnusedSpans();
        taken.counts.putAll(counts);
        counts.clear();
        return taken;
    }

    /**
     * Counts here what {@code later} counted in the spans that follow those counted here, its places
     * {@code lines} lines further on.
     */
    public void add(UnusedSpans later, long lines) {
        for (Map.Entry<String, long[]> e : later.counts.entrySet()) {
            long[] c = e.getValue();
            long[] here = counts.get(e.getKey());
            if (here == null) {
                counts.put(e.getKey(), new long[] {c[0], c[1] + lines, c[2]});
            } else {
                here[0] += c[0];
            }
        }
    }

    /** Notes each protocol counted, at its first span, and forgets them. */
    public void note(ReadContext ctx) {
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            ctx.note(e.getValue()[1], e.getValue()[2], text(e.getValue()[0], e.getKey()));
        }
        counts.clear();
    }

    /**
     * Counts each protocol in {@code parts} instead, for a source read a line at a time: the spans were
     * counted on line {@code line} of {@code source} (the parser counted it as line 1).
     */
    public void count(NoteParts parts, String source, int sourceIndex, long line) {
        long seq = 0;
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            long[] c = e.getValue();
            parts.count(source, sourceIndex, NoteParts.UNUSED, e.getKey(), line, c[2], (line << 16) + seq++,
                    new long[] {c[0]});
        }
        counts.clear();
    }

    /** The note on {@code n} spans of {@code what} left out. */
    static String text(long n, String what) {
        return n + (n == 1 ? " span" : " spans") + " of " + what
                + (n == 1 ? " was" : " were") + " not used: the audit reads the attempts of HTTP requests, "
                + "gRPC calls and GenAI tool calls, and cannot tell the retries of another protocol";
    }
}
