package dev.retryaudit.input;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The decompressed text of a gzip stream of one member or several in a row (RFC 1952), inflated by the
 * JDK's {@link Inflater} and checked against each member's CRC-32 and length. {@code GZIPInputStream}
 * is not used: it looks for a next member only when the stream reports bytes {@code available()},
 * which a pipe may not, and it takes bytes after the last member for the end; here a next member is
 * read whenever bytes follow, and bytes that are not one are an error. Every failure names the
 * compressed byte where it was found.
 */
final class GzipMembers extends Compression.Decoder {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    private static final int RESERVED = 0xE0;

    private final InputStream in;
    private final byte[] buf = new byte[1 << 16];
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    /** Compressed bytes before {@code buf[0]}. */
    private long before;
    private int pos;
    private int limit;
    private boolean inMember;
    private boolean ended;
    private long members;

    GzipMembers(InputStream in) {
        this.in = in;
    }

    @Override
    int decode(byte[] b, int off, int len) throws IOException {
        return inflate(b, off, len);
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        while (!ended) {
            if (!inMember && !header()) {
                ended = true;
                break;
            }
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw corrupt(consumed(), e.getMessage());
            }
            if (n > 0) {
                crc.update(b, off, n);
                return n;
            }
            if (inflater.finished()) {
                pos = limit - inflater.getRemaining();
                trailer();
            } else if (inflater.needsDictionary()) {
                throw corrupt(consumed(), "a deflate stream that needs a preset dictionary");
            } else if (inflater.needsInput()) {
                if (pos == limit && !fill()) {
                    throw truncated();
                }
                inflater.setInput(buf, pos, limit - pos);
                pos = limit;
            } else {
                throw corrupt(consumed(), "the deflate stream stopped");
            }
        }
        return -1;
    }

    /** Reads a member's header; false at the end of the stream after a member. */
    private boolean header() throws IOException {
        if (pos == limit && !fill()) {
            return false;
        }
        long at = before + pos;
        if (next() != 0x1f || next() != 0x8b) {
            throw corrupt(at, members == 0 ? "not gzip data" : "bytes after the last gzip member that are not one");
        }
        if (next() != 8) {
            throw corrupt(at + 2, "unknown compression method (deflate is the only one)");
        }
        int flags = next();
        if ((flags & RESERVED) != 0) {
            throw corrupt(at + 3, "reserved header flags are set");
        }
        for (int i = 0; i < 6; i++) {
            next();
        }
        if ((flags & FEXTRA) != 0) {
            int length = next() | next() << 8;
            for (int i = 0; i < length; i++) {
                next();
            }
        }
        if ((flags & FNAME) != 0) {
            while (next() != 0) {
                // The original file name: not used.
            }
        }
        if ((flags & FCOMMENT) != 0) {
            while (next() != 0) {
                // A comment: not used.
            }
        }
        if ((flags & FHCRC) != 0) {
            next();
            next();
        }
        inflater.reset();
        crc.reset();
        inMember = true;
        members++;
        return true;
    }

    /** Reads and checks a member's trailer: the CRC-32 and the length (mod 2^32) of its text. */
    private void trailer() throws IOException {
        long at = before + pos;
        long expected = word();
        long size = word();
        if (expected != crc.getValue()) {
            throw corrupt(at, "the CRC-32 of a gzip member does not match its data");
        }
        if (size != (inflater.getBytesWritten() & 0xFFFF_FFFFL)) {
            throw corrupt(at + 4, "the length of a gzip member does not match its data");
        }
        inMember = false;
    }

    private long word() throws IOException {
        return next() | next() << 8 | next() << 16 | (long) next() << 24;
    }

    private int next() throws IOException {
        if (pos == limit && !fill()) {
            throw truncated();
        }
        return buf[pos++] & 0xFF;
    }

    /** Reads more compressed bytes into the buffer, all of which have been used; false at the end. */
    private boolean fill() throws IOException {
        before += limit;
        pos = 0;
        limit = 0;
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        limit = Math.max(n, 0);
        return n > 0;
    }

    /** The compressed bytes the inflater has used so far. */
    private long consumed() {
        return before + limit - inflater.getRemaining();
    }

    private Compression.CorruptException truncated() {
        return Compression.corrupt(Compression.GZIP, before + limit, true, null);
    }

    private static Compression.CorruptException corrupt(long offset, String why) {
        return Compression.corrupt(Compression.GZIP, offset, false, why);
    }

    @Override
    public void close() {
        // The compressed stream is the caller's to close.
        inflater.end();
    }
}
