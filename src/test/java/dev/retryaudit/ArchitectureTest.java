package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages show the flow of data and never import upwards: every reference from one package of
 * {@code src/main} to another (imports and qualified names, comments left out) goes to a lower
 * layer, so there is no cycle. Every package says whether it is API or internal.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package (dev\\.retryaudit[\\w.]*);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.retryaudit((?:\\.[a-z]\\w*)*)\\.[A-Z]");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    /** The layer of each package, lowest first; a family of rules is any other package under rules. */
    private static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("model", 0),
            Map.entry("text", 10),
            Map.entry("input", 20),
            Map.entry("input.json", 21),
            Map.entry("input.reader", 22),
            Map.entry("input.operations", 23),
            Map.entry("input.foreign", 23),
            Map.entry("input.retrytrace", 23),
            Map.entry("input.otlp", 24),
            Map.entry("input.har", 24),
            Map.entry("input.zipkin", 24),
            Map.entry("input.jaeger", 24),
            Map.entry("input.pipeline", 25),
            Map.entry("input.policy", 26),
            Map.entry("input.baseline", 26),
            Map.entry("rules", 20),
            Map.entry("rules.http", 20),
            Map.entry("rules.grpc", 20),
            Map.entry("rules.engine", 40),
            Map.entry("report.sarif", 50),
            Map.entry("report.html", 50),
            Map.entry("report", 60),
            Map.entry("probe", 70),
            Map.entry("api", 80),
            Map.entry("mcp", 80),
            Map.entry("cli", 90));
    private static final int FAMILY = 30;

    @Test
    void noPackageImportsOneAboveIt() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        List<String> upward = new ArrayList<>();
        deps.forEach((from, tos) -> tos.forEach(to -> {
            if (layer(to) >= layer(from)) {
                upward.add(from + " -> " + to);
            }
        }));
        assertThat(deps).containsKeys("model", "rules", "rules.engine", "api", "cli");
        assertThat(upward).as("references to a package in the same or a higher layer").isEmpty();
        assertThat(deps.get("report")).as("reports are written from findings, not from the reading of inputs")
                .doesNotContain("input");
        List<String> across = new ArrayList<>();
        deps.forEach((from, tos) -> tos.forEach(to -> {
            if (side(from) != 0 && side(to) != 0 && side(from) != side(to)) {
                across.add(from + " -> " + to);
            }
        }));
        assertThat(across).as("the reading of inputs and the rules know nothing of each other").isEmpty();
    }

    @Test
    void everyPackageSaysWhetherItIsApiOrInternal() throws IOException {
        List<String> unmarked = new ArrayList<>();
        for (String pkg : dependencies().keySet()) {
            Path info = MAIN.resolve("dev/retryaudit/" + pkg.replace('.', '/')).resolve("package-info.java");
            String text = Files.exists(info) ? Files.readString(info) : "";
            if (!text.contains("Public API") && !text.contains("Internal: not part of the API")) {
                unmarked.add(pkg);
            }
        }
        assertThat(unmarked).isEmpty();
    }

    /** 1 for the reading of inputs, 2 for the rules (their engine aside), 0 for any other package. */
    private static int side(String pkg) {
        if (pkg.equals("input") || pkg.startsWith("input.")) {
            return 1;
        }
        return (pkg.equals("rules") || pkg.startsWith("rules.")) && !pkg.equals("rules.engine") ? 2 : 0;
    }

    private static int layer(String pkg) {
        Integer l = LAYERS.get(pkg);
        if (l == null && pkg.startsWith("rules.")) {
            return FAMILY;
        }
        if (l == null) {
            throw new AssertionError("package dev.retryaudit." + pkg + " has no layer in ArchitectureTest.LAYERS");
        }
        return l;
    }

    /** Each package of src/main (without the dev.retryaudit prefix) and the packages it references; module-info is no package. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> deps = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java")).toList()) {
                String code = COMMENT.matcher(Files.readString(f)).replaceAll(" ");
                Matcher pm = PACKAGE.matcher(code);
                assertThat(pm.find()).as("package of %s", f).isTrue();
                String pkg = pm.group(1).substring("dev.retryaudit.".length());
                Set<String> to = deps.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(code.substring(pm.end()));
                while (m.find()) {
                    String ref = m.group(1).substring(1);
                    if (!ref.equals(pkg)) {
                        to.add(ref);
                    }
                }
            }
        }
        return deps;
    }
}
