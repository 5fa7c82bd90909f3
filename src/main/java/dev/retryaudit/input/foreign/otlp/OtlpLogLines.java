package dev.retryaudit.input.foreign.otlp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Logs that carry OTLP exports, one a line, after a log prefix: the Java SDK's {@code logging-otlp}
 * exporter writes lines such as
 * {@code [otel.javaagent 2026-11-30 21:46:06:123 +0000] [BatchSpanProcessor_WorkerThread-1] INFO
 * io.opentelemetry.exporter.logging.otlp.OtlpJsonLoggingSpanExporter - {"resource":...}}. A line
 * carries an export when it starts with {@code {} (after white space), or when its first {@code {}
 * follows the name of a span exporter ({@code ...SpanExporter}) earlier on the line; every other
 * line is a log line of something else. {@link #blanking} turns such a log into JSON Lines of the
 * exports by overwriting the prefixes and the other lines with spaces, byte for byte, so that lines
 * and columns stay those of the log.
 */
public final class OtlpLogLines {
    private static final byte[] MARKER = "SpanExporter".getBytes(StandardCharsets.US_ASCII);

    private OtlpLogLines() {
    }

    /**
     * Whether a source whose first bytes are these is such a log: its first non-blank byte does not
     * start a JSON object, nor an array unless a span exporter's line follows (a log prefix in brackets).
     */
    static boolean isLog(byte[] head, int length) {
        int i = bomLength(head, length);
        while (i < length && isBlank(head[i])) {
            i++;
        }
        return i < length && head[i] != '{' && (head[i] != '[' || firstExport(head, i, length) > i);
    }

    /** The offset of the first export in {@code bytes[from, to)} that follows a log prefix, or -1. */
    public static int firstExport(byte[] bytes, int from, int to) {
        Scanner s = new Scanner();
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (s.step(b) && s.started) {
                return i;
            }
        }
        return -1;
    }

    /** The source with every log prefix and every other log line overwritten with spaces. */
    static InputStream blanking(InputStream in) {
        return new FilterInputStream(in) {
            private final Scanner scanner = new Scanner();
            private boolean first = true;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                int from = off;
                if (first && n > 0) {
                    // A byte-order mark is kept for the parser, which skips it.
                    first = false;
                    from += bomLength(b, off, off + n);
                }
                for (int i = from; i < off + n; i++) {
                    if (!scanner.step(b[i])) {
                        b[i] = ' ';
                    }
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                throw new IOException("skipping is not supported");
            }

            @Override
            public boolean markSupported() {
                return false;
            }
        };
    }

    /** One line of such a log (without its line break) with its prefix, or the whole line when it carries no export, overwritten with spaces. */
    static byte[] blankingLine(byte[] line) {
        byte[] out = line.clone();
        Scanner scanner = new Scanner();
        for (int i = bomLength(out, out.length); i < out.length; i++) {
            if (!scanner.step(out[i])) {
                out[i] = ' ';
            }
        }
        return out;
    }

    /** Follows a log byte by byte: which bytes belong to an export. */
    private static final class Scanner {
        private boolean inExport;
        private boolean blankSoFar = true;
        private int marker;
        /** Whether the last byte started an export. */
        boolean started;

        /** Whether {@code b}, the next byte, belongs to an export (line ends always do). */
        boolean step(byte b) {
            started = false;
            if (b == '\n') {
                inExport = false;
                blankSoFar = true;
                marker = 0;
                return true;
            }
            if (inExport) {
                return true;
            }
            if (b == '{' && (blankSoFar || marker == MARKER.length)) {
                inExport = true;
                started = true;
                return true;
            }
            if (b == '\r') {
                return true;
            }
            blankSoFar &= isBlank(b);
            if (marker < MARKER.length) {
                marker = b == MARKER[marker] ? marker + 1 : b == MARKER[0] ? 1 : 0;
            }
            return false;
        }
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    private static int bomLength(byte[] b, int length) {
        return bomLength(b, 0, length);
    }

    private static int bomLength(byte[] b, int from, int to) {
        return to - from >= 3 && (b[from] & 0xFF) == 0xEF && (b[from + 1] & 0xFF) == 0xBB && (b[from + 2] & 0xFF) == 0xBF
                ? 3 : 0;
    }
}
