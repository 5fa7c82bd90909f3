package dev.retryaudit.input;

import dev.retryaudit.text.Escaping;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The compressions an input may come in (gzip, zstd), recognised by their magic bytes whatever the
 * file is called, and decompressed as the input is read: the readers, the limits and every line and
 * column see the decompressed text. A truncated or corrupt stream fails with a {@link CorruptException}
 * that names the compressed byte where decompression stopped, on that read and every later one.
 */
enum Compression {
    /** RFC 1952, one member or several one after another (as {@code cat a.gz b.gz} makes). */
    GZIP("gzip", new byte[] {0x1f, (byte) 0x8b, 0x08}, ".gz", ".gzip"),
    /** RFC 8878 frames, one or several; decoded by aircompressor's pure-Java decoder. */
    ZSTD("zstd", new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, ".zst", ".zstd");

    /** The most magic bytes a compression is recognised by. */
    private static final int MAGIC = 4;

    private final String id;
    private final byte[] magic;
    private final String[] extensions;

    Compression(String id, byte[] magic, String... extensions) {
        this.id = id;
        this.magic = magic;
        this.extensions = extensions;
    }

    /** The compression's name in messages. */
    String id() {
        return id;
    }

    /** Truncated or corrupt compressed data: the message names the compression and the compressed byte. */
    static final class CorruptException extends IOException {
        private static final long serialVersionUID = 1L;

        CorruptException(String message) {
            super(message);
        }
    }

    /**
     * The compression whose magic bytes {@code in} starts with, or null for an uncompressed input; the
     * bytes stay to be read.
     */
    static Compression of(BufferedInputStream in) throws IOException {
        in.mark(MAGIC);
        byte[] head;
        try {
            head = in.readNBytes(MAGIC);
        } finally {
            in.reset();
        }
        for (Compression c : values()) {
            if (startsWith(head, c.magic)) {
                return c;
            }
        }
        return null;
    }

    /** The name detection goes by: {@code name} without this compression's extension ({@code x.jsonl.gz} is {@code x.jsonl}). */
    String inner(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String e : extensions) {
            if (lower.endsWith(e) && lower.length() > e.length()) {
                return name.substring(0, name.length() - e.length());
            }
        }
        return name;
    }

    /** This JVM cannot decode the compression: the message says why. */
    static final class UnavailableException extends IOException {
        private static final long serialVersionUID = 1L;

        UnavailableException(String message) {
            super(message);
        }
    }

    /** The decompressed text of {@code in}, which starts with this compression's magic bytes. */
    InputStream decompress(InputStream in) throws UnavailableException {
        return switch (this) {
            case GZIP -> new GzipMembers(in);
            case ZSTD -> new Zstd(in);
        };
    }

    private static boolean startsWith(byte[] head, byte[] magic) {
        if (head.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if (head[i] != magic[i]) {
                return false;
            }
        }
        return true;
    }

    /** A failure of {@code c} after {@code offset} compressed bytes, worded once for both compressions. */
    static CorruptException corrupt(Compression c, long offset, boolean truncated, String why) {
        String detail = why == null || why.isBlank() ? "" : ": " + Escaping.shortened(why, 160);
        return new CorruptException(truncated
                ? "truncated " + c.id + " data: the compressed input ends at byte " + offset + detail
                : "corrupt " + c.id + " data at compressed byte " + offset + detail);
    }

    /**
     * A stream of decompressed text whose first failure is thrown again by every later read, so that a
     * reader that reads on after an error (or again, from where a parallel pass stopped) meets the same one.
     */
    abstract static class Decoder extends InputStream {
        private CorruptException failed;

        /** Decompresses up to {@code len} bytes into {@code b} at {@code off}; -1 at the end. */
        abstract int decode(byte[] b, int off, int len) throws IOException;

        @Override
        public final int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public final int read(byte[] b, int off, int len) throws IOException {
            if (failed != null) {
                throw failed;
            }
            if (len == 0) {
                return 0;
            }
            try {
                return decode(b, off, len);
            } catch (CorruptException e) {
                failed = e;
                throw e;
            }
        }
    }

    /**
     * The zstd decoder over a stream that counts the compressed bytes it hands on. The decoder reads
     * a block ahead, so a corrupt block is placed by the compressed bytes read when it was found.
     */
    private static final class Zstd extends Decoder {
        /** The largest window the decoder reads: zstd's levels up to 19 write no larger one. */
        private static final int MAX_WINDOW = 8 << 20;

        private final Counted counted;
        private final ZstdInputStream zstd;

        Zstd(InputStream in) throws UnavailableException {
            counted = new Counted(in);
            try {
                zstd = new ZstdInputStream(counted);
            } catch (LinkageError e) {
                // The decoder needs a little-endian platform and sun.misc.Unsafe; it says so when it loads.
                Throwable why = e.getCause() != null ? e.getCause() : e;
                throw new UnavailableException("zstd input cannot be decoded on this JVM: "
                        + Escaping.shortened(String.valueOf(why.getMessage()), 160));
            }
        }

        @Override
        int decode(byte[] b, int off, int len) throws CorruptException {
            try {
                return zstd.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                // The decoder throws IOException when the input ends early, MalformedInputException (and
                // for some malformed frame headers other runtime exceptions) when it is corrupt.
                String why = String.valueOf(e.getMessage()).replaceFirst(":? ?offset=-?\\d+$", "");
                if (why.startsWith("Window size too large") || e instanceof IllegalStateException
                        && why.contains("windowSize")) {
                    throw new CorruptException("unsupported zstd data at compressed byte " + counted.count
                            + ": a frame needs a window larger than " + (MAX_WINDOW >> 20) + " MiB (as zstd --long "
                            + "and --ultra write), which this decoder does not read; decompress it first, as in "
                            + "zstd -dc FILE | retry-audit audit -");
                }
                throw corrupt(ZSTD, counted.count, counted.ended, counted.ended ? null : why);
            }
        }

        @Override
        public void close() throws IOException {
            zstd.close();
        }
    }

    /** Counts the bytes read through it and whether the end was met. */
    private static final class Counted extends FilterInputStream {
        long count;
        boolean ended;

        Counted(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b < 0) {
                ended = true;
            } else {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n < 0) {
                ended = true;
            } else {
                count += n;
            }
            return n;
        }
    }
}
