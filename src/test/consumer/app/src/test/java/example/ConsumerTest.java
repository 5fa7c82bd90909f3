package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Finding;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The library as a user gets it from a Maven repository: resolved from the repository the build deployed it to,
 * it audits a trace through its API; the repository holds what Maven Central asks for; the jar is the module
 * docs/api.md describes, and the command-line jar holds what it says.
 */
class ConsumerTest {
    private static final Path ROOT = Path.of(System.getProperty("retry-audit.root")).normalize();
    private static final Path DEPLOYED = Path.of(System.getProperty("retry-audit.deployed"));
    private static final String VERSION = System.getProperty("retry-audit.version");
    private static final Path CHECKOUT = ROOT.resolve("examples/checkout-spans.jsonl");
    /** The packages docs/api.md names public, which the module exports and the javadoc documents. */
    private static final Set<String> EXPORTED = Set.of("dev.retryaudit.api", "dev.retryaudit.api.split",
            "dev.retryaudit.model", "dev.retryaudit.rules");

    /** The library jar this program was compiled against and runs with. */
    private static Path libraryJar() throws URISyntaxException {
        return Path.of(RetryAudit.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void theLibraryAuditsATraceThroughItsApi() throws Exception {
        AuditResult result = ConsumerAudit.audit(List.of(CHECKOUT));
        assertEquals(1, result.findings().size());
        Finding f = result.findings().get(0);
        assertEquals("timeout-replay/unreconciled", f.rule());
        assertEquals("cart-c-1844", f.operation());
        assertEquals(2, f.attempt());
        assertFalse(RetryAudit.defaults().passed(result));
        assertTrue(RetryAudit.defaults().summary(result).startsWith("retry-audit: 2 operations, 4 attempts, 2 retries; 1 error"),
                RetryAudit.defaults().summary(result));
    }

    @Test
    void theLibraryWritesTheReportTheCommandLineJarPrints() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                ROOT.resolve("target/retry-audit.jar").toString(), "audit", "--format", "text", CHECKOUT.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.waitFor(), "the command line's exit code for a finding at --fail-on");
        assertEquals(printed, ConsumerAudit.text(ConsumerAudit.audit(List.of(CHECKOUT))));
    }

    @Test
    void theLibraryIsResolvedFromTheRepositoryItWasDeployedTo() throws Exception {
        Path jar = libraryJar();
        assertEquals("retry-audit-" + VERSION + ".jar", jar.getFileName().toString());
        Path origin = jar.resolveSibling("_remote.repositories");
        String remote = Files.exists(origin) ? Files.readString(origin) : "";
        assertTrue(remote.contains("retry-audit-" + VERSION + ".jar>retry-audit-test="),
                jar + " was not downloaded from the file repository but found where it was installed ("
                        + remote.strip().replace('\n', ' ') + "): run this build with a local repository of its own, "
                        + "-Dmaven.repo.local=target/consumer-repository");
        assertEquals(-1, Files.mismatch(jar, DEPLOYED.resolve(path("jar"))));
    }

