package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every real export under {@code real/public} and {@code real/recorded} gets the verdict its
 * {@code verdicts.json} gives it, through the command line with default options: the exit code, the
 * detected format, the operations read, the attempt counts of the retried ones, the rules of the
 * findings and the input notes. An entry marked {@code pending} (a format this build cannot read
 * yet) is skipped with a visible reason; a file without an entry fails. A {@code verdicts-pending-*.json}
 * beside a manifest holds readings this build does not give yet: its files count as listed, and its
 * verdicts are not checked.
 */
class RealExportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> NOT_EXPORTS = Set.of("README.md", "verdicts.json", "LICENSE", "LICENSE.txt",
            "NOTICE", "NOTICE.txt");
    private static final List<String> CORPORA = List.of("public", "recorded");
    private static final String PENDING_PREFIX = "verdicts-pending-";

    private static Path root() throws URISyntaxException {
        URL url = RealExportsTest.class.getResource("/real");
        assertThat(url).as("the real exports directory").isNotNull();
        return Path.of(url.toURI());
    }

    @TestFactory
    Stream<DynamicTest> everyEntryGetsItsVerdict() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String corpus : CORPORA) {
            Path dir = root().resolve(corpus);
            Path manifest = dir.resolve("verdicts.json");
            if (!Files.exists(manifest)) {
                continue;
            }
            for (JsonNode entry : JSON.readTree(manifest.toFile()).get("files")) {
                String file = entry.get("file").asText();
                tests.add(DynamicTest.dynamicTest(corpus + "/" + file, () -> check(dir, entry)));
            }
        }
        assertThat(tests).as("entries in the manifests").isNotEmpty();
        return tests.stream();
    }

    @Test
    void everyFileHasAnEntry() throws Exception {
        for (String corpus : CORPORA) {
            Path dir = root().resolve(corpus);
            if (!Files.isDirectory(dir)) {
                assertThat(corpus).as("the public corpus must exist").isNotEqualTo("public");
                continue;
            }
            Path manifest = dir.resolve("verdicts.json");
            assertThat(manifest).as("the manifest of " + corpus).exists();
            List<Path> manifests = new ArrayList<>(List.of(manifest));
            try (Stream<Path> pending = Files.list(dir)) {
                pending.filter(RealExportsTest::isPendingManifest).sorted().forEach(manifests::add);
            }
            Set<String> listed = new HashSet<>();
            for (Path m : manifests) {
                for (JsonNode entry : JSON.readTree(m.toFile()).get("files")) {
                    assertThat(listed.add(entry.get("file").asText())).as("one entry per file: " + entry).isTrue();
                }
            }
            Set<String> files = new TreeSet<>();
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.filter(Files::isRegularFile).filter(p -> !NOT_EXPORTS.contains(p.getFileName().toString()))
                        .filter(p -> !isPendingManifest(p))
                        .forEach(p -> files.add(dir.relativize(p).toString().replace('\\', '/')));
            }
            assertThat(listed).as("entries of " + corpus + "/verdicts.json").containsExactlyInAnyOrderElementsOf(files);
        }
    }

    private static boolean isPendingManifest(Path p) {
        String name = p.getFileName().toString();
        return name.startsWith(PENDING_PREFIX) && name.endsWith(".json");
    }

    private static void check(Path dir, JsonNode entry) throws Exception {
        String file = entry.get("file").asText();
        JsonNode expect = entry.get("expect");
        if (entry.has("pending")) {
            Assumptions.assumeTrue(false, file + ": pending " + entry.get("pending").asText()
                    + " (expected reading: " + entry.get("reading").asText() + ")");
        }
        Path path = dir.resolve(file);
        CliRunner.Result r = CliRunner.run("audit", path.toString());
        String format = entry.get("format").asText();
        if (format.equals("reject")) {
            assertThat(r.exit()).as(file + ": " + r.err()).isEqualTo(expect.get("exit").asInt()).isEqualTo(65);
            assertThat(r.err()).as("one diagnostic line").matches("(?s)[^\n]+:\\d+:\\d+: error: [^\n]+\n");
            return;
        }
        if (expect.has("refused")) {
            assertThat(r.exit()).as(file + ": " + r.err()).isEqualTo(expect.get("exit").asInt()).isEqualTo(65);
            assertThat(r.err()).as("one diagnostic line")
                    .matches("(?s)[^\n]+: error: nothing was audited: [^\n]+\n")
                    .contains(expect.get("refused").asText());
            r = CliRunner.run("audit", "--allow-empty", path.toString());
            assertThat(r.exit()).as(file + " with --allow-empty: " + r.err()).isZero();
        }
        assertThat(r.err()).as(file + " stderr").isEmpty();
        JsonNode report = JSON.readTree(r.out());
        JsonNode input = report.get("inputs").get(0);
        assertThat(input.get("format").asText()).as(file + " format").isEqualTo(format);
        assertThat(r.exit()).as(file + " exit, findings " + report.get("findings"))
                .isEqualTo(expect.has("refused") ? 0 : expect.get("exit").asInt());
        assertThat(input.get("operations").asLong()).as(file + " operations").isEqualTo(expect.get("operations").asLong());
        Set<String> rules = new TreeSet<>();
        report.get("findings").forEach(f -> rules.add(f.get("rule").asText()));
        List<String> expectedRules = new ArrayList<>();
        expect.get("rules").forEach(n -> expectedRules.add(n.asText()));
        assertThat(rules).as(file + " rules").containsExactlyElementsOf(expectedRules);
        List<Integer> expectedRetried = new ArrayList<>();
        expect.get("retried").forEach(n -> expectedRetried.add(n.asInt()));
        assertThat(retried(path)).as(file + " attempts of retried operations").isEqualTo(expectedRetried);
        if (expect.has("notes")) {
            List<String> notes = new ArrayList<>();
            if (input.has("notes")) {
                input.get("notes").forEach(n -> notes.add(n.get("message").asText()));
            }
            for (JsonNode wanted : expect.get("notes")) {
                assertThat(notes).as(file + " notes").anySatisfy(n -> assertThat(n).contains(wanted.asText()));
            }
        }
    }

    /** The attempt counts of the operations with more than one attempt, largest first, as the audit reads them. */
    private static List<Integer> retried(Path path) throws Exception {
        List<Integer> counts = new ArrayList<>();
        new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of(path.toString())),
                new ByteArrayInputStream(new byte[0]), (Operation op) -> {
                    if (op.attempts().size() > 1) {
                        counts.add(op.attempts().size());
                    }
                });
        counts.sort(Comparator.reverseOrder());
        return counts;
    }
}
