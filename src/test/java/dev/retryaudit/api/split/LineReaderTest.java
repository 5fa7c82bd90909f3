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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operation linked apart from its parent gets the parent as {@link LinkedOperation#withParent} gives it; a
 * whole spans source read in one pass holds the operations, and meets the first error, of the command line.
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
}
