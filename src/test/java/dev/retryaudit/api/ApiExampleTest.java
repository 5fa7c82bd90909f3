package dev.retryaudit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example in docs/api.md compiles against the library and does what the page says. */
class ApiExampleTest {
    private static final Pattern JAVA = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

    @Test
    void theDocumentedExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
        Matcher m = JAVA.matcher(Files.readString(Path.of("docs/api.md")));
        assertThat(m.find()).as("a java block in docs/api.md").isTrue();
        Path source = dir.resolve("AuditExample.java");
        Files.writeString(source, m.group(1));
        ByteArrayOutputStream compilerOut = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, compilerOut, compilerOut, "-Xlint:all", "-Werror",
                "-cp", System.getProperty("java.class.path"), "-d", dir.toString(), source.toString());
        assertThat(rc).as(compilerOut.toString(StandardCharsets.UTF_8)).isZero();

        Path sarif = dir.resolve("report.sarif");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass("AuditExample").getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {sarif.toString()});
        } finally {
            System.setOut(saved);
        }

        JsonNode log = new ObjectMapper().readTree(sarif.toFile());
        int results = log.path("runs").path(0).path("results").size();
        assertThat(results).isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8).lines().toList()).isEqualTo(List.of(
                "timeout-replay/keyless charge-1 attempt 2",
                results + " findings written to " + sarif,
                "0 new, " + results + " in the baseline"));
    }
}
