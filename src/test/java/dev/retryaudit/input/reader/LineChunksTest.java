package dev.retryaudit.input.reader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cutting a stream into chunks of whole lines, and the rest of it for a one-pass reader. */
class LineChunksTest {
    private static LineChunks chunks(String text, int size) {
        return new LineChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size);
    }

    private static List<String> all(LineChunks chunks) throws IOException {
        List<String> out = new ArrayList<>();
        for (LineChunks.Chunk c; (c = chunks.next()) != null; ) {
            out.add(c.firstLine() + ":" + new String(c.bytes(), 0, c.length(), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void chunksEndAfterANewlineAndKnowTheirFirstLine() throws IOException {
        assertThat(all(chunks("aa\nbb\ncc\ndd", 4))).containsExactly("1:aa\n", "2:bb\n", "3:cc\n", "4:dd");
        assertThat(all(chunks("aa\nbb\ncc\n", 7))).containsExactly("1:aa\nbb\n", "3:cc\n");
    }

    @Test
    void aLineLongerThanAChunkIsOneChunk() throws IOException {
        // The chunk grows until a newline comes, and takes every whole line read by then.
        assertThat(all(chunks("a\n" + "x".repeat(50) + "\nb\n", 8)))
                .containsExactly("1:a\n", "2:" + "x".repeat(50) + "\nb\n");
    }

    @Test
    void linesCountAsTheParserCountsThem() throws IOException {
        // CR LF is one line break, a lone CR is one: the chunk after "a\rb\r\nc\n" starts on line 4.
        assertThat(all(chunks("a\rb\r\nc\nd\n", 7))).containsExactly("1:a\rb\r\nc\n", "4:d\n");
    }

    @Test
    void aRecycledBufferIsFilledAgainWithTheNextLines() throws IOException {
        LineChunks c = chunks("aa\nbb\n" + "x".repeat(20) + "\ncc\n", 4);
        LineChunks.Chunk first = c.next();
        assertThat(new String(first.bytes(), 0, first.length(), StandardCharsets.UTF_8)).isEqualTo("aa\n");
        c.recycle(first);
        LineChunks.Chunk second = c.next();
        assertThat(second.bytes()).isSameAs(first.bytes());
        assertThat(second.firstLine() + ":" + new String(second.bytes(), 0, second.length(), StandardCharsets.UTF_8))
                .isEqualTo("2:bb\n");
        c.recycle(second);
        // A line longer than the buffer grows a new one, which takes every whole line read by then.
        assertThat(all(c)).containsExactly("3:" + "x".repeat(20) + "\ncc\n");
    }

    @Test
    void anEmptyStreamHasNoChunks() throws IOException {
        LineChunks c = chunks("", 8);
        assertThat(c.next()).isNull();
        assertThat(c.ended()).isTrue();
    }

    @Test
    void theRestStartsAtTheFirstChunkNotParsedAfterAsManyLineBreaks() throws IOException {
        LineChunks c = chunks("a\nb\nc\nd\n", 2);
        c.next();
        LineChunks.Chunk second = c.next();
        LineChunks.Chunk third = c.next();
        String rest = new String(c.rest(List.of(second, third)).readAllBytes(), StandardCharsets.UTF_8);
        assertThat(rest).isEqualTo("\nb\nc\nd\n");
    }

    @Test
    void aFailedReadIsRepeatedByTheRestAfterTheBytesReadBeforeIt() throws IOException {
        InputStream failing = new InputStream() {
            private int left = 6;

            @Override
            public int read() throws IOException {
                if (left-- > 0) {
                    return left == 2 ? '\n' : 'x';
                }
                throw new IOException("disk gone");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left <= 0) {
                    throw new IOException("disk gone");
                }
                b[off] = (byte) read();
                return 1;
            }
        };
        LineChunks c = new LineChunks(failing, 4);
        assertThat(new String(c.next().bytes(), 0, 4, StandardCharsets.UTF_8)).isEqualTo("xxx\n");
        assertThatThrownBy(c::next).hasMessage("disk gone");
        InputStream rest = c.rest(List.of());
        assertThat(rest.read()).isEqualTo('\n');
        assertThat(rest.read()).isEqualTo('x');
        assertThat(rest.read()).isEqualTo('x');
        assertThatThrownBy(rest::read).hasMessage("disk gone");
    }
}
