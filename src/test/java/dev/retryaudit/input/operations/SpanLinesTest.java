package dev.retryaudit.input.operations;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Span lines read one at a time build the operation that the spans reader builds from the whole file. */
class SpanLinesTest {
    private static final String[] LINES = {
        "{\"operation_id\":\"a\",\"attempt_id\":2,\"span_id\":\"s2\",\"retry_reason\":\"503\",\"idempotency_key\":\"k\"}",
        "",
        "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,\"span_id\":\"s1\",\"status\":503,\"retry_after\":\"2\","
                + "\"commit_state\":\"not_sent\",\"idempotency_key\":\"k\",\"parent_run_id\":\"r\"}",
        "{\"type\":\"check\",\"operation_id\":\"a\",\"after_attempt\":2,\"result\":\"committed\"}",
    };

    private static List<SpanLines.Text> texts() {
        List<SpanLines.Text> out = new ArrayList<>();
        for (int i = 0; i < LINES.length; i++) {
            out.add(new SpanLines.Text("s.jsonl", 0, i + 1, LINES[i].getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    /** Each line read once, blank ones left out, and the operation built from what was read. */
    private static Operation read(SpanLines lines, List<SpanLines.Text> texts) throws InputException {
        List<SpanLines.Read> read = new ArrayList<>();
        for (SpanLines.Text t : texts) {
            SpanLines.Read r = lines.read(t);
            if (r != null) {
                assertThat(r.key()).isEqualTo("operation_id:a");
                read.add(r);
            }
        }
        return lines.operation(read);
    }

    @Test
    void buildsTheOperationTheReaderBuilds() throws InputException {
        Operation whole = Inputs.read("s.jsonl", String.join("\n", LINES) + "\n").get(0);
        Operation fromLines = read(new SpanLines(Limits.DEFAULTS), texts());
        assertThat(fromLines).isEqualTo(whole);
        assertThat(fromLines.attempts()).extracting(a -> a.location().line()).containsExactly(3L, 1L);
        assertThat(fromLines.checks()).singleElement().satisfies(c -> assertThat(c.location().line()).isEqualTo(4));
    }

    @Test
    void aLineIsKeyedWithoutReadingItAsReadingKeysIt() throws InputException {
        SpanLines lines = new SpanLines(Limits.DEFAULTS);
        for (SpanLines.Text t : texts()) {
            SpanLines.Read read = lines.read(t);
            assertThat(lines.key(t)).isEqualTo(read == null ? null : read.key());
        }
        SpanLines.Text byKey = new SpanLines.Text("s.jsonl", 0, 1,
                "{\"attributes\":{\"operation_id\":\"x\"},\"operation_id\":null,\"idempotency_key\":\"k\",\"tool\":\"t\"}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(lines.key(byKey)).isEqualTo(lines.read(byKey).key()).isEqualTo("idempotency_key:k");
        // Lines that show no key: reading them rejects them.
        for (String bad : List.of("[1]", "{\"tool\":\"t\"}", "{\"operation_id\":1}", "{\"operation_id\":\"a\",\"operation_id\":\"b\"}",
                "{\"operation_id\":\"a\"")) {
            SpanLines.Text t = new SpanLines.Text("s.jsonl", 0, 1, bad.getBytes(StandardCharsets.UTF_8));
            assertThat(lines.key(t)).as(bad).isEmpty();
            assertThatThrownBy(() -> lines.read(t)).as(bad).isInstanceOf(InputException.class);
        }
    }

    @Test
    void rejectsFieldsThatDisagreeAsTheReaderDoes() {
        List<SpanLines.Text> texts = texts();
        texts.add(new SpanLines.Text("s.jsonl", 0, 5,
                "{\"operation_id\":\"a\",\"tool\":\"u\",\"attempt_id\":3}".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> read(new SpanLines(Limits.DEFAULTS), texts)).isInstanceOf(InputException.class)
                .hasMessageContaining("disagrees with line 3 of the same operation");
    }

    @Test
    void linesHeldAsTheyAreReadBuildTheOperationsOfTheirKeys() throws InputException {
        String other = "{\"operation_id\":\"b\",\"tool\":\"u\",\"attempt_id\":1,\"span_id\":\"s9\"}";
        String[] lines = {LINES[0], other, LINES[1], LINES[2], LINES[3]};
        SpanLines reader = new SpanLines(Limits.DEFAULTS);
        SpanLines.Held held = reader.new Held();
        for (int i = 0; i < lines.length; i++) {
            byte[] bytes = lines[i].getBytes(StandardCharsets.UTF_8);
            SpanLines.Read r = reader.read(new SpanLines.Text("s.jsonl", 0, i + 1, bytes));
            if (r != null) {
                held.add(r);
            }
        }
        List<Operation> whole = Inputs.read("s.jsonl", String.join("\n", lines) + "\n");
        assertThat(held.size()).isEqualTo(2);
        assertThat(held.firstLine(0)).isEqualTo(1);
        assertThat(held.firstLine(1)).isEqualTo(2);
        assertThat(List.of(held.build(0, "s.jsonl", 0), held.build(1, "s.jsonl", 0))).isEqualTo(whole);
    }

    @Test
    void aHeldOperationWhoseLinesDisagreeThrowsWhatBuildingTheLinesThrows() throws InputException {
        String[] lines = {LINES[2],
            LINES[2].replace("\"tool\":\"t\"", "\"tool\":\"other\"").replace("\"attempt_id\":1", "\"attempt_id\":3")};
        SpanLines reader = new SpanLines(Limits.DEFAULTS);
        SpanLines.Held held = reader.new Held();
        List<SpanLines.Read> read = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            byte[] bytes = lines[i].getBytes(StandardCharsets.UTF_8);
            SpanLines.Read r = reader.read(new SpanLines.Text("s.jsonl", 0, i + 1, bytes));
            held.add(r);
            read.add(r);
        }
        InputException expected = null;
        try {
            reader.operation(read);
        } catch (InputException e) {
            expected = e;
        }
        assertThat(expected).as("the lines disagree").isNotNull();
        String message = expected.getMessage();
        assertThatThrownBy(() -> held.build(0, "s.jsonl", 0)).isInstanceOf(InputException.class).hasMessage(message);
    }
}
