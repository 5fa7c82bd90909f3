package dev.retryaudit.rules;

import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.config.RuleIds;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.probe.ProbeCatalogue;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** Keeps the rule tables of docs/rules.md and the example of docs/policy.md in step with the rules, their documents and the policy reader. */
class RulesPageTest {
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z-]+/[a-z-]+)` \\| ([^|]+) \\| (.+) \\|$");

    private static String rulesPage() throws Exception {
        return Files.readString(Path.of("docs/rules.md"));
    }

    private static String policyPage() throws Exception {
        return Files.readString(Path.of("docs/policy.md"));
    }

    /** The rows of the rule tables, by id: {severity cell, summary cell}, in page order. */
    private static Map<String, String[]> rows() throws Exception {
        String rules = rulesPage();
        Map<String, String[]> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(rules);
        while (m.find()) {
            assertThat(rows.put(m.group(1), new String[] {m.group(2), m.group(3)})).as("row of %s twice", m.group(1)).isNull();
        }
        return rows;
    }

    @Test
    void everyRegisteredRuleHasItsRowInRegistryOrder() throws Exception {
        Map<String, String[]> rows = rows();
        List<String> problems = new ArrayList<>();
        for (Rule r : RuleRegistry.all()) {
            RuleInfo info = r.info();
            String[] row = rows.get(info.id());
            if (row == null) {
                problems.add(info.id() + ": no row");
            } else if (!row[0].equals(info.severity().id()) && !row[0].startsWith(info.severity().id() + " (")) {
                problems.add(info.id() + ": severity " + row[0] + ", not " + info.severity().id());
            } else if (!row[1].equals(info.summary())) {
                problems.add(info.id() + ": summary '" + row[1] + "', not '" + info.summary() + "'");
            }
        }
        for (RuleInfo info : ProbeCatalogue.all()) {
            String[] row = rows.get(info.id());
            if (row == null || !row[0].equals(info.severity().id()) || !row[1].equals(info.summary())) {
                problems.add(info.id() + ": no row with its severity and summary");
            }
        }
        assertThat(problems).isEmpty();
        List<String> registered = new ArrayList<>(rows.keySet());
        registered.retainAll(RuleRegistry.ids());
        assertThat(registered).containsExactlyElementsOf(RuleRegistry.ids());
    }

    @Test
    void everyRowIsADocumentedRuleUnderItsFamily() throws Exception {
        assertThat(rows().keySet()).containsExactlyInAnyOrderElementsOf(RuleDocsTest.documentedIds());
        String page = rulesPage();
        for (String id : rows().keySet()) {
            String family = id.substring(0, id.indexOf('/'));
            int heading = page.indexOf("\n## " + family + "\n");
            int row = page.indexOf("| `" + id + "` |");
            int nextHeading = page.indexOf("\n## ", heading + 1);
            assertThat(heading).as("a section for family %s", family).isPositive();
            assertThat(row).as("%s in its family's table", id).isBetween(heading, nextHeading < 0 ? page.length() : nextHeading);
        }
    }

    @Test
    void thePolicyExampleIsValidAndShowsTheDefaults() throws Exception {
        String page = policyPage();
        int start = page.indexOf("```json\n") + "```json\n".length();
        String example = page.substring(start, page.indexOf("```", start));
        Policy p = PolicyReader.read(new ByteArrayInputStream(example.getBytes(StandardCharsets.UTF_8)), "docs/policy.md",
                RuleIds.of(RuleDocsTest.documentedIds()), Limits.DEFAULTS);
        assertThat(Policy.DEFAULTS.differences(p)).as("what the example sets beside the defaults")
                .containsExactly("tools", "toolEffects", "toolMaxAttempts", "toolsDedupingByKey", "ruleSeverities",
                        "rulesEnabled", "grpcReads", "grpcWrites");
        assertThat(p.tools()).containsExactlyInAnyOrder("catalog_lookup", "charge_cart");
        assertThat(p.rules()).containsExactlyInAnyOrder("budget/retry-ratio", "trace/clock-order");
        assertThat(p.grpcReads()).containsExactly("shop.v1.Catalog/*");
        assertThat(p.grpcWrites()).containsExactly("shop.v1.Catalog/GetOrCreate*");
    }
}
