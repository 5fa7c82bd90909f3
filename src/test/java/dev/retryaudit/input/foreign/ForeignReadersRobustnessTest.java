package dev.retryaudit.input.foreign;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cut and corrupted foreign files (OTLP and its variants, HAR, Zipkin, Jaeger, the curl diagnostic)
 * end in an input error or a clean read, never in another exception (which the command line would
 * report as an internal error).
 */
class ForeignReadersRobustnessTest {
    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ForeignReadersRobustnessTest.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    /** Reads {@code bytes}; true when they were rejected as input, false when they were read. */
    private static boolean rejected(InputFormat format, byte[] bytes, int length) {
        try {
            Inputs.read(InputSet.STDIN, new ByteArrayInputStream(bytes, 0, length), format, Limits.DEFAULTS);
            return false;
        } catch (InputException e) {
            assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
            assertThat(e.line()).isPositive();
            return true;
        }
    }

    @ParameterizedTest
    @CsvSource({"/input/otlp/agent-checkout.json, OTLP", "/input/har/checkout.har, HAR",
        "/input/otlp/agent-checkout.json, AUTO", "/input/har/checkout.har, AUTO"})
    void everyCutIsAnInputError(String name, InputFormat format) throws IOException {
        byte[] whole = resource(name);
        int trailingWhitespace = 1;
        for (int length = 0; length < whole.length - trailingWhitespace; length += 5) {
            assertThat(rejected(format, whole, length)).as("cut at %d", length).isTrue();
        }
        assertThat(rejected(format, whole, whole.length)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"/input/otlp/agent-checkout.json, OTLP", "/input/har/checkout.har, HAR"})
    void corruptedBytesNeverCrashTheReader(String name, InputFormat format) throws IOException {
        byte[] whole = resource(name);
        Random random = new Random(42);
        byte[] replacements = "0aF\"{}[]:,-1.e \u0000\u00ff".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        for (int i = 0; i < 2000; i++) {
            byte[] bytes = whole.clone();
            for (int k = 0; k < 1 + random.nextInt(3); k++) {
                bytes[random.nextInt(bytes.length)] = replacements[random.nextInt(replacements.length)];
            }
            rejected(format, bytes, bytes.length);
        }
    }

    @ParameterizedTest
    @CsvSource({"/input/zipkin/retry-429-early.json, ZIPKIN", "/input/zipkin/retry-429-early.json, AUTO",
        "/input/jaeger/retry-429-early.json, JAEGER", "/input/otlp/jaeger-v3-result.json, OTLP",
        "/input/otlp/protobuf-json.json, AUTO", "/retry-trace/local-curl-diagnostic.json, RETRY_TRACE"})
    void everyCutOfANewFormatIsAnInputError(String name, InputFormat format) throws IOException {
        byte[] whole = resource(name);
        for (int length = 0; length < whole.length - 1; length++) {
            assertThat(rejected(format, whole, length)).as("cut at %d", length).isTrue();
        }
        assertThat(rejected(format, whole, whole.length)).isFalse();
    }

    /**
     * A cut of a file of lines may leave whole records, which read: it must be rejected unless it
     * ends a line or leaves of its last line no record (a log line, or the prefix of one).
     */
    @ParameterizedTest
    @CsvSource({"/input/zipkin/retry-429-early.jsonl, ZIPKIN", "/input/otlp/logging-otlp.log, OTLP",
        "/input/otlp/logging-otlp.log, AUTO"})
    void everyCutOfALineFormatIsAnInputErrorOrWholeRecords(String name, InputFormat format) throws IOException {
        byte[] whole = resource(name);
        int read = 0;
        for (int length = 0; length < whole.length; length++) {
            int lineStart = length;
            while (lineStart > 0 && whole[lineStart - 1] != '\n') {
                lineStart--;
            }
            boolean record = new String(whole, lineStart, length - lineStart, StandardCharsets.UTF_8).contains("{");
            boolean mayRead = !record || length == whole.length || whole[length] == '\n';
            boolean rejected = rejected(format, whole, length);
            if (!mayRead) {
                assertThat(rejected).as("cut at %d", length).isTrue();
            }
            read += rejected ? 0 : 1;
        }
        assertThat(read).as("cuts read as whole records").isPositive();
    }

    @ParameterizedTest
    @CsvSource({"/input/zipkin/retry-429-early.json, ZIPKIN", "/input/zipkin/retry-429-early.jsonl, ZIPKIN",
        "/input/jaeger/retry-429-early.json, JAEGER", "/input/otlp/jaeger-v3-result.json, OTLP",
        "/input/otlp/protobuf-json.json, OTLP", "/input/otlp/logging-otlp.log, OTLP",
        "/retry-trace/local-curl-diagnostic.json, RETRY_TRACE"})
    void thousandsOfCorruptionsOfANewFormatNeverCrashTheReader(String name, InputFormat format) throws IOException {
        byte[] whole = resource(name);
        Random random = new Random(name.hashCode());
        byte[] replacements = "0aF\"{}[]:,-1.e \u0000\u00ff\n=/+".getBytes(StandardCharsets.ISO_8859_1);
        int rejected = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] bytes = whole.clone();
            for (int k = 0; k < 1 + random.nextInt(3); k++) {
                bytes[random.nextInt(bytes.length)] = replacements[random.nextInt(replacements.length)];
            }
            rejected += rejected(format, bytes, bytes.length) ? 1 : 0;
        }
        assertThat(rejected).as("corruptions rejected").isPositive();
    }
}
