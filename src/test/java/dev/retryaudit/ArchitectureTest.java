package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages show the flow of data and never import upwards: every reference from one package of
 * {@code src/main} to another (imports and qualified names, comments left out) goes to a lower
 * layer of the package table in {@code docs/architecture.md}, so there is no cycle, and jdeps finds none
 * in the compiled classes either. Every package says whether it is API or internal. No source reaches
 * members by reflection, and no compiled constructor or method takes more than 10 parameters.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package (dev\\.retryaudit[\\w.]*);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.retryaudit((?:\\.[a-z]\\w*)*)\\.[A-Z]");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    private static final Path SPARK_MAIN = Path.of("spark/src/main/java");
    private static final Path CLASSES = Path.of("target/classes");
    private static final Pattern REFLECTION = Pattern.compile(
            "\\b(privateLookupIn|setAccessible|LambdaMetafactory|findConstructor|getDeclared\\w*)\\b");

    private static final Path MAP = Path.of("docs/architecture.md");

    /** The front ends, which go through the API's door. */
    private static final List<String> FRONT_ENDS = List.of("cli", "mcp", "probe", "probe.suite");
    private static final Pattern ROW = Pattern.compile("^\\| `([\\w.*]+)` \\| (\\d+) \\| (\\w*) *\\| .+\\|$", Pattern.MULTILINE);

    /** A package's row in the table of docs/architecture.md: its layer and its side ("" for none). */
    private record Row(int layer, String side) {
    }

    /** The table of docs/architecture.md by package; {@code rules.*} stands for every family of rules. */
    private static Map<String, Row> map() throws IOException {
        Map<String, Row> rows = new TreeMap<>();
        Matcher m = ROW.matcher(Files.readString(MAP));
        while (m.find()) {
            rows.put(m.group(1), new Row(Integer.parseInt(m.group(2)), m.group(3)));
        }
        assertThat(rows).as("the package table of %s", MAP).containsKeys("model", "input", "rules", "rules.*", "api", "cli");
        return rows;
    }

    @Test
    void noPackageImportsOneAboveIt() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        Map<String, Row> map = map();
        List<String> upward = new ArrayList<>();
        deps.forEach((from, tos) -> tos.forEach(to -> {
            if (row(map, to).layer() >= row(map, from).layer()) {
                upward.add(from + " -> " + to);
            }
        }));
        assertThat(deps).containsKeys("model", "rules", "rules.engine", "api", "cli");
        assertThat(upward).as("references to a package in the same or a higher layer").isEmpty();
        assertThat(deps.get("report")).as("reports are written from findings, not from the reading of inputs")
                .doesNotContain("input");
        List<String> across = new ArrayList<>();
        deps.forEach((from, tos) -> tos.forEach(to -> {
            String a = row(map, from).side();
            String b = row(map, to).side();
            if (!a.isEmpty() && !b.isEmpty() && !a.equals(b)) {
                across.add(from + " -> " + to);
            }
        }));
        assertThat(across).as("the reading of inputs and the rules know nothing of each other").isEmpty();
    }

    /**
     * One door: the front ends read inputs, configure audits and learn of their errors only through the API
     * faces ({@code api}, {@code api.split}, {@code model}, {@code rules}): none references the reading of inputs
     * ({@code input} and below), the files that configure an audit ({@code config}), what the library lends the split protocol
     * ({@code api.access}), or an internal package ({@code *.internal}).
     */
    @Test
    void theFrontEndsGoThroughTheApi() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        List<String> past = new ArrayList<>();
        for (String front : FRONT_ENDS) {
            assertThat(deps).containsKey(front);
            for (String to : deps.get(front)) {
                if (to.equals("input") || to.startsWith("input.") || to.equals("config") || to.endsWith(".internal")
                        || to.equals("api.access")
                        || to.equals("internal")) {
                    past.add(front + " -> " + to);
                }
            }
        }
        assertThat(past).as("front ends that reach past the API").isEmpty();
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

    @Test
    void everyRowOfTheMapIsAPackage() throws IOException {
        Set<String> packages = dependencies().keySet();
        List<String> stale = map().keySet().stream()
                .filter(p -> !packages.contains(p) && !(p.equals("rules.*") && packages.stream().anyMatch(q -> q.startsWith("rules."))))
                .toList();
        assertThat(stale).as("rows of %s naming no package", MAP).isEmpty();
    }

    @Test
    void theModuleExportsThePackagesTheMapMarksApi() throws IOException {
        Set<String> api = new TreeSet<>();
        Matcher m = Pattern.compile("^\\| `([\\w.]+)` \\|[^\\n]*\\(API[):]", Pattern.MULTILINE).matcher(Files.readString(MAP));
        while (m.find()) {
            api.add(m.group(1));
        }
        Set<String> exported = new TreeSet<>();
        Matcher e = Pattern.compile("^\\s*exports dev\\.retryaudit\\.([\\w.]+);", Pattern.MULTILINE)
                .matcher(Files.readString(MAIN.resolve("module-info.java")));
        while (e.find()) {
            exported.add(e.group(1));
        }
        assertThat(exported).isEqualTo(api);
    }

    @Test
    void noSourceReflectsIntoTheProjectsOwnMembers() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : List.of(MAIN, SPARK_MAIN)) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = REFLECTION.matcher(Files.readString(f));
                    while (m.find()) {
                        found.add(f + ": " + m.group());
                    }
                }
            }
        }
        assertThat(found).as("reflection into members: the model is built by builders the compiler checks").isEmpty();
    }

    @Test
    void noCompiledConstructorOrMethodTakesMoreThanTenParameters() throws Exception {
        List<String> wide = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLASSES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.class")).toList()) {
                String name = CLASSES.relativize(f).toString().replace(java.io.File.separatorChar, '.');
                Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()), false,
                        ArchitectureTest.class.getClassLoader());
                List<java.lang.reflect.Executable> members = new ArrayList<>(List.of(type.getDeclaredConstructors()));
                members.addAll(List.of(type.getDeclaredMethods()));
                for (java.lang.reflect.Executable m : members) {
                    if (m.getParameterCount() > 10) {
                        wide.add(type.getName() + "." + m.getName() + "(" + m.getParameterCount() + ")");
                    }
                }
            }
        }
        assertThat(wide).as("constructors and methods of target/classes over 10 parameters").isEmpty();
    }

    @Test
    void jdepsFindsNoCycleBetweenPackages() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err), "--multi-release", "17", "-verbose:package",
                "--ignore-missing-deps", "--module-path", modulePath(), "target/classes");
        assertThat(exit).as("jdeps on target/classes: %s", err).isZero();
        Map<String, Set<String>> deps = new TreeMap<>();
        Matcher m = Pattern.compile("^\\s*(dev\\.retryaudit[\\w.]*)\\s+->\\s+(dev\\.retryaudit[\\w.]*)\\s", Pattern.MULTILINE)
                .matcher(out.toString());
        while (m.find()) {
            if (!m.group(1).equals(m.group(2))) {
                deps.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
            }
        }
        assertThat(deps).as("packages jdeps saw").containsKeys("dev.retryaudit.cli", "dev.retryaudit.model");
        List<String> cycles = new ArrayList<>();
        for (String from : deps.keySet()) {
            if (reaches(deps, deps.get(from), from, new TreeSet<>())) {
                cycles.add(from);
            }
        }
        assertThat(cycles).as("packages on a cycle of references").isEmpty();
    }

    /** The jars the tests run with, where jdeps finds the modules that target/classes' module-info requires. */
    private static String modulePath() {
        String path = System.getProperty("jdk.module.path", "") + java.io.File.pathSeparator + System.getProperty("java.class.path");
        return Stream.of(path.split(java.io.File.pathSeparator)).filter(e -> e.endsWith(".jar"))
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    }

    private static boolean reaches(Map<String, Set<String>> deps, Set<String> next, String target, Set<String> seen) {
        for (String p : next) {
            if (p.equals(target) || seen.add(p) && reaches(deps, deps.getOrDefault(p, Set.of()), target, seen)) {
                return true;
            }
        }
        return false;
    }

    /** The row of {@code pkg}: its own, or the families' for a package under rules that has none. */
    private static Row row(Map<String, Row> map, String pkg) {
        Row r = map.get(pkg);
        if (r == null && pkg.startsWith("rules.")) {
            r = map.get("rules.*");
        }
        if (r == null) {
            throw new AssertionError("package dev.retryaudit." + pkg + " has no row in " + MAP);
        }
        return r;
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
