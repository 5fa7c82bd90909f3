package dev.retryaudit.input;

import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Each input limit stops reading where it is passed, names the limit and the flag that raises it. */
class LimitsTest {
    private static final String LINE = "{\"operation_id\":\"op-%d\",\"tool\":\"t\",\"attempt_id\":1}\n";

    /** An endless JSON Lines stream that counts what was read from it. */
    static final class Endless extends InputStream {
        long served;
        private byte[] current = new byte[0];
        private int pos;
        private int n;

        @Override
        public int read() {
            if (pos == current.length) {
                current = String.format(LINE, n++).getBytes(StandardCharsets.UTF_8);
                pos = 0;
            }
            served++;
            return current[pos++];
        }

        @Override
        public int read(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++) {
                b[off + i] = (byte) read();
            }
            return len;
        }
    }

    @Test
    void endlessStdinStopsAtTheByteLimit() {
        Endless endless = new Endless();
        Limits limits = new Limits(1_000_000, 5_000_000, 10_000, 65_536, 64);
        InputException e = assertThrows(InputException.class,
                () -> Inputs.read("<stdin>", endless, InputFormat.SPANS, limits));
        assertThat(e.detail()).isEqualTo("input exceeds the byte limit: more than 1000000 bytes read");
        assertThat(e.limit()).isEqualTo(Limit.BYTES);
        assertThat(e.line()).isGreaterThan(10_000);
        assertThat(endless.served).isLessThan(1_200_000);
    }

    @Test
    void operationsLimit() {
        Limits limits = new Limits(1L << 30, 2, 10_000, 65_536, 64);
        String three = String.format(LINE, 1) + String.format(LINE, 2) + String.format(LINE, 3);
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", three, InputFormat.AUTO, limits));
        assertThat(e.diagnostic()).isEqualTo("s.jsonl:3:1: error: $: more than 2 operations, the operations limit");
        assertThat(e.limit()).isEqualTo(Limit.OPERATIONS);
    }

    @Test
    void attemptsLimitInBothFormats() {
        Limits limits = new Limits(1L << 30, 10, 2, 65_536, 64);
        String ops = "{\"version\":1,\"operations\":[{\"id\":\"a\",\"tool\":\"t\",\"attempts\":[{\"attempt_id\":1},{\"attempt_id\":2},{\"attempt_id\":3}]}]}";
        InputException e = assertThrows(InputException.class, () -> Inputs.read("o.json", ops, InputFormat.AUTO, limits));
        assertThat(e.diagnostic()).isEqualTo("o.json:1:95: error: $.operations[0].attempts[2]: operation has more than 2 attempts, the attempts-per-operation limit");
        assertThat(e.limit()).isEqualTo(Limit.ATTEMPTS);
        String spans = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1}\n".repeat(1)
                + "{\"operation_id\":\"a\",\"attempt_id\":2}\n{\"operation_id\":\"a\",\"attempt_id\":3}\n";
        e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", spans, InputFormat.AUTO, limits));
        assertThat(e.diagnostic()).startsWith("s.jsonl:3:1: error: $: operation has more than 2 attempts");
        assertThat(e.limit()).isEqualTo(Limit.ATTEMPTS);
    }

    @Test
    void stringLimit() {
        Limits limits = new Limits(1L << 30, 10, 10, 100, 64);
        String line = "{\"operation_id\":\"a\",\"tool\":\"" + "x".repeat(5000) + "\",\"attempt_id\":1}\n";
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", line, InputFormat.SPANS, limits));
        assertThat(e.diagnostic()).startsWith("s.jsonl:1:").endsWith("exceeds the string limit").doesNotContain("--limit");
        assertThat(e.limit()).isEqualTo(Limit.STRING);
    }

    @Test
    void depthLimit() {
        Limits limits = new Limits(1L << 30, 10, 10, 65_536, 5);
        String line = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,\"attributes\":{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":1}}}}}}\n";
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", line, InputFormat.SPANS, limits));
        assertThat(e.diagnostic()).startsWith("s.jsonl:1:")
                .endsWith("input nests deeper than the depth limit of 5 (depth 6 reached)");
        assertThat(e.limit()).isEqualTo(Limit.DEPTH);
    }

    @Test
    void depthIsHonouredUpToTheLargestLimit() throws Exception {
        Limits limits = new Limits(1L << 30, 10, 10, 65_536, Limits.MAX_DEPTH);
        String nested = "{\"a\":".repeat(Limits.MAX_DEPTH - 1) + "1" + "}".repeat(Limits.MAX_DEPTH - 1);
        String line = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,\"attributes\":" + nested + "}\n";
        assertThat(Inputs.read("s.jsonl", line, InputFormat.SPANS, limits)).hasSize(1);
        String deeper = line.replace("\"attributes\":", "\"attributes\":{\"b\":").replace("}\n", "}}\n");
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", deeper, InputFormat.SPANS, limits));
        assertThat(e.detail()).startsWith("input nests deeper than the depth limit of 1000 (depth 1001 reached");
        assertThrows(IllegalArgumentException.class, () -> new Limits(1L << 30, 10, 10, 65_536, Limits.MAX_DEPTH + 1));
    }

    @Test
    void theStringLimitCountsCharactersNotUtf16Units() throws Exception {
        Limits limits = new Limits(1L << 30, 10, 10, 100, 64);
        String emoji = "\ud83d\ude00";
        String fits = "{\"operation_id\":\"a\",\"tool\":\"" + emoji.repeat(100) + "\",\"attempt_id\":1}\n";
        assertThat(Inputs.read("s.jsonl", fits, InputFormat.SPANS, limits)).hasSize(1);
        String over = fits.replace(emoji.repeat(100), emoji.repeat(50) + "x".repeat(51));
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", over, InputFormat.SPANS, limits));
        assertThat(e.detail()).isEqualTo("a string of 101 characters exceeds the string limit of 100");
        assertThat(e.limit()).isEqualTo(Limit.STRING);
        String far = fits.replace(emoji.repeat(100), "x".repeat(300));
        e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", far, InputFormat.SPANS, limits));
        assertThat(e.detail()).isEqualTo("a string of more than 100 characters exceeds the string limit");
        assertThat(e.limit()).isEqualTo(Limit.STRING);
    }

    @Test
    void fieldNamesAreLimitedSeparatelyFromStrings() throws Exception {
        Limits limits = new Limits(1L << 30, 10, 10, 3, 64);
        String shortValues = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1}\n";
        assertThat(Inputs.read("s.jsonl", shortValues, InputFormat.SPANS, limits)).hasSize(1);
        String longName = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,\"attributes\":{\""
                + "k".repeat(Limits.MIN_NAME_LENGTH + 1) + "\":1}}\n";
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", longName, InputFormat.SPANS, limits));
        assertThat(e.detail()).isEqualTo("a field name of more than 1024 characters exceeds the limit on names "
                + "(the string limit, at least 1024)");
        assertThat(e.limit()).isEqualTo(Limit.STRING);
    }

    @Test
    void theByteLimitPointsAtTheFirstByteItRefused() {
        Limits limits = new Limits(30, 10, 10, 65_536, 64);
        String two = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1}\n{\"operation_id\":\"b\"}\n";
        InputException e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", two, InputFormat.SPANS, limits));
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.column()).isEqualTo(31);
        assertThat(e.limit()).isEqualTo(Limit.BYTES);
        Limits longer = new Limits(60, 10, 10, 65_536, 64);
        e = assertThrows(InputException.class, () -> Inputs.read("s.jsonl", two, InputFormat.SPANS, longer));
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(60 - two.indexOf('\n'));
    }
}
