package dev.retryaudit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.spi.ToolProvider;

/**
 * The command line in-process for other JVM tools ({@code ToolProvider.findFirst("retry-audit")}):
 * the same commands, output and exit codes as the jar, with no standard input (a "-" reads nothing).
 */
public final class RetryAuditToolProvider implements ToolProvider {
    @Override
    public String name() {
        return VersionInfo.NAME;
    }

    @Override
    public int run(PrintWriter out, PrintWriter err, String... args) {
        try (Utf8Writer stdout = new Utf8Writer(out); Utf8Writer stderr = new Utf8Writer(err)) {
            return Main.run(args, InputStream.nullInputStream(), stdout, stderr);
        }
    }

    /** The bytes the tool prints, decoded as UTF-8 onto a writer; a character split across writes is kept whole. */
    private static final class Utf8Writer extends OutputStream {
        private final Writer target;
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        private final ByteBuffer pending = ByteBuffer.allocate(8192);
        private final CharBuffer chars = CharBuffer.allocate(8192);

        Utf8Writer(Writer target) {
            this.target = target;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                int n = Math.min(len, pending.remaining());
                pending.put(b, off, n);
                off += n;
                len -= n;
                decode(false);
            }
        }

        @Override
        public void flush() {
            drain();
            try {
                target.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            decode(true);
            decoder.flush(chars);
            flush();
        }

        private void decode(boolean end) {
            pending.flip();
            while (decoder.decode(pending, chars, end).isOverflow()) {
                drain();
            }
            pending.compact();
            drain();
        }

        private void drain() {
            chars.flip();
            try {
                target.write(chars.array(), chars.position(), chars.remaining());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            chars.clear();
        }
    }
}
