package dev.retryaudit.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cut and corrupted OTLP and HAR files end in an input error or a clean read, never in another
 * exception (which the command line would report as an internal error).
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
}
