package dev.retryaudit.api.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operation linked apart from its parent gets the parent as {@link LinkedOperation#withParent} gives it; a
 * whole spans source read in one pass holds the operations, and meets the first error, of the command line; so
 * does a whole OTLP source, whose notes are the command line's too.
 */
class LineReaderTest {
    private static Operation linked() {
        return RetryAudit.operation("op-1", "charge").method("POST").at(Location.atLine("in.jsonl", 3))
                .attempt(1, a -> a.startedAt(Instant.parse("2026-01-01T00:00:00Z"))).build();
    }

    @Test
    void theParentIsSetAndTheRestKept() {
        Operation op = linked();
        Operation child = LineReader.withParent(op, "op-0", 2);
        assertThat(child.parentOperation()).isEqualTo("op-0");
        assertThat(child.parentAttempt()).isEqualTo(2);
        assertThat(child.id()).isEqualTo(op.id());
        assertThat(child.attempts()).isEqualTo(op.attempts());
        assertThat(child.location()).isEqualTo(op.location());
        assertThat(op.parentOperation()).isNull();
    }

    @Test
    void anOperationIsNotItsOwnParent() {
        Operation op = linked();
        assertThat(LineReader.withParent(op, "op-1", 1)).isSameAs(op);
        assertThatThrownBy(() -> LineReader.withParent(op, null, 1)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("operation");
    }

    /** The operations {@code reader} holds of source {@code source}, built. */
    private static List<Operation> built(LineReader reader, int source) throws RetryAuditException {
        List<Operation> out = new ArrayList<>();
        for (int g = 0; g < reader.held(source); g++) {
            out.add(reader.heldOperation(source, g));
        }
        return out;
    }

    @Test
    void aWholeSourceHoldsTheOperationsTheCommandLineReads() throws Exception {
        Path file = Path.of("src/test/resources/report/inputs/seed-retry-wrote-twice.jsonl");
        LineReader reader = LineReader.spans(Limits.DEFAULTS);
        for (int source : new int[] {0, 2}) {
            try (InputStream in = Files.newInputStream(file)) {
                reader.holdSource("in.jsonl", source, in);
            }
        }
        List<Operation> expected = RetryAudit.defaults().read(AuditInput.file(file, "in.jsonl"));
        assertThat(built(reader, 0)).isEqualTo(expected).isNotEmpty();
        for (int g = 0; g < expected.size(); g++) {
            assertThat(reader.heldFirstLine(0, g)).isEqualTo(expected.get(g).location().line());
        }
        assertThat(built(reader, 2)).extracting(op -> op.location().sourceIndex()).containsOnly(2);
    }

    @Test
    void aWholeSourceThrowsTheFirstErrorOfItsLinesAndHoldsNothing(@TempDir Path dir) throws Exception {
        String text = "\n{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1}\n{\"operation_id\":\"b\",\"tool\":7}\n"
                + "{\"nope\":1}\n";
        LineReader reader = LineReader.spans(Limits.DEFAULTS);
        Path file = Files.writeString(dir.resolve("bad.jsonl"), text);
        String expected = null;
        try {
            RetryAudit.defaults().read(AuditInput.file(file, "bad.jsonl"));
        } catch (RetryAuditException e) {
            expected = e.getMessage();
        }
        assertThat(expected).contains("bad.jsonl:3:");
        assertThatThrownBy(() -> reader.holdSource("bad.jsonl", 2,
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(RetryAuditException.class).hasMessage(expected);
        assertThat(reader.held(2)).isZero();
    }

    @Test
    void aSourceOfBlankLinesHoldsNoOperation() throws Exception {
        LineReader reader = LineReader.spans(Limits.DEFAULTS);
        reader.holdSource("blank.jsonl", 2, new ByteArrayInputStream("\n  \n".getBytes(StandardCharsets.UTF_8)));
        assertThat(reader.held(2)).isZero();
    }

    /** A line of OTLP/JSON Lines: an export of one trace of spans {@code spans}, each a JSON object. */
    private static String export(String trace, String... spans) {
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"svc\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"gen\"},\"spans\":["
                + String.join(",", spans).replace("TRACE", trace) + "]}]}]}";
    }

    /** An HTTP client span {@code id} of trace TRACE under span {@code parent}, started at second {@code at}. */
    private static String send(String id, String parent, int at, String attributes) {
        return "{\"traceId\":\"TRACE\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent + "\",\"name\":"
                + "\"POST\",\"kind\":3,\"startTimeUnixNano\":\"" + at + "000000000\",\"endTimeUnixNano\":\"" + at
                + "500000000\",\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"POST\"}},"
                + "{\"key\":\"url.full\",\"value\":{\"stringValue\":\"https://api.example/charge\"}}" + attributes + "]}";
    }

    /** Span id {@code n}: 16 hexadecimal digits. */
    private static String id(int n) {
        return String.format(java.util.Locale.ROOT, "%016x", n);
    }

    private static final String RESEND = ",{\"key\":\"http.request.resend_count\",\"value\":{\"intValue\":\"1\"}}";
    private static final String DUBBO = ",{\"key\":\"rpc.system\",\"value\":{\"stringValue\":\"dubbo\"}}";

    /** What {@code reader} hands on of source {@code file} (the {@code index}-th input), and the error it returns. */
    private record Read(List<Operation> operations, Optional<InputRejection> error) {
    }

    private static Read readSource(LineReader reader, Path file, int index) throws Exception {
        List<Operation> ops = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            Optional<InputRejection> error = reader.readSource(file.getFileName().toString(), index, in, ops::add);
            return new Read(ops, error);
        }
    }

    /** The command line's error on {@code file} read as OTLP. */
    private static String cliError(Path file) throws RetryAuditException {
        try {
            RetryAudit.of(dev.retryaudit.api.AuditSettings.builder().inputFormat(dev.retryaudit.model.InputFormat.OTLP)
                    .build()).read(AuditInput.file(file, file.getFileName().toString()));
        } catch (RetryAuditException e) {
            return e.getMessage();
        }
        throw new AssertionError("the command line reads " + file);
    }

    @Test
    void aWholeOtlpSourceHandsOnTheOperationsAndNotesOfTheCommandLine(@TempDir Path dir) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            String trace = String.format(java.util.Locale.ROOT, "%016x%016x", 7, i + 1);
            // a send and its resend under one parent, a span of a protocol not read, a resend of nothing
            text.append(export(trace, send(id(1000 + i), id(5000 + i), 10 * i, ""),
                    send(id(2000 + i), id(5000 + i), 10 * i + 1, RESEND), send(id(3000 + i), id(6000 + i), 10 * i + 2, DUBBO),
                    send(id(4000 + i), "", 10 * i + 3, RESEND)))
                    .append(i % 7 == 3 ? "\r\n" : "\n").append(i % 9 == 4 ? "\n" : "");
        }
        Path lines = Files.writeString(dir.resolve("calls.jsonl"), text.toString());
        Path single = Files.writeString(dir.resolve("one.json"),
                export("0000000000000000000000000000000a", send(id(1), id(9), 1, ""), send(id(2), id(9), 2, RESEND)) + "\n");
        Path log = Path.of("src/test/resources/input/otlp/logging-otlp.log");
        List<Path> files = List.of(lines, single, log);
        for (Path file : files) {
            LineReader reader = LineReader.otlp(Limits.DEFAULTS, file == log ? Set.of(0) : Set.of());
            Read read = readSource(reader, file, 0);
            assertThat(read.error()).isEmpty();
            List<Operation> expected = RetryAudit.defaults().read(AuditInput.file(file, file.getFileName().toString()));
            assertThat(read.operations()).isNotEmpty().isEqualTo(expected);
            SplitAudit split = SplitAudit.of(RetryAudit.defaults());
            var merged = split.merge(List.of(split.auditPart(read.operations(), reader)));
            var cli = RetryAudit.defaults().audit(AuditInput.file(file, file.getFileName().toString()));
            assertThat(merged.inputs().get(0).notes()).isEqualTo(cli.inputs().get(0).notes());
            assertThat(merged.findings()).isEqualTo(cli.findings());
        }
        assertThat(readSource(LineReader.otlp(Limits.DEFAULTS, Set.of()), single, 0).operations())
                .allSatisfy(op -> assertThat(op.location().pointer()).startsWith("/resourceSpans/0"));
    }

    @Test
    void aWholeOtlpSourceReturnsTheCommandLinesFirstErrorInItsPhase(@TempDir Path dir) throws Exception {
        String trace = "0000000000000000000000000000000b";
        String good = export(trace, send(id(1), id(9), 1, ""), send(id(2), id(9), 2, RESEND));
        // line 3: an unknown span kind, met while reading; a copy of line 1 with other content, at the end
        Path reading = Files.writeString(dir.resolve("reading.jsonl"), good + "\n\n"
                + good.replace("\"kind\":3", "\"kind\":\"SPAN_KIND_NONE\"") + "\n");
        Path atEnd = Files.writeString(dir.resolve("at-end.jsonl"), good + "\n" + good.replace("POST\",\"kind",
                "PUT\",\"kind") + "\n");
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n \n");
        RetryAuditException later = InputRejection.rejected("x.jsonl", 9, 1, "later");
        for (Path file : List.of(reading, atEnd, empty)) {
            LineReader reader = LineReader.otlp(Limits.DEFAULTS, Set.of());
            Read read = readSource(reader, file, 2);
            assertThat(read.error()).isPresent();
            assertThat(read.error().get().error()).hasMessage(cliError(file));
            // An error met while reading comes before any met at the end of its source, whatever its line.
            InputRejection readingLater = InputRejection.reading(2, later);
            assertThat(InputRejection.first(read.error().get(), readingLater))
                    .isSameAs(file == reading ? read.error().get() : readingLater);
        }
        assertThat(readSource(LineReader.otlp(Limits.DEFAULTS, Set.of()), reading, 2).operations()).isEmpty();
    }

    @Test
    void anExportOverSeveralLinesIsRejectedAsReadingALineAtATimeRejectsIt(@TempDir Path dir) throws Exception {
        String export = export("0000000000000000000000000000000c", send(id(1), id(9), 1, ""));
        Path file = Files.writeString(dir.resolve("pretty.json"), export.replace("\"scopeSpans\"", "\n\"scopeSpans\""));
        LineReader reader = LineReader.otlp(Limits.DEFAULTS, Set.of());
        String[] byLine = {null};
        try {
            reader.read("pretty.json", 0, 1, export.substring(0, export.indexOf("\"scopeSpans\"")).getBytes(StandardCharsets.UTF_8));
        } catch (RetryAuditException e) {
            byLine[0] = e.getMessage();
        }
        assertThat(byLine[0]).contains("pretty.json:1:1: ").contains("spans several");
        Read read = readSource(reader, file, 0);
        assertThat(read.error()).hasValueSatisfying(r -> assertThat(r.error()).hasMessage(byLine[0]));
        assertThatThrownBy(() -> LineReader.spans(Limits.DEFAULTS).readSource("a", 0, InputStream.nullInputStream(),
                op -> { })).isInstanceOf(IllegalStateException.class);
    }
}
