package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Messages pass through whole; one too long is replaced by the stand-in; the end is reported once. */
class MessageLinesTest {
    @Test
    void aTooLongMessageIsReplacedAndTheNextOnePasses() throws IOException {
        String input = "{\"id\":1}\n" + "{\"id\":2,\"x\":\"" + "y".repeat(100) + "\"}\n" + "{\"id\":3}\n" + "{\"id\":4}";
        List<Long> dropped = new ArrayList<>();
        AtomicInteger ended = new AtomicInteger();
        InputStream lines = new MessageLines(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), 50,
                dropped::add, ended::incrementAndGet);
        String out = new String(lines.readAllBytes(), StandardCharsets.UTF_8);
        assertThat(out).isEqualTo("{\"id\":1}\n" + MessageLines.STAND_IN + "{\"id\":3}\n{\"id\":4}");
        assertThat(dropped).containsExactly(116L);
        assertThat(ended.get()).isEqualTo(1);
        assertThat(lines.read()).isEqualTo(-1);
        assertThat(ended.get()).isEqualTo(1);
    }

    @Test
    void aFailedReadEndsTheServer() {
        AtomicInteger ended = new AtomicInteger();
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("gone");
            }
        };
        InputStream lines = new MessageLines(failing, 50, n -> { }, ended::incrementAndGet);
        org.assertj.core.api.Assertions.assertThatThrownBy(lines::read).hasMessage("gone");
        assertThat(ended.get()).isEqualTo(1);
    }
}
