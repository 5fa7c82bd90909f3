package dev.retryaudit.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** gzip and zstd recognised by their magic bytes and decompressed, every header field and failure included. */
class CompressionTest {
    private static final byte[] TEXT = "{\"a\": 1}\n{\"b\": 2}\n".repeat(5_000).getBytes(StandardCharsets.UTF_8);

    private static Compression of(byte[] bytes) throws IOException {
        BufferedInputStream in = new BufferedInputStream(new ByteArrayInputStream(bytes));
        Compression c = Compression.of(in);
        assertThat(in.readAllBytes()).as("the magic bytes stay to be read").isEqualTo(bytes);
        return c;
    }

    /** All that {@code c} decompresses from {@code bytes}, read through a stream that hands out one byte a read. */
    private static byte[] decompress(Compression c, byte[] bytes) throws IOException {
        InputStream oneByOne = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
        try (InputStream in = c.decompress(oneByOne)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theMagicBytesDecideNotTheName() throws IOException {
        assertThat(of(Compressed.gzip(TEXT))).isEqualTo(Compression.GZIP);
        assertThat(of(Compressed.zstd(TEXT))).isEqualTo(Compression.ZSTD);
        assertThat(of(TEXT)).isNull();
        assertThat(of(new byte[] {0x1f, (byte) 0x8b})).isNull();
        assertThat(of(new byte[0])).isNull();
    }

    @ParameterizedTest
    @CsvSource({"x.jsonl.gz,x.jsonl", "X.JSONL.GZ,X.JSONL", "x.har.gzip,x.har", "x.jsonl.zst,x.jsonl",
        "x.json.zstd,x.json", "x.gz,x", ".gz,.gz", "<stdin>,<stdin>", "x.jsonl,x.jsonl"})
    void theNameWithoutTheExtensionIsWhatDetectionSees(String name, String inner) {
        Compression c = name.toLowerCase().contains(".zst") ? Compression.ZSTD : Compression.GZIP;
        assertThat(c.inner(name)).isEqualTo(inner);
    }

    @Test
    void membersAndFramesOneAfterAnotherAreOneText() throws IOException {
        assertThat(decompress(Compression.GZIP, Compressed.pieces(TEXT, 9, false))).isEqualTo(TEXT);
        assertThat(decompress(Compression.ZSTD, Compressed.pieces(TEXT, 9, true))).isEqualTo(TEXT);
        byte[] empty = Compressed.gzip(new byte[0]);
        ByteArrayOutputStream withEmpty = new ByteArrayOutputStream();
        withEmpty.writeBytes(empty);
        withEmpty.writeBytes(Compressed.gzip(TEXT));
        withEmpty.writeBytes(empty);
        assertThat(decompress(Compression.GZIP, withEmpty.toByteArray())).isEqualTo(TEXT);
    }

    @Test
    void everyOptionalGzipHeaderFieldIsPassedOver() throws IOException {
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        // FHCRC, FEXTRA, FNAME and FCOMMENT set.
        header.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3});
        header.writeBytes(new byte[] {3, 0, 'a', 'b', 'c'});
        header.writeBytes("trace.jsonl\0".getBytes(StandardCharsets.ISO_8859_1));
        header.writeBytes("exported\0".getBytes(StandardCharsets.ISO_8859_1));
        header.writeBytes(new byte[] {0x12, 0x34});
        byte[] member = member(header.toByteArray(), TEXT, 0);
        assertThat(decompress(Compression.GZIP, member)).isEqualTo(TEXT);
    }

    @Test
    void aWrongChecksumOrLengthIsPlacedAtTheTrailer() {
        byte[] header = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
        byte[] badCrc = member(header, TEXT, 1);
        assertThatThrownBy(() -> decompress(Compression.GZIP, badCrc)).isInstanceOf(Compression.CorruptException.class)
                .hasMessage("corrupt gzip data at compressed byte " + (badCrc.length - 8)
                        + ": the CRC-32 of a gzip member does not match its data");
        byte[] badLength = member(header, TEXT, 0);
        badLength[badLength.length - 1] ^= 1;
        assertThatThrownBy(() -> decompress(Compression.GZIP, badLength))
                .hasMessage("corrupt gzip data at compressed byte " + (badLength.length - 4)
                        + ": the length of a gzip member does not match its data");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "3|4|corrupt gzip data at compressed byte 3: reserved header flags are set",
        "2|9|corrupt gzip data at compressed byte 2: unknown compression method (deflate is the only one)",
    })
    void aBadHeaderIsNamed(int at, int value, String message) {
        byte[] bad = Compressed.gzip(TEXT);
        bad[at] = (byte) (at == 3 ? 0x20 : value);
        assertThatThrownBy(() -> decompress(Compression.GZIP, bad)).hasMessage(message);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFailureIsThrownAgainByEveryLaterRead(boolean zstd) throws IOException {
        byte[] whole = zstd ? Compressed.zstd(TEXT) : Compressed.gzip(TEXT);
        Compression c = zstd ? Compression.ZSTD : Compression.GZIP;
        InputStream in = c.decompress(new ByteArrayInputStream(Arrays.copyOf(whole, whole.length - 3)));
        byte[] buf = new byte[1 << 16];
        IOException first = null;
        try {
            while (in.read(buf) >= 0) {
                // Read until the failure.
            }
        } catch (Compression.CorruptException e) {
            first = e;
        }
        assertThat(first).hasMessageStartingWith("truncated " + c.id() + " data: the compressed input ends at byte "
                + (whole.length - 3));
        IOException again = null;
        try {
            in.read(buf);
        } catch (Compression.CorruptException e) {
            again = e;
        }
        assertThat(again).isSameAs(first);
    }

    /** A gzip member of {@code text} after {@code header}, its CRC-32 off by {@code crcOff}. */
    private static byte[] member(byte[] header, byte[] text, int crcOff) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(text);
        d.finish();
        byte[] buf = new byte[text.length + 1024];
        int n = d.deflate(buf);
        d.end();
        CRC32 crc = new CRC32();
        crc.update(text);
        long v = crc.getValue() + crcOff;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header);
        out.write(buf, 0, n);
        out.writeBytes(new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)});
        int size = text.length;
        out.writeBytes(new byte[] {(byte) size, (byte) (size >> 8), (byte) (size >> 16), (byte) (size >> 24)});
        return out.toByteArray();
    }
}
