package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Valid messages pass through whole; the rest are answered here and never reach the SDK; the end is reported once. */
class MessageLinesTest {
    final ByteArrayOutputStream replies = new ByteArrayOutputStream();
    final List<String> notes = new ArrayList<>();
    final AtomicInteger ended = new AtomicInteger();

    InputStream lines(String input, int max) {
        MessageCheck check = new MessageCheck(new ObjectMapper().getFactory(), max, new Outbox(replies), notes::add);
        return new MessageLines(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), max, check,
                ended::incrementAndGet);
    }

    @Test
    void onlyValidMessagesReachTheTransportWithoutCarriageReturns() throws IOException {
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}";
        String input = init + "\r\n" + "{\"id\":2,\"x\":\"" + "y".repeat(100) + "\"}\n" + "garbage\n\n   \n"
                + "{\"jsonrpc\":\"2.0\",\r\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}";
        InputStream in = lines(input, 100);
        String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        assertThat(out).isEqualTo(init + " \n{\"jsonrpc\":\"2.0\", \"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}\n");
        assertThat(replies.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: a message of 115 "
                        + "bytes, more than the 100 one message may hold; give a large trace to audit_trace as 'path'\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: Unrecognized token "
                        + "'garbage': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false') "
                        + "(column 1)\"}}");
        assertThat(notes).containsExactly("dropped a message of 115 bytes, more than the 100 one message may hold; "
                + "give a large trace to audit_trace as 'path'");
        assertThat(ended.get()).isEqualTo(1);
        assertThat(in.read()).isEqualTo(-1);
        assertThat(ended.get()).isEqualTo(1);
    }

    @Test
    void aFailedReadEndsTheServer() {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("gone");
            }
        };
        MessageCheck check = new MessageCheck(new ObjectMapper().getFactory(), 50, new Outbox(replies), notes::add);
        InputStream lines = new MessageLines(failing, 50, check, ended::incrementAndGet);
        assertThatThrownBy(lines::read).hasMessage("gone");
        assertThat(ended.get()).isEqualTo(1);
    }
}
