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
 * {@code java -jar}, the first audit leaves a checked class archive that later runs map, and an
 * archive that is stale, missing, cut short, empty, foreign or impossible to write never shows on
 * stdout, in the exit code or as a JVM error file in the working directory.
 */
class LauncherIT {
    private static final Path LAUNCHER = Path.of("bin/retry-audit");
    private static final Path JAR = Path.of("target/retry-audit.jar");
    private static final String JAVA_HOME = System.getProperty("java.home");
    private static final String SPANS = "examples/checkout-spans.jsonl";

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
        return JarIT.exec(launcherCommand(env, cmd.toArray(String[]::new)), stdin);
    }

    private ProcessBuilder launcherCommand(Map<String, String> env, String... cmd) {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("JAVA_HOME", JAVA_HOME);
        pb.environment().put("RETRY_AUDIT_JAR", jar.toString());
        pb.environment().put("RETRY_AUDIT_CACHE", cache.toString());
        pb.environment().remove("RETRY_AUDIT_JAVA_OPTS");
        pb.environment().remove("RETRY_AUDIT_CDS");
        pb.environment().putAll(env);
        return pb;
    }

    private JarIT.Run javaJar(byte[] stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(JAVA_HOME, "bin", "java").toString(), "-jar", jar.toString()));
        cmd.addAll(List.of(args));
        return JarIT.exec(new ProcessBuilder(cmd), stdin);
    }

    /** The archives in the cache, without the checksums beside them. */
    private List<Path> archives() throws IOException {
        return cacheFiles().stream().filter(p -> p.getFileName().toString().endsWith(".jsa")).toList();
    }

    private List<Path> cacheFiles() throws IOException {
        if (!Files.isDirectory(cache)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(cache)) {
            return s.sorted().toList();
        }
    }

    private static Path checksum(Path archive) {
        return archive.resolveSibling(archive.getFileName() + ".cksum");
    }

    /** The JVM error files in the working directory, where {@code java} would leave one by default. */
    private static List<String> errorFiles() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(""))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hs_err_pid")).toList();
        }
    }

    /** The first audit's archive, after checking that a second run prints what {@code java -jar} does. */
    private Path writeTheArchive(JarIT.Run expected) throws Exception {
        assertThat(launcher(Map.of(), new byte[0], "audit", SPANS)).isEqualTo(expected);
        assertThat(archives()).hasSize(1);
        return archives().get(0);
    }

    private static void replace(Path file, byte[] content) throws IOException {
        file.toFile().setWritable(true);
        Files.write(file, content);
    }

    private static byte[] firstBytes(Path file, long n) throws IOException {
        return java.util.Arrays.copyOf(Files.readAllBytes(file), (int) n);
    }

    /** Gives {@code archive} the content {@code bytes} and a checksum beside it that agrees. */
    private static void forge(Path archive, byte[] bytes) throws Exception {
        replace(archive, bytes);
        replace(checksum(archive), cksum(archive).getBytes(StandardCharsets.US_ASCII));
    }

    /** The line that {@code cksum} writes for {@code file}: its checksum and size. */
    private static String cksum(Path file) throws Exception {
        Process p = new ProcessBuilder("cksum").redirectInput(file.toFile()).start();
        String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(p.waitFor()).isZero();
        return line;
    }

    @Test
    void theFirstAuditWritesTheArchiveAndEveryRunPrintsWhatJavaJarPrints() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(expected.exit()).isEqualTo(2);

        JarIT.Run first = launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(first).isEqualTo(expected);
        assertThat(archives()).singleElement().satisfies(a -> {
            assertThat(Files.size(a)).isPositive();
            // its checksum and size, as cksum gives them, beside it
            assertThat(Files.readString(checksum(a))).isEqualTo(cksum(a)).endsWith(" " + Files.size(a) + "\n");
        });
        assertThat(cacheFiles()).hasSize(2);

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

    /** A JDK beside this one that writes an AOT cache (JDK 25 and later), or null: its release file says. */
    private static Path aotJdk() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (Stream<Path> s = Files.list(jvms)) {
            for (Path home : s.sorted().toList()) {
                Path release = home.resolve("release");
                if (Files.isRegularFile(release) && Files.isExecutable(home.resolve("bin/java"))) {
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)")
                            .matcher(Files.readString(release));
                    if (m.find() && Integer.parseInt(m.group(1)) >= 25) {
                        return home;
                    }
                }
            }
        }
        return null;
    }

    @Test
    void askedForAnAotCacheAJdkThatHasOneWritesOneThatLaterRunsUseAndAnOlderOneTheArchive() throws Exception {
        // This JDK (17) refuses -XX:AOTCacheOutput: it gets a class archive of its own, used as the default's.
        JarIT.Run expected17 = javaJar(new byte[0], "audit", SPANS);
        assertThat(launcher(Map.of("RETRY_AUDIT_CDS", "aot"), new byte[0], "audit", SPANS)).isEqualTo(expected17);
        assertThat(archives()).singleElement().satisfies(a -> assertThat(a.getFileName().toString()).startsWith("aot-"));
        assertThat(launcher(Map.of("RETRY_AUDIT_CDS", "aot"), new byte[0], "audit", SPANS)).isEqualTo(expected17);
        assertThat(cacheFiles()).hasSize(2);

        Path jdk = aotJdk();
        org.junit.jupiter.api.Assumptions.assumeTrue(jdk != null, "no JDK 25 or later in /usr/lib/jvm");
        Map<String, String> aot = Map.of("JAVA_HOME", jdk.toString(), "RETRY_AUDIT_CDS", "aot");
        List<String> java = List.of(jdk.resolve("bin/java").toString(), "-jar", jar.toString(), "audit", SPANS);
        JarIT.Run expected = JarIT.exec(new ProcessBuilder(java), new byte[0]);
        assertThat(expected.exit()).isEqualTo(2);
        // The default on that JDK too is the class archive.
        assertThat(launcher(Map.of("JAVA_HOME", jdk.toString()), new byte[0], "audit", SPANS)).isEqualTo(expected);
        assertThat(archives()).hasSize(2);

        assertThat(launcher(aot, new byte[0], "audit", SPANS)).isEqualTo(expected);
        List<Path> caches = cacheFiles().stream().filter(p -> p.getFileName().toString().endsWith(".aot")).toList();
        assertThat(caches).singleElement().satisfies(a -> assertThat(Files.readString(checksum(a))).isEqualTo(cksum(a)));
        JarIT.Run logged = launcher(Map.of("JAVA_HOME", jdk.toString(), "RETRY_AUDIT_CDS", "aot", "RETRY_AUDIT_JAVA_OPTS",
                "-Xlog:class+load=info:stderr"), new byte[0], "audit", SPANS);
        assertThat(logged.out()).isEqualTo(expected.out());
        assertThat(logged.err()).contains("dev.retryaudit.cli.Main source: shared objects file");

        // A cache cut short, with a checksum that agrees, is refused by the JVM without a word on stdout or stderr.
        forge(caches.get(0), firstBytes(caches.get(0), Files.size(caches.get(0)) / 2));
        assertThat(launcher(aot, new byte[0], "audit", SPANS)).isEqualTo(expected);
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

        // An archive the JVM cannot use (here: not an archive at all) is skipped without a word, and rewritten.
        for (Path a : archives()) {
            replace(a, "not a class archive".getBytes(StandardCharsets.US_ASCII));
        }
        assertThat(launcher(Map.of(), new byte[0], "audit", "examples/checkout-spans.jsonl")).isEqualTo(expected);
        assertThat(launcher(Map.of(), new byte[0], "rules")).isEqualTo(javaJar(new byte[0], "rules"));
    }

    @Test
    void anArchiveCutShortOrEmptyIsNeverMappedAndTheNextAuditWritesItAgain() throws Exception {
        List<String> before = errorFiles();
        JarIT.Run expected = javaJar(new byte[0], "audit", SPANS);
        Path archive = writeTheArchive(expected);

        for (byte[] cut : List.of(firstBytes(archive, Files.size(archive) / 2), new byte[0])) {
            replace(archive, cut);
            // the JVM would die of SIGBUS mapping the first, with its error report on stdout
            assertThat(launcher(Map.of(), new byte[0], "--version")).isEqualTo(javaJar(new byte[0], "--version"));
            assertThat(launcher(Map.of(), new byte[0], "audit", SPANS)).isEqualTo(expected);
            assertThat(Files.size(archive)).isPositive();
            assertThat(Files.readString(checksum(archive))).isEqualTo(cksum(archive));
        }
        assertThat(errorFiles()).isEqualTo(before);
    }

    @Test
    void anArchiveThatCrashesJavaDespiteItsChecksumIsDeletedAndTheRunMadeAgainWithoutIt() throws Exception {
        List<String> before = errorFiles();
        JarIT.Run expected = javaJar(new byte[0], "audit", SPANS);
        Path archive = writeTheArchive(expected);

        // a cache copied whole but cut short: its checksum agrees with what is left
        forge(archive, firstBytes(archive, Files.size(archive) / 2));
        JarIT.Run run = launcher(Map.of(), new byte[0], "audit", SPANS);

        assertThat(run.exit()).isEqualTo(expected.exit());
        assertThat(run.out()).isEqualTo(expected.out());
        assertThat(run.err()).isEqualTo("retry-audit: warning: java crashed on the class archive " + archive
                + " (exit 134); it is deleted, running without it\n");
        assertThat(cacheFiles()).isEmpty();
        assertThat(errorFiles()).isEqualTo(before);
        // and stdin, which java never read, still reaches the run made again
        byte[] spans = Files.readAllBytes(Path.of(SPANS));
        writeTheArchive(expected);
        forge(archive, firstBytes(archive, 4096));
        assertThat(launcher(Map.of(), spans, "audit", "-").out()).isEqualTo(javaJar(spans, "audit", "-").out());
    }

    @Test
    void anArchiveOfAnotherJarWithItsOwnChecksumIsLeftUnusedWithoutAWord() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", SPANS);
        Path other = tmp.resolve("other.jar");
        Files.copy(jar, other);
        Files.setLastModifiedTime(other, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        Path archive = writeTheArchive(expected);
        launcher(Map.of("RETRY_AUDIT_JAR", other.toString()), new byte[0], "audit", SPANS);
        Path foreign = archives().stream().filter(a -> !a.equals(archive)).findFirst().orElseThrow();

        replace(archive, Files.readAllBytes(foreign));
        replace(checksum(archive), Files.readAllBytes(checksum(foreign)));
        assertThat(launcher(Map.of(), new byte[0], "audit", SPANS)).isEqualTo(expected);
        assertThat(launcher(Map.of(), new byte[0], "rules")).isEqualTo(javaJar(new byte[0], "rules"));

        // where sharing is required, java refuses it before the program runs: the run is made again without it
        JarIT.Run required = launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", "-Xshare:on"), new byte[0], "audit", SPANS);
        assertThat(required.out()).isEqualTo(expected.out());
        assertThat(required.exit()).isEqualTo(expected.exit());
        assertThat(required.err()).endsWith("retry-audit: warning: java could not use the class archive " + archive
                + " (exit 1); it is deleted, running without it\n");
        assertThat(Files.exists(archive)).isFalse();
    }

    @Test
    void anArchiveThatCannotBeWrittenChangesNeitherTheOutputNorTheExitCode() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", SPANS);
        List<String> before = errorFiles();
        // a file size limit below the archive's: the write fails as on a full disk, without privileges
        JarIT.Run limited = JarIT.exec(launcherCommand(Map.of(), "sh", "-c", "ulimit -f 256; exec sh \"$0\" \"$@\"",
                LAUNCHER.toString(), "audit", SPANS), new byte[0]);
        assertThat(limited).isEqualTo(expected);
        assertThat(cacheFiles()).isEmpty();

        // a cache on a file system of 64 KiB, where one can be mounted (as root): too small to try at all
        Files.createDirectories(cache);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", cache.toString())
                .redirectErrorStream(true).start();
        mount.getInputStream().readAllBytes();
        org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0, "no tmpfs can be mounted here");
        try {
            assertThat(launcher(Map.of(), new byte[0], "audit", SPANS)).isEqualTo(expected);
            assertThat(cacheFiles()).isEmpty();
        } finally {
            new ProcessBuilder("umount", cache.toString()).start().waitFor();
        }
        assertThat(errorFiles()).isEqualTo(before);
    }

    @Test
    void jvmLogsOfTheUsersOptionsGoToStderrAndTheOptionsAreNeverGlobbed() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", SPANS);
        for (String opts : List.of("-Xlog:gc", "-Xlog:gc*", "-Xlog:gc:stdout", "-Xlog:gc::uptime", "-Xlog:gc=info:#0",
                "-verbose:gc", "-Xlog")) {
            JarIT.Run r = launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", opts), new byte[0], "audit", SPANS);
            assertThat(r.out()).as(opts).isEqualTo(expected.out());
            assertThat(r.exit()).as(opts).isEqualTo(expected.exit());
            assertThat(r.err()).as(opts).contains("Using Serial");
        }
        JarIT.Run star = launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", " * "), new byte[0], "rules");
        assertThat(star.out()).isEmpty();
        assertThat(star.err()).contains("Could not find or load main class *");
    }

    /** The TieredStopAtLevel the launcher's JVM ran with, as -XX:+PrintFlagsFinal prints it on stderr. */
    private int compilerLevel(String... args) throws Exception {
        JarIT.Run r = launcher(Map.of("RETRY_AUDIT_CDS", "off", "RETRY_AUDIT_JAVA_OPTS", "-XX:+PrintFlagsFinal"), new byte[0], args);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("TieredStopAtLevel\\s+=\\s+(\\d)").matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void theQuickCompilerIsChosenByTheInputFilesNotByTheReportsOwn() throws Exception {
        // Sparse files of 300 MiB: no disk, but their size; the input is rejected at its first byte.
        Path big = tmp.resolve("big.jsonl");
        Path report = tmp.resolve("report.json");
        for (Path p : List.of(big, report)) {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(p.toFile(), "rw")) {
                f.write('x');
                f.setLength(300L << 20);
            }
        }
        assertThat(compilerLevel("audit", SPANS)).isEqualTo(1);
        assertThat(compilerLevel("audit", "--output", report.toString(), SPANS)).isEqualTo(1);
        assertThat(compilerLevel("audit", SPANS, big.toString())).isEqualTo(4);
    }

    @Test
    void classSharingOffAndTheCollectorOfOnesOwnChoice() throws Exception {
        JarIT.Run expected = javaJar(new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(launcher(Map.of("RETRY_AUDIT_CDS", "off"), new byte[0], "audit", "examples/checkout-spans.jsonl"))
                .isEqualTo(expected);
        assertThat(archives()).isEmpty();
        assertThat(launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", "-Xshare:off"), new byte[0], "audit", SPANS))
                .isEqualTo(expected);
        assertThat(archives()).isEmpty();
        assertThat(launcher(Map.of("RETRY_AUDIT_JAVA_OPTS", "-XX:+UseG1GC -Xmx64m"), new byte[0],
                "audit", "examples/checkout-spans.jsonl")).isEqualTo(expected);
    }

    @Test
    void aJavaHomeWithoutJavaIsAOneLineError() throws Exception {
        JarIT.Run r = launcher(Map.of("JAVA_HOME", "/nonexistent"), new byte[0], "rules");
        assertThat(r.exit()).isEqualTo(70);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("retry-audit: error: no java at /nonexistent/bin/java; set JAVA_HOME to a Java 17"
                + " or later, or unset it to use java on PATH\n");
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
