package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bytes of {@link Utf8Writer} are those of an {@link OutputStreamWriter} for UTF-8, whatever is written. */
class Utf8WriterTest {
    @Test
    void writesWhatAnOutputStreamWriterWrites() throws IOException {
        List<String> pieces = List.of("plain ascii", "caf\u00e9 \u00fc", "\u65e5\u672c", "\ud83d\ude00 emoji",
                "split \ud83d", "\ude00 pair", "lone \ud83d then text", "lone low \ude00", "\ud83d", "\ud83d",
                "x".repeat(20_000), "\u00e9".repeat(9_000), "tail\u0000\u007f\u0080\u07ff\u0800\uffff");
        assertSame(pieces, false);
        assertSame(pieces, true);
    }

    @Test
    void writesWhatAnOutputStreamWriterWritesForRandomText() throws IOException {
        Random random = new Random(13);
        char[] alphabet = {'a', 'Z', ' ', '<', '\n', '\u00e9', '\u07ff', '\u0800', '\u65e5', '\ud83d', '\ude00', '\udbff',
            '\udfff', '\u0000', '\u007f', '\u0080'};
        for (int round = 0; round < 200; round++) {
            List<String> pieces = new ArrayList<>();
            for (int p = random.nextInt(20); p >= 0; p--) {
                StringBuilder b = new StringBuilder();
                for (int n = random.nextInt(random.nextBoolean() ? 50 : 12_000); n > 0; n--) {
                    b.append(alphabet[random.nextInt(alphabet.length)]);
                }
                pieces.add(b.toString());
            }
            assertSame(pieces, round % 2 == 0);
        }
    }

    @Test
    void singleCharsAndArraysAndSlices() throws IOException {
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        ByteArrayOutputStream theirs = new ByteArrayOutputStream();
        for (Writer w : List.of(new Utf8Writer(ours), new OutputStreamWriter(theirs, StandardCharsets.UTF_8))) {
            w.write('a');
            w.write(0xe9);
            w.write(0xd83d);
            w.write(0xde00);
            w.write("\u00e9\ud83d\ude00xyz".toCharArray(), 1, 4);
            w.write("abc\u65e5def", 2, 3);
            w.flush();
        }
        assertThat(ours.toByteArray()).isEqualTo(theirs.toByteArray());
    }

    /** Writes {@code pieces} through both writers, flushing after each or only at the end, then closing. */
    private static void assertSame(List<String> pieces, boolean flushEach) throws IOException {
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        ByteArrayOutputStream theirs = new ByteArrayOutputStream();
        try (Writer a = new Utf8Writer(ours); Writer b = new OutputStreamWriter(theirs, StandardCharsets.UTF_8)) {
            for (String s : pieces) {
                a.write(s);
                b.write(s);
                if (flushEach) {
                    a.flush();
                    b.flush();
                    assertThat(ours.toByteArray()).isEqualTo(theirs.toByteArray());
                }
            }
        }
        assertThat(ours.toByteArray()).isEqualTo(theirs.toByteArray());
    }
}
