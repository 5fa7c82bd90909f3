package dev.retryaudit.report;

import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.ReportFormat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.RawJson;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.RuleInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every report format keeps (in the manner of PMD's AbstractRendererTest): the same
 * scenarios through every writer, compared byte for byte with golden files. The reports are built
 * here from fixed findings, so the goldens do not change when rules are added. Run with
 * {@code -Dgolden.update=true} to rewrite the goldens after an intended change, then review the diff. Two
 * reports carry operations to draw, from {@code report/timelines.json}; formats that draw none ignore them.
 */
class ReportContractTest {
    static final Path GOLDEN = Path.of("src/test/resources/report/golden");
    static final Path TIMELINES = Path.of("src/test/resources/report/timelines.json");
    static final boolean UPDATE = Boolean.getBoolean("golden.update");

    static final RuleInfo GAP = new RuleInfo("contract/attempt-gap", Severity.ERROR,
            "attempt ids skip a number: attempts are missing from the trace");
    static final RuleInfo DOCUMENTED = new RuleInfo("contract/documented", Severity.WARNING,
            "a rule whose documentation ships in the jar");
    static final RuleInfo CLOCK = new RuleInfo("contract/clock-note", Severity.NOTE,
            "attempt n+1 started before attempt n started");
    static final List<RuleInfo> RULES = List.of(GAP, DOCUMENTED, CLOCK);

    /** One scenario: a report, or an input failure. */
    record Scenario(String name, Report report, InputFailure failure) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** One output of a format: its writer and the golden file's suffix. */
    record Variant(ReportFormat format, boolean color) {
        String suffix() {
            return format.id() + (color ? "-color" : "");
        }

        ReportWriter writer() {
            return ReportWriter.of(format, color);
        }

        @Override
        public String toString() {
            return suffix();
        }
    }

    static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        for (ReportFormat f : ReportFormat.values()) {
            variants.add(new Variant(f, false));
        }
        variants.add(new Variant(ReportFormat.TEXT, true));
        return variants;
    }

    static List<Scenario> scenarios() {
        List<InputSummary> one = List.of(new InputSummary("traces/clean.json", "operations", 2, 3));
        List<InputSummary> two = List.of(new InputSummary("traces/a.json", "operations", 2, 5),
                new InputSummary("traces/b.jsonl", "spans", 3, 6));
        List<InputSummary> noted = List.of(new InputSummary("traces/a.json", "otlp", 2, 3, List.of(
                new InputNote("traces/a.json", 0, 0, "the export cannot show retries: one span over all sends"),
                new InputNote("traces/a.json", 7, 13, "attribute error.type: expected a stringValue, found an "
                        + "intValue; skipped: the audit uses error.type only as a hint"))));
        Finding single = Finding.builder().rule(GAP.id()).severity(Severity.ERROR).operation("cart-c-1844").attempt(2)
                .tool("charge_cart").run("run-9")
                .message("the attempt ids of cart-c-1844 are [1, 3], not 1..2: attempts are missing from the sequence")
                .evidence(Evidence.of().put("attempt_ids", List.of(1L, 3L)))
                .at(new Location("traces/a.json", 0, 12, 9, "/operations/0/attempts/1")).build();
        List<Finding> many = List.of(
                single,
                Finding.builder().rule(DOCUMENTED.id()).severity(Severity.WARNING).operation("op-2").tool("lookup")
                        .message("op-2 spent 50% of its budget, 3 of 6 attempts: \"lookup\" retried at once")
                        .evidence(Evidence.of().put("spent", 0.5).put("attributes", new RawJson("{\"cart\":\"c-1\"}")))
                        .at(new Location("traces/a.json", 0, 30, 5, "/operations/1")).build(),
                Finding.builder().rule(CLOCK.id()).severity(Severity.NOTE).operation("op-3").attempt(2).tool("search")
                        .run("run-2")
                        .message("attempt 2 of op-3 started 500 ms before attempt 1 started: a clock or the numbering is wrong")
                        .evidence(Evidence.of().put("earlier_by_ms", 500L))
                        .at(new Location("traces/b.jsonl", 1, 2, 1, null)).build(),
                Finding.builder().rule(GAP.id()).severity(Severity.ERROR).run("run-2")
                        .message("run run-2 retried 4 of 6 attempts: más que el presupuesto")
                        .evidence(Evidence.of().put("ratio", 0.67)).at(new Location("traces/b.jsonl", 1, 5, 1, null))
                        .build());
        return List.of(
                new Scenario("no-findings", new Report("retry-audit", "0.1.0", one, List.of(), FailOn.ERROR, RULES, null, 0),
                        null),
                new Scenario("one-finding", new Report("retry-audit", "0.1.0", one.subList(0, 1), List.of(single),
                        FailOn.ERROR, RULES, null, 0).withTimelines(timelines()), null),
                new Scenario("many-findings", new Report("retry-audit", "0.1.0", two, many, FailOn.WARNING, RULES,
                        "baseline.json", 2).withTimelines(timelines()), null),
                new Scenario("input-error", null, new InputFailure("retry-audit", "0.1.0", 65,
                        InputException.rejected("traces/a.json", 3, 17, "$.operations[0].attempts[0].comit_state",
                                "unknown field (did you mean commit_state?)").error())),
                new Scenario("input-unreadable", null, new InputFailure("retry-audit", "0.1.0", 66,
                        InputException.unreadable("traces/missing.json", "no such file").error())),
                new Scenario("input-over-limit", null, new InputFailure("retry-audit", "0.1.0", 65,
                        InputException.rejected("traces/a.json", 1, 4097, "$.operations[0].tool",
                                "a string of 5000 characters exceeds the string limit of 4096").over(Limit.STRING)
                                .error(limit -> "raise it with --limit-" + limit.id()))),
                new Scenario("input-notes", new Report("retry-audit", "0.1.0", noted, List.of(single), FailOn.ERROR,
                        RULES, null, 0), null));
    }

    /** Operations with their attempts, for the formats that draw them; the reports keep those they have findings of. */
    static List<Operation> timelines() {
        List<Operation> ops = new ArrayList<>();
        try {
            new InputSet(InputFormat.OPERATIONS, Limits.DEFAULTS)
                    .readAll(List.of(InputSet.Source.of(TIMELINES.toString())), null, ops::add);
        } catch (InputException e) {
            throw new IllegalStateException(e.diagnostic(), e);
        }
        return ops;
    }

    static Stream<Arguments> cases() {
        return scenarios().stream().flatMap(s -> variants().stream().map(v -> Arguments.of(s, v)));
    }

    @ParameterizedTest(name = "{0} as {1}")
    @MethodSource("cases")
    void matchesGolden(Scenario scenario, Variant variant) throws IOException {
        String actual = render(scenario, variant.writer());
        Path golden = GOLDEN.resolve(scenario.name() + "." + variant.suffix());
        if (UPDATE) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(golden)) {
            fail("no golden file " + golden + "; run with -Dgolden.update=true to write it, then review it");
        }
        assertThat(actual).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }

    @Test
    void writingTwiceGivesTheSameBytes() throws IOException {
        for (Scenario s : scenarios()) {
            for (Variant v : variants()) {
                assertThat(render(s, v.writer())).as(s + " as " + v).isEqualTo(render(s, v.writer()));
            }
        }
    }

    @Test
    void everyGoldenFileBelongsToACase() throws IOException {
        List<String> expected = scenarios().stream()
                .flatMap(s -> variants().stream().map(v -> s.name() + "." + v.suffix())).toList();
        try (Stream<Path> files = Files.list(GOLDEN)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    static String render(Scenario s, ReportWriter w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (s.report() != null) {
            w.write(s.report(), out);
        } else {
            w.writeError(s.failure(), out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
