package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The plain jar is the module {@code dev.retryaudit}: it exports the API and the packages whose types the API
 * names, nothing else, provides the {@code ToolProvider}, and runs on the module path with its dependencies. The
 * shaded jar carries no module descriptor, so {@code java -jar} reads it as one class path entry.
 */
class ModuleIT {
    private static final Path LIBRARY = Path.of("target/retry-audit-" + System.getProperty("project.version") + ".jar");
    private static final Path SHADED = Path.of("target/retry-audit.jar");

    /** The runtime dependencies, as the build wrote them. */
    private static List<Path> dependencies() throws IOException {
        String path = Files.readString(Path.of("target/runtime-classpath.txt")).strip();
        return Stream.of(path.split(File.pathSeparator)).map(Path::of).toList();
    }

    private static Path[] modulePath() throws IOException {
        List<Path> all = new ArrayList<>(List.of(LIBRARY));
        all.addAll(dependencies());
        return all.toArray(Path[]::new);
    }

    @Test
    void theDescriptorExportsTheApiAndTheTypesItNamesOnly() {
        ModuleDescriptor d = ModuleFinder.of(LIBRARY).find("dev.retryaudit").orElseThrow().descriptor();
        assertThat(d.isAutomatic()).isFalse();
        assertThat(d.exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
        assertThat(d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("dev.retryaudit.api", "dev.retryaudit.api.split", "dev.retryaudit.model",
                        "dev.retryaudit.rules");
        assertThat(d.opens()).allSatisfy(o -> assertThat(o.isQualified()).isTrue());
        assertThat(d.provides().stream().collect(Collectors.toMap(ModuleDescriptor.Provides::service,
                ModuleDescriptor.Provides::providers))).containsOnly(
                        Map.entry(ToolProvider.class.getName(), List.of("dev.retryaudit.cli.RetryAuditToolProvider")),
                        Map.entry("dev.retryaudit.rules.engine.ListedFamily", List.of("dev.retryaudit.probe.ProbeCatalogue")));
        assertThat(d.uses()).containsExactly("dev.retryaudit.rules.engine.ListedFamily");
        assertThat(d.packages()).contains("dev.retryaudit.json", "dev.retryaudit.rules.engine",
                "dev.retryaudit.cli", "dev.retryaudit.mcp");
    }

    @Test
    void theToolProviderIsFoundInAModuleLayer() throws IOException {
        ModuleFinder finder = ModuleFinder.of(modulePath());
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of("dev.retryaudit"));
        ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
        ToolProvider tool = ServiceLoader.load(layer, ToolProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(t -> t.name().equals("retry-audit")).findFirst().orElseThrow();
        assertThat(tool.getClass().getModule().getName()).isEqualTo("dev.retryaudit");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = tool.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "audit", "examples/checkout-operations.json");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"format\": \"operations\"");
    }

    @Test
    void theLibraryRunsOnTheModulePathAsTheShadedJarRuns() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String modulePath = Stream.of(modulePath()).map(Path::toString)
                .collect(Collectors.joining(File.pathSeparator));
        Path zst = Files.createTempFile("module-it", ".jsonl.zst");
        Files.write(zst, dev.retryaudit.input.Compressed.zstd(Files.readAllBytes(Path.of("examples/checkout-spans.jsonl"))));
        zst.toFile().deleteOnExit();
        for (String[] args : List.of(new String[] {"audit", "--format", "sarif", "examples/checkout-spans.jsonl"},
                new String[] {"audit", "--format", "text", zst.toString()},
                new String[] {"audit", "--limit-operations", "1", "examples/checkout-spans.jsonl"},
                new String[] {"explain", "retry-after/early"}, new String[] {"schema", "report"})) {
            List<String> modular = new ArrayList<>(List.of(java, "--module-path", modulePath, "--module",
                    "dev.retryaudit/dev.retryaudit.cli.Main"));
            modular.addAll(List.of(args));
            List<String> shaded = new ArrayList<>(List.of(java, "-jar", SHADED.toString()));
            shaded.addAll(List.of(args));
            String[] a = exec(modular);
            String[] b = exec(shaded);
            assertThat(a).as(String.join(" ", args)).containsExactly(b);
        }
    }

    @Test
    void theShadedJarHasNoModuleDescriptor() throws IOException {
        try (ZipFile jar = new ZipFile(SHADED.toFile())) {
            assertThat(jar.stream().map(e -> e.getName()).filter(n -> n.endsWith("module-info.class"))).isEmpty();
        }
        try (ZipFile jar = new ZipFile(LIBRARY.toFile())) {
            assertThat(jar.getEntry("module-info.class")).isNotNull();
        }
    }

    /** Exit code, stdout and stderr of a command that reads nothing. */
    private static String[] exec(List<String> cmd) throws IOException, InterruptedException {
        Path err = Files.createTempFile("module-it", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            return new String[] {Integer.toString(p.exitValue()), out, Files.readString(err)};
        } finally {
            Files.delete(err);
        }
    }
}
