package dev.retryaudit.input.foreign.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.foreign.LinkingContexts;
import dev.retryaudit.input.foreign.NoteParts;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * OTLP lines read once and linked one context at a time, as an engine that splits an input does, give
 * the operations and the notes of the whole source read at once.
 */
class OtlpLinesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE = "calls.jsonl";

    /** The operations (in the order of their first spans, without parents) and the notes of {@code lines} linked in parts. */
    private record InParts(List<Operation> operations, List<InputNote> notes) {
    }

    private static InParts inParts(List<String> lines) throws Exception {
        OtlpLines reader = new OtlpLines(Limits.DEFAULTS, Set.of());
        NoteParts notes = new NoteParts();
        Map<String, List<OtlpLines.Line>> byContext = new LinkedHashMap<>();
        Map<String, List<String>> facts = new HashMap<>();
        boolean single = lines.stream().filter(l -> !l.isBlank()).count() == 1;
        for (int i = 0; i < lines.size(); i++) {
            OtlpLines.Line read = reader.line(new SpanLines.Text(SOURCE, 0, i + 1,
                    lines.get(i).getBytes(StandardCharsets.UTF_8)));
            if (read == null) {
                continue;
            }
            if (read.notes() != null) {
                notes.merge(read.notes());
            }
            read.contexts().forEach(c -> byContext.computeIfAbsent(c, k -> new ArrayList<>()).add(read));
            read.callFacts().forEach(f -> facts.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1]));
        }
        Map<String, Set<String>> leftOut = new HashMap<>();
        facts.forEach((span, of) -> {
            String context = LinkingContexts.callSpan(of);
            if (context != null) {
                leftOut.computeIfAbsent(context, k -> new HashSet<>()).add(span);
            }
        });
        List<RetryLinker.Linked> linked = new ArrayList<>();
        for (Map.Entry<String, List<OtlpLines.Line>> c : byContext.entrySet()) {
            linked.addAll(reader.operations(c.getKey(), c.getValue(), SOURCE, 0, single,
                    leftOut.getOrDefault(c.getKey(), Set.of()), notes));
        }
        linked.sort(Comparator.comparingLong(RetryLinker.Linked::firstOrder));
        return new InParts(linked.stream().map(RetryLinker.Linked::operation).toList(),
                notes.finish().getOrDefault(0, List.of()));
    }

    private static List<InputSummary> whole(List<Operation> into, List<String> lines) throws Exception {
        byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        return new InputSet(InputFormat.OTLP, Limits.DEFAULTS).readAll(List.of(new InputSet.Source(SOURCE, null)),
                new ByteArrayInputStream(bytes), into::add);
    }

    /** The same operations as the whole source gives, but for their parents, and the same notes. */
    private static InParts assertSameAsWhole(List<String> lines) throws Exception {
        List<Operation> expected = new ArrayList<>();
        List<InputSummary> summary = whole(expected, lines);
        InParts parts = inParts(lines);
        assertThat(parts.operations()).extracting(Operation::id)
                .containsExactlyElementsOf(expected.stream().map(Operation::id).toList());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(parts.operations().get(i).attempts()).isEqualTo(expected.get(i).attempts());
            assertThat(parts.operations().get(i).groupedBy()).isEqualTo(expected.get(i).groupedBy());
        }
        assertThat(parts.notes()).isEqualTo(summary.get(0).notes());
        return parts;
    }

    /** Each scope's spans of an export as an export of their own, one a line. */
    private static List<String> oneScopeALine(Path export) throws Exception {
        JsonNode doc = JSON.readTree(Files.readString(export));
        List<String> out = new ArrayList<>();
        for (JsonNode rs : doc.get("resourceSpans")) {
            for (JsonNode ss : rs.get("scopeSpans")) {
                ObjectNode one = ((ObjectNode) rs.deepCopy());
                ArrayNode scopes = JSON.createArrayNode().add(ss);
                one.set("scopeSpans", scopes);
                out.add(JSON.createObjectNode().set("resourceSpans", JSON.createArrayNode().add(one)).toString());
            }
        }
        return out;
    }

    @Test
    void anSdkCallSpanGoesWithTheContextOfItsSends() throws Exception {
        String export = JSON.readTree(Files.readString(Path.of("src/test/resources/producers/anthropic-call-span.json")))
                .toString();
        InParts parts = assertSameAsWhole(List.of(export));
        assertThat(parts.operations()).singleElement().satisfies(op -> {
            assertThat(op.attempts()).extracting(Attempt::spanId)
                    .containsExactly("b2d0cafe00000001", "b2d0cafe00000002", "b2d0cafe00000003");
            assertThat(op.groupedBy()).isEqualTo("sends under call span anthropic.messages.create");
        });
    }

    @Test
    void anSdkCallSpanOnAnotherLineThanItsSendsIsStillTheirCall() throws Exception {
        // A recorded export of @anthropic-ai/sdk: the call span's scope after its sends' scope, each on a line.
        List<String> lines = oneScopeALine(Path.of("src/test/resources/real/recorded/otel-js/anthropic-honoured-429-root.json"));
        assertThat(lines).hasSize(2);
        InParts parts = assertSameAsWhole(lines);
        assertThat(parts.operations()).singleElement().satisfies(op -> {
            assertThat(op.attempts()).hasSize(2);
            assertThat(op.groupedBy()).isEqualTo("sends under call span anthropic.messages.create");
        });
        assertSameAsWhole(List.of(lines.get(1), lines.get(0)));
        // Their notes too: a send the SDK aborted, a call span that counts a send missing from the export.
        assertThat(assertSameAsWhole(oneScopeALine(
                Path.of("src/test/resources/real/recorded/otel-js/anthropic-timeout-keyless.json"))).notes())
                .singleElement().satisfies(n -> assertThat(n.message()).contains("ended with no status code"));
        assertThat(assertSameAsWhole(oneScopeALine(
                Path.of("src/test/resources/producers/anthropic-call-span-missing-send.json"))).notes())
                .anySatisfy(n -> assertThat(n.message()).contains("records resend_count 2 (3 sends), but 2 attempts"));
    }
}
