package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One input audited by the root project's command line in-process and by the Spark job, and the
 * comparison: the same findings (every field, in order), summary counts and input notes, or the same
 * rejection.
 */
final class Parity {
    static final ObjectMapper JSON = new ObjectMapper();

    private Parity() {
    }

    /** What the command line said: its exit code, its JSON report (null when it rejected), its first stderr line. */
    record CliAnswer(int exit, JsonNode report, String error) {
    }

    static CliAnswer cli(List<String> flags, List<Path> files) {
        return cli(SparkAudit.SPANS, flags, files);
    }

    /** The command line's answer on {@code files} of {@code format} (spans or otlp). */
    static CliAnswer cli(String format, List<String> flags, List<Path> files) {
        // The library and the job pass an input set of no attempt with a note; the command line refuses it unless told.
        List<String> args = new ArrayList<>(List.of("audit", "--input-format", format, "--format", "json", "--allow-empty"));
        args.addAll(flags);
        files.forEach(f -> args.add(f.toString()));
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        JsonNode report = null;
        if (run.exit() == 0 || run.exit() == 2) {
            report = read(run.out());
        }
        return new CliAnswer(run.exit(), report, run.err().lines().findFirst().orElse(""));
    }

    /**
     * {@code notes} with the text after "nothing in this input was audited: it holds " cut: the command line
     * says what a source of no attempt held instead (server spans, spans of other kinds), the job the
     * generic "no attempt".
     */
    static JsonNode nothingCounted(JsonNode notes) {
        if (notes == null) {
            return null;
        }
        JsonNode copy = notes.deepCopy();
        copy.forEach(n -> {
            String m = n.get("message").asText();
            if (n.get("line").asLong() == 0 && m.startsWith(InputNote.NOTHING_AUDITED)) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) n).put("message", InputNote.NOTHING_AUDITED + "...");
            }
        });
        return copy;
    }

    /** Audits {@code files} both ways with {@code policy} (or none) and asserts the answers are the same. */
    static CliAnswer assertSame(Path policy, Limits limits, List<Path> files) {
        return assertSame(SparkAudit.SPANS, policy, limits, files);
    }

    /** As {@link #assertSame(Path, Limits, List)}, for files of {@code format} (spans or otlp). */
    static CliAnswer assertSame(String format, Path policy, Limits limits, List<Path> files) {
        List<String> flags = new ArrayList<>();
        AuditSettings.Builder b = AuditSettings.builder().limits(limits);
        if (policy != null) {
            flags.addAll(List.of("--policy", policy.toString()));
            b.policy(policy);
        }
        if (!limits.equals(Limits.DEFAULTS)) {
            flags.addAll(List.of("--limit-bytes", "" + limits.bytes(), "--limit-operations", "" + limits.operations(),
                    "--limit-attempts", "" + limits.attemptsPerOperation(), "--limit-string",
                    "" + limits.stringLength(), "--limit-depth", "" + limits.depth()));
        }
        CliAnswer cli = cli(format, flags, files);
        List<String> paths = files.stream().map(Path::toString).toList();
        try (SparkAuditResult r = format.equals(SparkAudit.OTLP) ? spark(b).otlp(paths) : spark(b).spans(paths)) {
            assertThat(cli.exit()).as("the command line accepted what Spark accepted, for %s: %s", files, cli.error())
                    .isIn(0, 2);
            List<JsonNode> spark = r.findingsJson().collectAsList().stream().map(Parity::read).toList();
            List<JsonNode> expected = new ArrayList<>();
            cli.report().get("findings").forEach(expected::add);
            assertThat(spark).as("findings of %s", files).containsExactlyElementsOf(expected);
            assertThat(r.exitCode()).isEqualTo(cli.exit());
            JsonNode inputs = cli.report().get("inputs");
            ByteArrayOutputStream summary = new ByteArrayOutputStream();
            r.writeSummary(summary, SparkAuditResult.OutputFormat.JSON);
            JsonNode sparkInputs = read(summary.toString(StandardCharsets.UTF_8)).get("inputs");
            for (int i = 0; i < r.inputs().size(); i++) {
                assertThat(r.inputs().get(i).operations()).isEqualTo(inputs.get(i).get("operations").asLong());
                assertThat(r.inputs().get(i).attempts()).isEqualTo(inputs.get(i).get("attempts").asLong());
                // The notes as the summary writes them: the same text, places and order as the command line's,
                // but that the job's note on a source of no attempt does not yet count what the source held.
                assertThat(nothingCounted(sparkInputs.get(i).get("notes"))).as("notes of %s", inputs.get(i).get("source"))
                        .isEqualTo(nothingCounted(inputs.get(i).get("notes")));
            }
            JsonNode counts = cli.report().get("summary").get("findings");
            r.counts().forEach((s, n) -> assertThat(n).isEqualTo(counts.get(s.id()).asLong()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RetryAuditException e) {
            assertThat(cli.exit()).as("Spark rejected %s with %s", files, e.getMessage()).isIn(65, 66);
            assertThat(SparkMain.diagnostic(e)).isEqualTo(cli.error());
        }
        return cli;
    }

    private static SparkAudit spark(AuditSettings.Builder settings) throws RetryAuditException {
        return SparkAudit.of(SharedSpark.get(), settings.build());
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every spans JSON Lines input of the root project's tests and examples, with its policy file if it has one. */
    static List<Path[]> fixtures() throws IOException {
        List<Path[]> out = new ArrayList<>();
        for (String root : List.of("../examples", "../src/test/resources/rules", "../src/test/resources/schema",
                "../src/test/resources/scenarios", "../src/test/resources/report/inputs",
                "../src/test/resources/one-event-one-rule")) {
            try (var files = Files.walk(Path.of(root))) {
                files.filter(f -> f.toString().endsWith(".jsonl")).sorted().forEach(f -> {
                    Path policy = f.resolveSibling("policy.json");
                    out.add(new Path[] {f, Files.exists(policy) ? policy : null});
                });
            }
        }
        return out;
    }
}
