package dev.retryaudit.input.foreign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.input.foreign.otlp.OtlpRecords;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The linking protocol as batch reading, {@code serve} and the Spark job drive it. */
class LinkingContextsTest {
    private static final Path EXPORT = Path.of("src/test/resources/input/otlp/agent-checkout.json");

    /** The spans of {@code exports}, each read as a record of one source, into one set of contexts. */
    private static LinkingContexts read(ReadContext notes, byte[]... exports) throws InputException {
        OtlpRecords records = new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS);
        RetryLinker into = new RetryLinker();
        for (int i = 0; i < exports.length; i++) {
            records.read(new OtlpRecords.Record(i + 1, exports[i], null), into, notes);
        }
        return into.held();
    }

    private static List<String> ids(List<RetryLinker.Linked> linked) {
        List<String> out = new ArrayList<>();
        for (RetryLinker.Linked l : linked) {
            out.add(l.operation().id() + " " + l.operation().attempts().size());
        }
        return out;
    }

    /** The OTLP/JSON exports of the test resources, examples and real ones, in order. */
    static List<Path> otlpExports() throws IOException {
        List<Path> exports = new ArrayList<>();
        for (String root : List.of("src/test/resources/input/otlp", "src/test/resources/real")) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                files.filter(f -> f.toString().endsWith(".json")).sorted().forEach(exports::add);
            }
        }
        return exports;
    }

    @Test
    void eachSpansContextIsTheOneItsContextsAloneGive() throws IOException, InputException {
        int spans = 0;
        for (Path f : otlpExports()) {
            LinkingContexts all;
            try {
                all = read(null, Files.readAllBytes(f));
            } catch (InputException e) {
                continue;
            }
            for (ForeignSpan s : all.spans()) {
                LinkingContexts one = new LinkingContexts();
                one.add(s);
                assertThat(LinkingContexts.of(s)).as(f + " " + s.spanId).isEqualTo(one.contexts().get(0));
                assertThat(all.contexts()).contains(LinkingContexts.of(s));
                spans++;
            }
        }
        assertThat(spans).isGreaterThan(100);
    }

    @Test
    void anExportSentTwiceIsLinkedAsOnceWithANoteThatCountsTheCopies() throws IOException, InputException {
        byte[] export = Files.readAllBytes(EXPORT);
        ReadContext onceNotes = new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS).context();
        List<RetryLinker.Linked> once = read(null, export).link(onceNotes, false, null);
        ReadContext twiceNotes = new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS).context();
        LinkingContexts twice = read(null, export, export);
        assertThat(twice.spans()).hasSize(2 * read(null, export).spans().size());
        List<RetryLinker.Linked> linked = twice.link(twiceNotes, false, null);

        assertThat(ids(linked)).isEqualTo(ids(once));
        assertThat(twiceNotes.notes()).extracting(InputNote::message).contains(
                "9 attempt spans stand again with the same trace id, span id and content, the first span a1b2c3d4e5f60718 "
                        + "(an export sent or written twice): each copy is read once");
        assertThat(twiceNotes.notes()).hasSize(onceNotes.notes().size() + 1);
        assertThat(twiceNotes.notes()).filteredOn(n -> n.message().contains("stand again")).first()
                .extracting(InputNote::line).isEqualTo(2L);
    }

    @Test
    void aSpanIdThatStandsAgainWithOtherContentRejectsTheSource() throws IOException {
        String export = Files.readString(EXPORT);
        byte[] changed = export.replace("\"execute_tool charge_cart\"", "\"execute_tool charge_cart again\"")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(changed).isNotEqualTo(export.getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> read(null, export.getBytes(StandardCharsets.UTF_8), changed)
                .link(new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS).context(), false, null))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("stands again with other content than at line 1");
    }

    @Test
    void contextsLinkedApartGetTheirParentsFromTheOffers() throws IOException, InputException {
        byte[] export = Files.readAllBytes(EXPORT);
        ReadContext notes = new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS).context();
        List<Operation> whole = new ParentOffers().parented(read(null, export).link(notes, false, null));
        // Each context linked alone, in reverse order: the offers of every context come first, then the parents.
        LinkingContexts all = read(null, export);
        List<RetryLinker.Linked> apart = new ArrayList<>();
        List<String> contexts = new ArrayList<>(all.contexts());
        java.util.Collections.reverse(contexts);
        for (String context : contexts) {
            LinkingContexts one = read(null, export);
            one.keep(context);
            apart.addAll(one.link(notes, false, null));
        }
        List<Operation> parented = new ParentOffers().parented(apart);
        assertThat(parented).hasSameElementsAs(whole);
        assertThat(whole).anySatisfy(op -> assertThat(op.parentOperation()).isNotNull());
    }
}
