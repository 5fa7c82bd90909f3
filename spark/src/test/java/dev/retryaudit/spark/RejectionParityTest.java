package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed inputs over one or two files: the Spark job rejects each with the command line's
 * diagnostic, the first the command line meets, with its source, line and column.
 */
class RejectionParityTest {
    private static final String OK = "{\"operation_id\":\"%s\",\"tool\":\"t\",\"attempt_id\":%d}";

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        Limits d = Limits.DEFAULTS;
        return Stream.of(
                Arguments.of("unknown field after blank lines", d, List.of(
                        ok("a", 1) + "\n\n" + ok("a", 2),
                        "\n\n" + ok("b", 1) + "\n{\"operation_id\":\"b\",\"tool\":\"t\",\"attempt_id\":2,\"retry_reson\":\"x\"}\n")),
                Arguments.of("wrong type", d, List.of("{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":\"one\"}\n")),
                Arguments.of("duplicate operation id across files", d, List.of(
                        ok("x", 1) + "\n" + ok("a", 1) + "\n", "\n" + ok("b", 1) + "\n" + ok("a", 1) + "\n")),
                Arguments.of("attempts limit", new Limits(d.bytes(), d.operations(), 2, d.stringLength(), d.depth()),
                        List.of(ok("a", 1) + "\n" + ok("a", 2) + "\n" + ok("b", 1) + "\n" + ok("a", 3) + "\n")),
                Arguments.of("operations limit in one source", new Limits(d.bytes(), 3, 10, d.stringLength(), d.depth()),
                        List.of(ok("a", 1) + "\n" + ok("b", 1) + "\n" + ok("c", 1) + "\n" + ok("d", 1) + "\n")),
                Arguments.of("operations limit over the input set", new Limits(d.bytes(), 3, 10, d.stringLength(), d.depth()),
                        List.of(ok("a", 1) + "\n" + ok("b", 1) + "\n", ok("c", 1) + "\n" + ok("d", 1) + "\n")),
                Arguments.of("a source of blank lines only", d, List.of(ok("a", 1) + "\n", "\n\n  \n")),
                Arguments.of("fields that disagree", d, List.of(
                        ok("a", 1) + "\n" + ok("b", 1) + "\n{\"operation_id\":\"a\",\"tool\":\"u\",\"attempt_id\":2}\n")),
                Arguments.of("a check with no attempt", d, List.of(ok("a", 1) + "\n"
                        + "{\"type\":\"check\",\"operation_id\":\"c\",\"after_attempt\":1,\"result\":\"committed\"}\n")),
                Arguments.of("no tool on any line", d, List.of("{\"operation_id\":\"a\",\"attempt_id\":1}\n" + ok("b", 1) + "\n")),
                Arguments.of("a line error before an end-of-source error", d, List.of(
                        "{\"operation_id\":\"a\",\"attempt_id\":1}\n" + ok("b", 1) + "\n[1]\n")),
                Arguments.of("the first error is in the first file", d, List.of(
                        ok("a", 1) + "\n{\"operation_id\":\"b\",\"tool\":3,\"attempt_id\":1}\n", "{oops}\n")),
                Arguments.of("a span over two lines", d, List.of(ok("a", 1) + "\n{\"operation_id\":\"b\",\n\"tool\":\"t\",\"attempt_id\":1}\n")),
                Arguments.of("two values on one line", d, List.of(ok("a", 1) + " " + ok("b", 1) + "\n")),
                Arguments.of("no operation_id nor key", d, List.of("{\"tool\":\"t\",\"attempt_id\":1}\n")),
                Arguments.of("string limit", new Limits(d.bytes(), d.operations(), 10, 3, d.depth()), List.of(ok("abcd", 1) + "\n")),
                Arguments.of("byte limit", new Limits(100, d.operations(), 10, d.stringLength(), d.depth()),
                        List.of(ok("a", 1) + "\n", ok("b", 1) + "\n" + ok("b", 2) + "\n")),
                Arguments.of("not UTF-8", d, List.of("{\"operation_id\":\"a\u00ff\",\"tool\":\"t\",\"attempt_id\":1}\n")));
    }

    private static String ok(String id, int attempt) {
        return String.format(OK, id, attempt);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rejectedAsTheCommandLineRejects(String name, Limits limits, List<String> contents) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < contents.size(); i++) {
            Path f = dir.resolve("in-" + i + ".jsonl");
            byte[] bytes = contents.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (name.equals("not UTF-8")) {
                bytes = contents.get(i).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            }
            Files.write(f, bytes);
            files.add(f);
        }
        Parity.CliAnswer cli = Parity.assertSame(null, limits, files);
        assertThat(cli.exit()).as("the command line rejects it").isEqualTo(65);
    }
}
