package dev.retryaudit.api.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** An operation linked apart from its parent gets the parent as {@link LinkedOperation#withParent} gives it. */
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
}
