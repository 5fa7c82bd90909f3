package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Spark module is built on the library's exported packages only: every reference to a package of
 * the library (an import, or a qualified name in the code) in the module's sources names one of them.
 */
class SupportedApiTest {
    /** The packages the library's module exports, beside this module's own. */
    private static final Set<String> EXPORTED = Set.of("dev.retryaudit.api", "dev.retryaudit.api.split",
            "dev.retryaudit.model", "dev.retryaudit.rules", "dev.retryaudit.spark");
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.retryaudit((?:\\.[a-z][a-z0-9_]*)+)(?=\\.[A-Z*])");

    @Test
    void theModuleReferencesOnlyExportedPackages() throws IOException {
        List<String> outside = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                for (String pkg : packagesIn(Files.readString(f))) {
                    if (!EXPORTED.contains(pkg)) {
                        outside.add(f + ": " + pkg);
                    }
                }
            }
        }
        assertThat(outside).as("references to the library's internal packages").isEmpty();
    }

    @Test
    void aReferenceToAnInternalPackageIsFound() {
        String lib = "dev.retryaudit";
        assertThat(packagesIn("import " + lib + ".input.operations.SpanLines;\n"
                + "var x = new " + lib + ".text.Diagnostics();\nimport " + lib + ".api.*;"))
                .containsExactly("dev.retryaudit.input.operations", "dev.retryaudit.text", "dev.retryaudit.api");
    }

    private static List<String> packagesIn(String source) {
        List<String> out = new ArrayList<>();
        Matcher m = REFERENCE.matcher(source);
        while (m.find()) {
            out.add("dev.retryaudit" + m.group(1));
        }
        return out;
    }
}
