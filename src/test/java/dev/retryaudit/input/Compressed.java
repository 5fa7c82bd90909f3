package dev.retryaudit.input;

import io.airlift.compress.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

/** Compresses test inputs as gzip (one member or several) and zstd (one frame or several). */
public final class Compressed {
    private Compressed() {
    }

    /** {@code text} as one gzip member. */
    public static byte[] gzip(byte[] text) {
        return compress(text, out -> new GZIPOutputStream(out, 1 << 16));
    }

    /** {@code text} as one zstd frame. */
    public static byte[] zstd(byte[] text) {
        return compress(text, ZstdOutputStream::new);
    }

    /** {@code text} cut into {@code parts} pieces, each compressed on its own and written one after another. */
    public static byte[] pieces(byte[] text, int parts, boolean zstd) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        int step = Math.max(1, text.length / parts);
        for (int from = 0; from < text.length; from += step) {
            byte[] piece = Arrays.copyOfRange(text, from, Math.min(text.length, from + step));
            all.writeBytes(zstd ? zstd(piece) : gzip(piece));
        }
        return all.toByteArray();
    }

    private interface Wrapper {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    private static byte[] compress(byte[] text, Wrapper wrapper) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = wrapper.wrap(bytes)) {
            out.write(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
