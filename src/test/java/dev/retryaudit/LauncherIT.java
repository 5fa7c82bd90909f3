package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bin/retry-audit} as a user would: its output and exit codes are those of
 * {@code java -jar}, the first audit leaves a class archive that later runs map, and a stale or
 * missing archive never shows on stdout.
 */
class LauncherIT {
    private static final Path LAUNCHER = Path.of("bin/retry-audit");
    private static final Path JAR = Path.of("target/retry-audit.jar");
    private static final String JAVA_HOME = System.getProperty("java.home");

    @TempDir
    Path tmp;

    private Path cache;
    private Path jar;

    @BeforeEach
    void copyTheJar() throws IOException {
        cache = tmp.resolve("cache");
        jar = tmp.resolve("retry-audit.jar");
        Files.copy(JAR, jar);
    }

    private JarIT.Run launcher(Map<String, String> env, byte[] stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("JAVA_HOME", JAVA_HOME);
        pb.environment().put("RETRY_AUDIT_JAR", jar.toString());
        pb.environment().put("RETRY_AUDIT_CACHE", cache.toString());
        pb.environment().remove("RETRY_AUDIT_JAVA_OPTS");
        pb.environment().remove("RETRY_AUDIT_CDS");
        pb.environment().putAll(env);
        return JarIT.exec(pb, stdin);
    }

    private JarIT.Run javaJar(byte[] stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(JAVA_HOME, "bin", "java").toString(), "-jar", jar.toString()));
        cmd.addAll(List.of(args));
        return JarIT.exec(new ProcessBuilder(cmd), stdin);
    }

    private List<Path> archives() throws IOException {
        if (!Files.isDirectory(cache)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(cache)) {
            return s.sorted().toList();
        }
    }

    @Test
    void theFirstAuditWritesTheArchiveAndEveryRunPrintsWhatJavaJarPrints() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(expected.exit()).isEqualTo(2);

        JarIT.Run first = launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(first).isEqualTo(expected);
        assertThat(archives()).singleElement().satisfies(a -> {
            assertThat(a.getFileName().toString()).endsWith(".jsa");
            assertThat(Files.size(a)).isPositive();
        });

        JarIT.Run second = launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(second).isEqualTo(expected);
        assertThat(archives()).hasSize(1);
        JarIT.Run logged = launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", "-Xlog:class+load=info:stderr"), new byte[0],
                "audit", "examples/checkout-spans.jsonl");
        assertThat(logged.out()).isEqualTo(expected.out());
        assertThat(logged.err()).contains("dev.retryaudit.cli.Main source: shared objects file (top)");

        byte[] spans = Files.readAllBytes(Path.of("examples/checkout-spans.jsonl"));
        assertThat(launcher(Map.of(), spans, "audit", "--format", "text", "-"))
                .isEqualTo(javaJar(spans, "audit", "--format", "text", "-"));
    }

    @Test
    void exitCodesAndDiagnosticsPassThrough() throws Exception {
        for (String[] args : List.of(new String[] {"audit", "examples/checkout-operations.json"},
                new String[] {"audit", "--bogus"}, new String[] {"--version"}, new String[] {"rules"},
                new String[] {"audit", "no/such/file.jsonl"})) {
            assertThat(launcher(Map.of(), new byte[0], args)).as(String.join(" ", args)).isEqualTo(javaJar(new byte[0], args));
        }
        byte[] bad = "{\"operation_id\":\"a\"".getBytes(StandardCharsets.UTF_8);
        JarIT.Run r = launcher(Map.of(), bad, "audit", "--input-format", "spans");
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r).isEqualTo(javaJar(bad, "audit", "--input-format", "spans"));
    }

    @Test
    void onlyAnAuditWritesTheArchive() throws Exception {
        assertThat(launcher(Map.of(), new byte[0], "rules").exit()).isZero();
        assertThat(archives()).isEmpty();
    }

    @Test
    void aNewJarGetsANewArchiveAndTheOldOneIsNeverShown() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", "examples/checkout-spans.jsonl");
        launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl");
        Path old = archives().get(0);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));

        assertThat(launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl")).isEqualTo(expected);
        assertThat(archives()).hasSize(2).contains(old);

        // An archive the JVM cannot use (here: not an archive at all) is skipped without a word.
        for (Path a : archives()) {
            a.toFile().setWritable(true);
            Files.writeString(a, "not a class archive");
        }
        assertThat(launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl")).isEqualTo(expected);
    }

    @Test
    void classSharingOffAndTheCollectorOfOnesOwnChoice() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(launcher(Map.of("RETRY_AUDIT_CDS", "off"), new byte[0], "audit", "examples/checkout-spans.jsonl"))
                .isEqualTo(expected);
        assertThat(archives()).isEmpty();
        assertThat(launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", "-XX:+UseG1GC -Xmx64m"), new byte[0],
                "audit", "examples/checkout-spans.jsonl")).isEqualTo(expected);
    }

    @Test
    void aMissingJarIsAOneLineError() throws Exception {
        JarIT.Run r = launcher(Map.of("RETRY_AUDIT_JAR", tmp.resolve("none.jar").toString()), new byte[0], "rules");
        assertThat(r.exit()).isEqualTo(70);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("retry-audit: error: no jar at " + tmp.resolve("none.jar")
                + "; set RETRY_AUDIT_JAR or build it with ./mvnw package\n");
    }
}
