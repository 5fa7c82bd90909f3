package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.FormatDetector;
import dev.retryaudit.input.LargeDocuments;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A first document larger than the detection window is detected from what the window shows and read as
 * {@code --input-format} reads it, from a file and from a stream that cannot be read twice (stdin).
 */
class LargeFirstDocumentTest {
    @TempDir
    Path dir;

    static Stream<Arguments> documents() {
        return Stream.of(LargeDocuments.Shape.values()).flatMap(shape -> Stream.of(300 << 10, 1 << 20, 10 << 20)
                .map(size -> Arguments.of(shape, size)));
    }

    @ParameterizedTest(name = "{0} of {1} bytes")
    @MethodSource("documents")
    void isDetectedAndReadAsWithItsFormatNamed(LargeDocuments.Shape shape, int size) throws Exception {
        byte[] doc = LargeDocuments.of(shape, size);
        assertThat(doc.length).isGreaterThan(FormatDetector.HEAD_BYTES);
        Path file = dir.resolve("export.json");
        Files.write(file, doc);

        CliRunner.Result named = CliRunner.run("audit", "--input-format", shape.format, file.toString());
        assertThat(named.exit()).as(named.err()).isZero();
        assertThat(named.out()).contains("\"format\": \"" + shape.format + "\"");
        CliRunner.Result detected = CliRunner.run("audit", file.toString());
        assertThat(detected).isEqualTo(named);

        CliRunner.Result namedStdin = CliRunner.run(new ByteArrayInputStream(doc), "audit", "--input-format",
                shape.format, "-");
        assertThat(namedStdin.exit()).as(namedStdin.err()).isZero();
        CliRunner.Result detectedStdin = CliRunner.run(new ByteArrayInputStream(doc), "audit", "-");
        assertThat(detectedStdin).isEqualTo(namedStdin);
    }
}
