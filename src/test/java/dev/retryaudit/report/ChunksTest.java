package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Chunks rendered on several threads come out in list order, as one thread would write them. */
class ChunksTest {
    private static final Chunks.Renderer<Integer> NUMBERED = (chunk, first, out) -> {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < chunk.size(); i++) {
            b.append(first + i).append('=').append(chunk.get(i)).append('\n');
        }
        out.write(b.toString().getBytes(StandardCharsets.UTF_8));
    };

    private static String write(List<Integer> items, int size, int threads, Chunks.Renderer<Integer> r)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Chunks.write(items, size, threads, r, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyChunkSizeAndThreadCountWritesTheBytesOfOneThread() throws IOException {
        List<Integer> items = IntStream.range(0, 1000).map(i -> i * 7).boxed().toList();
        String one = write(items, Integer.MAX_VALUE, 1, NUMBERED);
        assertThat(one.lines()).hasSize(1000).startsWith("0=0", "1=7").endsWith("999=6993");
        for (int size : new int[] {1, 3, 64, 999, 1000}) {
            for (int threads : new int[] {2, 3, 8}) {
                assertThat(write(items, size, threads, NUMBERED)).as("size %d, %d threads", size, threads)
                        .isEqualTo(one);
            }
        }
        assertThat(write(List.of(), 4, 2, NUMBERED)).isEmpty();
    }

    @Test
    void aRenderersFailureReachesTheCallerAsItWasThrown() {
        List<Integer> items = IntStream.range(0, 100).boxed().toList();
        Chunks.Renderer<Integer> failsAt50 = (chunk, first, out) -> {
            if (chunk.contains(50)) {
                throw new IOException("disk full at " + first);
            }
            NUMBERED.render(chunk, first, out);
        };
        assertThatThrownBy(() -> write(items, 10, 2, failsAt50)).isInstanceOf(IOException.class)
                .hasMessage("disk full at 50");
        Chunks.Renderer<Integer> bug = (chunk, first, out) -> {
            throw new IllegalStateException("bug in chunk " + first);
        };
        assertThatThrownBy(() -> write(items, 10, 2, bug)).isInstanceOf(IllegalStateException.class)
                .hasMessage("bug in chunk 0");
    }

    @Test
    void aWriteThatFailsStopsTheRendering() {
        List<Integer> items = IntStream.range(0, 100).boxed().toList();
        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("closed");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("closed");
            }
        };
        assertThatThrownBy(() -> Chunks.write(items, 10, 2, NUMBERED, closed)).isInstanceOf(IOException.class)
                .hasMessage("closed");
    }
}
