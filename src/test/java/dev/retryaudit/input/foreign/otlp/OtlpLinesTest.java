package dev.retryaudit.input.foreign.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** OTLP lines read once and linked one context at a time, as an engine that splits an input does, as the whole source reads. */
class OtlpLinesTest {
    @Test
    void anSdkCallSpanGoesWithTheContextOfItsSends() throws Exception {
        String export = new ObjectMapper().readTree(
                Files.readString(Path.of("src/test/resources/producers/anthropic-call-span.json"))).toString();
        SpanLines.Text line = new SpanLines.Text("calls.jsonl", 0, 1, export.getBytes(StandardCharsets.UTF_8));
        OtlpLines lines = new OtlpLines(Limits.DEFAULTS, Set.of());
        // The line is read once and linked in each of its contexts, as an engine that splits the input links it.
        OtlpLines.Line read = lines.line(line);
        List<Operation> ops = new ArrayList<>();
        for (String context : read.contexts()) {
            for (RetryLinker.Linked linked : lines.operations(context, List.of(read), "calls.jsonl", 0, false)) {
                ops.add(linked.operation());
            }
        }
        assertThat(ops).singleElement().satisfies(op -> {
            assertThat(op.attempts()).extracting(Attempt::spanId)
                    .containsExactly("b2d0cafe00000001", "b2d0cafe00000002", "b2d0cafe00000003");
            assertThat(op.groupedBy()).isEqualTo("sends under call span anthropic.messages.create");
        });
    }
}