    @Test
    void theRepositoryHoldsWhatMavenCentralAsksFor() throws IOException {
        for (String file : List.of("jar", "pom", "sources.jar", "javadoc.jar")) {
            Path p = DEPLOYED.resolve(path(file));
            assertTrue(Files.size(p) > 0, p.toString());
            assertTrue(Files.exists(Path.of(p + ".sha1")) && Files.exists(Path.of(p + ".md5")), p + " has no checksums");
        }
        String pom = Files.readString(DEPLOYED.resolve(path("pom")));
        for (String element : List.of("<name>", "<description>", "<url>", "<licenses>", "<developers>", "<scm>",
                "<connection>", "<developerConnection>")) {
            assertTrue(pom.contains(element), "the deployed pom has no " + element);
        }
        assertTrue(Files.exists(DEPLOYED.resolve("dev/retryaudit/retry-audit/maven-metadata.xml")));
        try (JarFile sources = new JarFile(DEPLOYED.resolve(path("sources.jar")).toFile())) {
            assertTrue(sources.getEntry("module-info.java") != null);
            assertTrue(sources.getEntry("dev/retryaudit/api/RetryAudit.java") != null);
        }
        // The javadoc documents the exported packages, and only those.
        try (JarFile javadoc = new JarFile(DEPLOYED.resolve(path("javadoc.jar")).toFile())) {
            Set<String> documented = javadoc.stream().map(JarEntry::getName)
                    .filter(n -> n.matches(".*dev/retryaudit/[a-z/]+/[A-Z][A-Za-z.]*\\.html"))
                    .map(n -> n.replaceAll(".*(dev/retryaudit/[a-z/]+)/[A-Z].*", "$1").replace('/', '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(EXPORTED, documented);
            assertTrue(javadoc.getEntry("index.html") != null);
        }
    }

    @Test
    void theJarIsTheModuleDocsApiDescribes() throws Exception {
        ModuleDescriptor module = ModuleFinder.of(libraryJar()).find("dev.retryaudit").orElseThrow().descriptor();
        Set<String> exports = new TreeSet<>();
        for (ModuleDescriptor.Exports e : module.exports()) {
            assertFalse(e.isQualified(), e.toString());
            exports.add(e.source());
        }
        assertEquals(EXPORTED, exports);
        // The one service a user can look up; a service of the module's own internal packages (the probe's verdicts
        // listed through the engine's catalogue) is no part of the API.
        assertEquals(List.of("java.util.spi.ToolProvider"), module.provides().stream()
                .map(ModuleDescriptor.Provides::service)
                .filter(s -> !module.packages().contains(s.substring(0, s.lastIndexOf('.')))
                        || exports.contains(s.substring(0, s.lastIndexOf('.'))))
                .toList());
        assertTrue(java.util.spi.ToolProvider.findFirst("retry-audit").isPresent());
    }

    @Test
    void theCommandLineJarHoldsItsDependenciesAndNoModuleDescriptor() throws IOException {
        try (JarFile shaded = new JarFile(ROOT.resolve("target/retry-audit.jar").toFile())) {
            assertEquals("dev.retryaudit.cli.Main", shaded.getManifest().getMainAttributes().getValue("Main-Class"));
            List<String> names = new ArrayList<>();
            shaded.stream().map(JarEntry::getName).forEach(names::add);
            assertTrue(names.stream().noneMatch(n -> n.endsWith("module-info.class")), "a module descriptor");
            assertTrue(names.stream().noneMatch(n -> n.matches("META-INF/[^/]+\\.(SF|DSA|RSA)")), "a signature");
            for (String inside : List.of("dev/retryaudit/api/RetryAudit.class", "picocli/CommandLine.class",
                    "com/fasterxml/jackson/core/JsonFactory.class", "com/fasterxml/jackson/databind/ObjectMapper.class",
                    "io/modelcontextprotocol/server/McpServer.class", "org/eclipse/jetty/server/Server.class",
                    "com/google/protobuf/Message.class", "io/airlift/compress/zstd/ZstdInputStream.class",
                    "io/opentelemetry/proto/trace/v1/Span.class")) {
                assertTrue(names.contains(inside), "no " + inside);
            }
            // Of aircompressor only the zstd decoder; of the OTLP definitions only traces, without gRPC stubs.
            assertTrue(names.stream().filter(n -> n.startsWith("io/airlift/compress/") && n.endsWith(".class"))
                    .allMatch(n -> n.startsWith("io/airlift/compress/zstd/") || n.indexOf('/', "io/airlift/compress/".length()) < 0));
            assertTrue(names.stream().filter(n -> n.startsWith("io/opentelemetry/proto/") && n.endsWith(".class"))
                    .allMatch(n -> n.matches("io/opentelemetry/proto/(trace|common|resource|collector/trace)/.*")
                            && !n.contains("TraceServiceGrpc")));
        }
    }

    /** The deployed file of the library with the given classifier and extension ("jar", "sources.jar", "pom"). */
    private static String path(String tail) {
        String base = "dev/retryaudit/retry-audit/" + VERSION + "/retry-audit-" + VERSION;
        return tail.equals("jar") || tail.equals("pom") ? base + "." + tail : base + "-" + tail;
    }
}
