package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

class TunedJvmTest {
    private static final Path JAVA = Path.of("/jdk/bin/java");
    private static final Path JAR = Path.of("/opt/retry-audit.jar");
    private static final long MIB = 1L << 20;

    /** A file system where each name ending in .jsonl or .gz holds {@code bytes}, and nothing else is a file. */
    private static ToLongFunction<String> files(long bytes) {
        return name -> name.endsWith(".jsonl") || name.endsWith(".gz") ? bytes : -1;
    }

    /** The process's arguments of {@code java -jar JAR args}. */
    private static List<String> bare(List<String> args) {
        List<String> p = new ArrayList<>(List.of("-jar", "retry-audit.jar"));
        p.addAll(args);
        return p;
    }

    private static List<String> command(List<String> args, Map<String, String> env, long bytes) {
        return TunedJvm.command(() -> bare(args), env, args, () -> JAVA, () -> JAR, files(bytes)).orElse(null);
    }

    @Test
    void aLargeAuditOfABareJavaJarRunsWithTheLaunchersSettings() {
        List<String> args = List.of("audit", "--format", "text", "spans.jsonl");
        assertThat(command(args, Map.of(), 40 * MIB)).containsExactly("/jdk/bin/java", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-jar", "/opt/retry-audit.jar", "audit", "--format", "text", "spans.jsonl");
    }

    @Test
    void aBareServeRunsWithTheSerialCollectorAndASmallInitialHeap() {
        List<String> args = List.of("serve", "--idle", "5s", "--", "./run-tests");
        assertThat(command(args, Map.of(), 0)).containsExactly("/jdk/bin/java", "-XX:+UseSerialGC", "-Xms48m",
                "-jar", "/opt/retry-audit.jar", "serve", "--idle", "5s", "--", "./run-tests");
        assertThat(command(args, Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g"), 0)).isNull();
        assertThat(command(args, Map.of("RETRY_AUDIT_RELAUNCH", "off"), 0)).isNull();
        assertThat(command(List.of("serve", "--listen", "sp\uFFFDn"), Map.of(), 0)).isNull();
    }

    @Test
    void fromTwoHundredFiftySixMebibytesBothCompilersStay() {
        List<String> args = List.of("audit", "a.jsonl", "b.jsonl");
        assertThat(command(args, Map.of(), 128 * MIB)).containsExactly("/jdk/bin/java", "-XX:+UseSerialGC",
                "-jar", "/opt/retry-audit.jar", "audit", "a.jsonl", "b.jsonl");
        assertThat(command(args, Map.of(), 128 * MIB - 1)).contains("-XX:TieredStopAtLevel=1");
    }

    @Test
    void theInputIsCountedAsTheLauncherCountsIt() {
        ToLongFunction<String> sizes = name -> switch (name) {
            case "a.jsonl" -> 3 * MIB;
            case "b.json.gz", "c.ZST" -> MIB;
            case "policy.json" -> 100;
            default -> -1;
        };
        assertThat(TunedJvm.inputBytes(List.of("audit", "a.jsonl", "b.json.gz", "c.ZST", "--policy", "policy.json", "-"), sizes))
                .isEqualTo(3 * MIB + 8 * MIB + 8 * MIB + 100);
        assertThat(TunedJvm.inputBytes(List.of("audit", "-"), sizes)).isZero();
        // A report left by an earlier run is no input.
        assertThat(TunedJvm.inputBytes(List.of("audit", "--output", "a.jsonl", "c.ZST"), sizes)).isEqualTo(8 * MIB);
    }

    @Test
    void aSmallInputOrStandardInputRunsInThisJvm() {
        assertThat(command(List.of("audit", "spans.jsonl"), Map.of(), TunedJvm.FROM_BYTES - 1)).isNull();
        assertThat(command(List.of("audit", "spans.jsonl"), Map.of(), TunedJvm.FROM_BYTES)).isNotNull();
        assertThat(command(List.of("audit", "-"), Map.of(), 40 * MIB)).isNull();
        assertThat(command(List.of("audit", "spans.jsonl.gz"), Map.of(), TunedJvm.FROM_BYTES / 8)).isNotNull();
        // Neither a small input nor another command asks the process anything.
        java.util.function.Supplier<List<String>> unasked = () -> {
            throw new AssertionError("the process was asked for its arguments");
        };
        java.util.function.Supplier<Path> noPath = () -> {
            throw new AssertionError("the process was asked for its java or jar");
        };
        assertThat(TunedJvm.command(unasked, Map.of(), List.of("audit", "spans.jsonl"), noPath, noPath,
                files(TunedJvm.FROM_BYTES - 1))).isEmpty();
        assertThat(TunedJvm.command(unasked, Map.of(), List.of("rules"), noPath, noPath, files(40 * MIB))).isEmpty();
    }

    @Test
    void onlyTheAuditAndServeCommandsAreRelaunched() {
        assertThat(command(List.of("rules", "spans.jsonl"), Map.of(), 40 * MIB)).isNull();
        assertThat(command(List.of("mcp", "--allow-dir", "."), Map.of(), 40 * MIB)).isNull();
        assertThat(command(List.of("probe", "--", "curl", "URL"), Map.of(), 40 * MIB)).isNull();
        assertThat(command(List.of(), Map.of(), 40 * MIB)).isNull();
    }

    @Test
    void jvmSettingsChosenElsewhereAreKept() {
        List<String> args = List.of("audit", "spans.jsonl");
        List<String> withOption = new ArrayList<>(List.of("-Xmx2g"));
        withOption.addAll(bare(args));
        assertThat(TunedJvm.command(() -> withOption, Map.of(), args, () -> JAVA, () -> JAR, files(40 * MIB))).isEmpty();
        assertThat(TunedJvm.command(() -> List.of("-cp", "retry-audit.jar", "dev.retryaudit.cli.Main", "audit", "spans.jsonl"),
                Map.of(), args, () -> JAVA, () -> JAR, files(40 * MIB))).isEmpty();
        for (String variable : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
            assertThat(command(args, Map.of(variable, "-XX:+UseG1GC"), 40 * MIB)).as(variable).isNull();
            assertThat(command(args, Map.of(variable, " "), 40 * MIB)).as(variable).isNotNull();
        }
    }

    @Test
    void theSwitchTurnsItOff() {
        List<String> args = List.of("audit", "spans.jsonl");
        assertThat(command(args, Map.of(TunedJvm.SWITCH, "off"), 40 * MIB)).isNull();
        assertThat(command(args, Map.of(TunedJvm.SWITCH, "on"), 40 * MIB)).isNotNull();
    }

    @Test
    void withoutAJavaAJarOrTheProcessArgumentsItRunsInThisJvm() {
        List<String> args = List.of("audit", "spans.jsonl");
        assertThat(TunedJvm.command(() -> null, Map.of(), args, () -> JAVA, () -> JAR, files(40 * MIB))).isEmpty();
        assertThat(TunedJvm.command(() -> bare(args), Map.of(), args, () -> null, () -> JAR, files(40 * MIB))).isEmpty();
        assertThat(TunedJvm.command(() -> bare(args), Map.of(), args, () -> JAVA, () -> null, files(40 * MIB))).isEmpty();
        // arguments that are not the process's own (a caller of Main.main in a JVM of its own)
        assertThat(TunedJvm.command(() -> bare(List.of("audit", "other.jsonl")), Map.of(), args, () -> JAVA, () -> JAR, files(40 * MIB))).isEmpty();
    }

    @Test
    void anArgumentTheSystemCouldNotDecodeStaysInThisJvm() {
        List<String> args = List.of("audit", "sp\uFFFDns.jsonl");
        assertThat(command(args, Map.of(), 40 * MIB)).isNull();
    }
}
