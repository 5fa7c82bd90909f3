package dev.retryaudit.config;

import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@code --baseline} reads our own JSON report strictly and keeps its fingerprints. */
class BaselineReaderTest {
    private static final String FP = "sha256:" + "ab".repeat(32);

    @TempDir
    Path dir;

    @Test
    void readsTheFingerprintsOfAReport() throws Exception {
        Baseline b = BaselineReader.read(write(report("""
                {"rule": "trace/retry-reason", "severity": "error", "operation": "op-1", "attempt": 2,
                 "tool": "t", "run": null, "message": "m", "evidence": {"a": [1]},
                 "location": {"source": "a.json", "line": 1, "column": 1, "pointer": null}, "fingerprint": "%s"}
                """.formatted(FP), "")), Limits.DEFAULTS);
        assertThat(b.fingerprints()).containsExactly(FP);
    }

    @Test
    void readsAReportThatHadABaselineItself() throws Exception {
        Baseline b = BaselineReader.read(write(report("", ",\n\"baseline\": {\"source\": \"old.json\", \"suppressed\": 3}")),
                Limits.DEFAULTS);
        assertThat(b.fingerprints()).isEmpty();
    }

    @Test
    void aMissingFileIsUnreadable() {
        InputException e = reject(dir.resolve("nope.json").toString());
        assertThat(e.kind()).isEqualTo(InputException.Kind.UNREADABLE);
        assertThat(e.diagnostic()).endsWith("nope.json: error: no such file");
    }

    @Test
    void malformedJsonNamesLineColumnAndPath() throws IOException {
        InputException e = reject(write("{\"version\": 1,\n \"findings\": [{\"fingerprint\": }]}"));
        assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isGreaterThan(1);
        assertThat(e.path()).isEqualTo("$.findings[0].fingerprint");
        assertThat(e.diagnostic()).contains(":2:").contains("malformed JSON");
    }

    @Test
    void refusesWhatOurReportsNeverHold() throws IOException {
        assertRejected(report("{\"fingerprint\": \"%s\", \"rule\": \"a/b\", \"fingerprnt\": 1}".formatted(FP), ""),
                "$.findings[0].fingerprnt", "unknown field (did you mean fingerprint?)");
        assertRejected(report("{\"rule\": \"a/b\"}", ""), "$.findings[0]", "missing required field fingerprint");
        assertRejected(report("{\"fingerprint\": \"md5:1\", \"rule\": \"a/b\"}", ""), "$.findings[0].fingerprint",
                "expected a fingerprint of the form sha256:<64 lower-case hex digits>");
        assertRejected(report("{\"fingerprint\": \"%s\", \"rule\": \"a/b\", \"severity\": \"fatal\"}".formatted(FP), ""),
                "$.findings[0].severity", "expected one of error, warning, note");
        assertRejected(report("{\"fingerprint\": \"%s\", \"rule\": \"a/b\", \"attempt\": \"2\"}".formatted(FP), ""),
                "$.findings[0].attempt", "expected an integer, found a string");
        assertRejected("{\"version\": 2, \"findings\": []}", "$.version", "unsupported report version");
        assertRejected("{\"version\": 1}", "$", "missing required field findings");
        assertRejected("{\"version\": 1, \"findings\": []} []", "$", "trailing content");
        assertRejected("{\"version\": 1, \"findings\": {}}", "$.findings", "expected the findings (a JSON array)");
        assertRejected("", "$", "empty file");
        assertRejected("{\"version\": 1, \"error\": {\"code\": 65}}", "$.error", "error report");
        assertRejected("{\"version\": 1, \"findings\": [], \"findings\": []}", "$.findings", "Duplicate field");
    }

    private void assertRejected(String json, String path, String detail) throws IOException {
        InputException e = reject(write(json));
        assertThat(e.kind()).as(json).isEqualTo(InputException.Kind.REJECTED);
        assertThat(e.path()).as(json).isEqualTo(path);
        assertThat(e.message()).as(json).contains(detail);
    }

    private static InputException reject(String file) {
        return catchThrowableOfType(InputException.class, () -> BaselineReader.read(file, Limits.DEFAULTS));
    }

    private static String report(String finding, String extra) {
        return """
                {"version": 1, "tool": {"name": "retry-audit", "version": "0.1.0"},
                 "inputs": [{"source": "a.json", "format": "operations", "operations": 1, "attempts": 1}],
                 "summary": {"operations": 1, "attempts": 1, "retries": 0, "findings": {"error": 0, "warning": 0, "note": 0},
                             "fail_on": "error", "passed": true},
                 "findings": [%s]%s}
                """.formatted(finding, extra);
    }

    private String write(String json) throws IOException {
        Path p = Files.createTempFile(dir, "baseline", ".json");
        Files.writeString(p, json, StandardCharsets.UTF_8);
        return p.toString();
    }
}
