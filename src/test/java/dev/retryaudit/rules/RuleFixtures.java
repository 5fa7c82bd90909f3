package dev.retryaudit.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.json.Json;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.RuleRegistry;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The rule fixtures on disk: {@code src/test/resources/rules/<family>/<name>/<case>/} holds the input
 * files of one case, {@code expected.txt} with one line per expected finding of that rule
 * ({@code SOURCE:LINE:COL SEVERITY OPERATION ATTEMPT}, "-" for none; '#' starts a comment), and
 * optionally {@code policy.json} and {@code tools.json} (a tools file, as {@code --tools} reads it). Cases named {@code fail-*} must expect findings, {@code pass-*} none.
 * {@code expected-findings.txt} holds each expected finding in full: its line, then its message and
 * its evidence as compact JSON, each on an indented line ({@code -Dgolden.update=true} rewrites it).
 */
public final class RuleFixtures {
    public static final Path ROOT = Path.of("src/test/resources/rules");
    static final String EXPECTED = "expected.txt";
    static final String POLICY = "policy.json";
    static final String TOOLS = "tools.json";
    static final String FINDINGS = "expected-findings.txt";

    private RuleFixtures() {
    }

    /** One case directory of one rule. */
    public record Case(String ruleId, Path dir) {
        public String name() {
            return dir.getFileName().toString();
        }

        public List<Path> inputs() {
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(p -> !List.of(EXPECTED, POLICY, TOOLS, FINDINGS).contains(p.getFileName().toString()))
                        .sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public List<String> expected() {
            try {
                return Files.readAllLines(dir.resolve(EXPECTED)).stream()
                        .map(l -> l.replaceFirst("#.*", "").strip()).filter(l -> !l.isEmpty()).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public Path policy() {
            Path p = dir.resolve(POLICY);
            return Files.exists(p) ? p : null;
        }

        public Path tools() {
            Path p = dir.resolve(TOOLS);
            return Files.exists(p) ? p : null;
        }
    }

    /** Every case of a rule, by directory name; empty when the rule has no fixtures. */
    public static List<Case> cases(String ruleId) {
        Path dir = ROOT.resolve(ruleId);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(dir)) {
            return dirs.filter(Files::isDirectory).sorted().map(d -> new Case(ruleId, d)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs only {@code ruleId} over the case's inputs and renders its findings like expected.txt lines. */
    public static List<String> run(Case c, Policy policy) throws InputException {
        return findings(c, policy).stream().map(RuleFixtures::line).toList();
    }

    /** Runs only {@code ruleId} over the case's inputs and returns its findings, for tests of messages and evidence. */
    public static List<Finding> findings(Case c, Policy policy) throws InputException {
        List<String> families = new ArrayList<>(RuleRegistry.families());
        RuleSelection only = RuleSelection.of(policy, List.of(c.ruleId()), families);
        Engine engine = new Engine(policy, only);
        List<InputSet.Source> sources = c.inputs().stream()
                .map(p -> new InputSet.Source(p.getFileName().toString(), p)).toList();
        new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(sources, new ByteArrayInputStream(new byte[0]),
                engine::accept);
        return engine.finish();
    }

    /** The findings in full, as {@code expected-findings.txt} holds them. */
    public static String full(List<Finding> findings) {
        StringBuilder out = new StringBuilder();
        for (Finding f : findings) {
            out.append(line(f)).append("\n  message: ").append(f.message()).append("\n  evidence: ")
                    .append(evidenceJson(f)).append('\n');
        }
        return out.toString();
    }

    private static String evidenceJson(Finding f) {
        StringWriter text = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(text)) {
            Json.value(g, f.evidence().asMap());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    static String line(Finding f) {
        return f.location().source() + ":" + f.location().line() + ":" + f.location().column() + " "
                + f.severity().id() + " " + (f.operation() == null ? "-" : f.operation()) + " "
                + (f.attempt() == null ? "-" : f.attempt());
    }
}
