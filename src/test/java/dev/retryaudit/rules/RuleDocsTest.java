package dev.retryaudit.rules;

import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.config.RuleIds;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.probe.ProbeCatalogue;
import dev.retryaudit.rules.engine.RuleRegistry;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks every rule document under {@code src/main/resources/rules}: its title and sections, that
 * its examples are valid operations documents and its policy snippets valid policies, and, for a
 * registered rule, that its severity line is the rule's and that the rule fires on the failing
 * example and stays silent on the passing one.
 */
class RuleDocsTest {
    private static final Path DOCS = Path.of("src/main/resources/rules");
    private static final List<String> SECTIONS = List.of("## Why it is unsafe", "## Failing example",
            "## Passing example", "## How to fix", "## Policy");
    private static final Pattern JSON_BLOCK = Pattern.compile("```json\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CONSOLE_BLOCK = Pattern.compile("```console\n(.*?)```", Pattern.DOTALL);
    private static final Pattern POLICY_SNIPPET = Pattern.compile("`(\\{\"(?:rules|tools)\":[^`]*)`");

    /** The id of every documented rule, from the file layout: {@code <family>/<name>.md}. */
    static Set<String> documentedIds() {
        try (Stream<Path> files = Files.walk(DOCS)) {
            Set<String> ids = new TreeSet<>();
            files.filter(p -> p.toString().endsWith(".md")).forEach(p -> ids.add(
                    DOCS.relativize(p).toString().replace('\\', '/').replaceFirst("\\.md$", "")));
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyRegisteredRuleIsDocumented() {
        assertThat(documentedIds()).containsAll(RuleRegistry.ids());
    }

    @Test
    void everyProbeRuleIsDocumented() {
        assertThat(documentedIds()).containsAll(ProbeCatalogue.all().stream().map(RuleInfo::id).toList());
    }

    @TestFactory
    Stream<DynamicTest> everyDocument() {
        Set<String> ids = documentedIds();
        return ids.stream().map(id -> DynamicTest.dynamicTest(id, () -> check(id, ids)));
    }

    private static void check(String id, Set<String> allIds) throws Exception {
        String doc = Files.readString(DOCS.resolve(id + ".md"));
        assertThat(doc).startsWith("# " + id + "\n\nDefault severity: ").endsWith("\n").doesNotContain("\r", "\t");
        int at = 0;
        for (String section : SECTIONS) {
            int next = doc.indexOf("\n" + section + "\n", at);
            assertThat(next).as("%s: section '%s' in order", id, section).isGreaterThan(at);
            at = next;
        }
        assertThat(doc.lines().filter(l -> l.length() > 110 && !l.startsWith("|")).toList()).as("%s: lines over 110 characters outside tables", id).isEmpty();
        RuleInfo probe = ProbeCatalogue.byId(id);
        if (probe != null) {
            checkProbe(probe, doc);
            return;
        }
        String failing = firstJsonAfter(doc, "## Failing example");
        String passing = firstJsonAfter(doc, "## Passing example");
        Rule rule = RuleRegistry.byId(id);
        if (rule != null) {
            assertThat(doc).contains("Default severity: " + rule.info().severity().id());
            assertThat(run(id, failing)).as("%s fires on its failing example", id).isNotEmpty();
            assertThat(run(id, passing)).as("%s is silent on its passing example", id).isEmpty();
        } else {
            run(null, failing);
            run(null, passing);
        }
        Matcher m = POLICY_SNIPPET.matcher(doc);
        while (m.find()) {
            PolicyReader.read(new ByteArrayInputStream(m.group(1).getBytes(StandardCharsets.UTF_8)), id + " policy snippet",
                    RuleIds.of(allIds), Limits.DEFAULTS);
        }
    }

    /**
     * A probe verdict's document: its severity, that it says only a probe run reports it, and examples that are
     * probe runs, the failing one reporting the rule and the passing one not; no policy snippet can name it.
     */
    private static void checkProbe(RuleInfo probe, String doc) {
        assertThat(doc).contains("Default severity: " + probe.severity().id() + ". Family: probe.",
                "Reported by `retry-audit probe` only");
        String failing = firstBlockAfter(CONSOLE_BLOCK, doc, "## Failing example");
        String passing = firstBlockAfter(CONSOLE_BLOCK, doc, "## Passing example");
        assertThat(failing).startsWith("$ retry-audit probe ").contains("[" + probe.id() + "]");
        assertThat(passing).startsWith("$ retry-audit probe ").doesNotContain("[" + probe.id() + "]")
                .contains("honoured");
        assertThat(POLICY_SNIPPET.matcher(doc).find()).as("%s: a policy cannot name a probe verdict", probe.id())
                .isFalse();
    }

    private static String firstJsonAfter(String doc, String heading) {
        return firstBlockAfter(JSON_BLOCK, doc, heading);
    }

    private static String firstBlockAfter(Pattern block, String doc, String heading) {
        Matcher m = block.matcher(doc);
        int at = doc.indexOf(heading);
        assertThat(m.find(at)).as("a code block after " + heading).isTrue();
        assertThat(doc.indexOf("\n## ", at + 1)).as("the block after %s is in its section", heading)
                .isGreaterThan(m.start());
        return m.group(1);
    }

    /** Reads an example strictly as an operations document and runs only {@code id} over it (no rule when null). */
    private static List<Finding> run(String id, String example) throws Exception {
        List<String> families = new ArrayList<>(RuleRegistry.families());
        RuleSelection only = RuleSelection.of(Policy.DEFAULTS, id == null ? List.of() : List.of(id), families);
        Engine engine = new Engine(Policy.DEFAULTS, only);
        new InputSet(InputFormat.OPERATIONS, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of("-")),
                new ByteArrayInputStream(example.getBytes(StandardCharsets.UTF_8)), engine::accept);
        return engine.finish();
    }
}
