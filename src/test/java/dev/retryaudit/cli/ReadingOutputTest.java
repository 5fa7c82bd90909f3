package dev.retryaudit.cli;

import dev.retryaudit.input.TraceGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The output of an audit does not depend on how the input is read: the examples and seeded
 * benchmark-like spans and operations files (and broken copies of them, where the first error by
 * position must win) give the exit code, report digest and error line recorded in
 * {@code reading/expected.txt} ({@code -Dgolden.update=true} rewrites it).
 */
class ReadingOutputTest {
    private static final Path EXPECTED = Path.of("src/test/resources/reading/expected.txt");
    private static final Path DIR = Path.of("target/reading-output");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final String CHUNK_BYTES = "retryaudit.chunkBytes";
    private static final java.util.regex.Pattern TRACE_ID = java.util.regex.Pattern.compile("\"traceId\":\"([0-9a-fA-F])");

    @BeforeAll
    static void writeInputs() throws IOException {
        Files.createDirectories(DIR);
        for (int seed = 1; seed <= 3; seed++) {
            TraceGenerator.Traces t = TraceGenerator.generate(seed, 2000 * seed);
            Files.writeString(DIR.resolve("gen-" + seed + ".jsonl"), t.spans(), StandardCharsets.UTF_8);
            Files.writeString(DIR.resolve("gen-" + seed + ".json"), t.operations(), StandardCharsets.UTF_8);
        }
        List<String> lines = Files.readAllLines(DIR.resolve("gen-2.jsonl"), StandardCharsets.UTF_8);
        broken("late-syntax", lines, Map.of(lines.size() - 3, "{\"operation_id\":\"x\",\"tool\":}"));
        broken("two-errors", lines, Map.of(1500, "{\"operation_id\":\"op-000001\",\"tool\":\"other\",\"attempt_id\":9}",
                3000, "{\"operation_id\":\"y\",\"tool\":\"t\",\"attempt_id\":1,\"retry_reson\":\"\"}"));
        broken("syntax-after-rule-error", lines, Map.of(2000, "{\"operation_id\":\"y\",\"tool\":\"t\",\"attempt_id\":0}",
                2100, "{\"operation_id\":\"y\" \"tool\":\"t\"}"));
        broken("second-value", lines, Map.of(2500, "{\"operation_id\":\"y\",\"tool\":\"t\",\"attempt_id\":1} {}"));
        broken("spread-object", lines, Map.of(1200, "{\"operation_id\":\"y\",\n\"tool\":\"t\",\"attempt_id\":1}"));
        broken("no-group-key", lines, Map.of(3500, "{\"tool\":\"t\",\"attempt_id\":1}"));
        broken("check-only", lines, Map.of(700, "{\"type\":\"check\",\"operation_id\":\"lonely\",\"after_attempt\":1,\"result\":\"committed\"}"));
        broken("blank-lines", lines, Map.of(10, "", 11, "   ", 2222, ""));
        List<String> otlp = otlpLines();
        Files.writeString(DIR.resolve("otlp-lines.jsonl"), String.join("\n", otlp) + "\n", StandardCharsets.UTF_8);
        int late = otlp.size() - 5;
        broken("otlp-late-syntax", otlp, Map.of(late, "{\"resourceSpans\":[}"));
        broken("otlp-duplicate-key", otlp, Map.of(late, otlp.get(late).replaceFirst("\"spanId\":", "\"spanId\":\"00000000000000ff\",\"spanId\":")));
        broken("otlp-spread-object", otlp, Map.of(late, otlp.get(late).replaceFirst(",", ",\n")));
        broken("otlp-second-value", otlp, Map.of(late, otlp.get(late) + " {}"));
        broken("otlp-bad-time", otlp, Map.of(late, otlp.get(late).replaceFirst("\"startTimeUnixNano\":\"[0-9]+\"", "\"startTimeUnixNano\":\"soon\"")));
        broken("otlp-blank-lines", otlp, Map.of(3, "", 40, "  ", late, ""));
    }

    /**
     * OTLP/JSON Lines of real producers, over 1 MiB: every recorded OpenTelemetry JS export and gRPC
     * export, one a line, eight times, each copy with trace ids and idempotency keys of its own.
     */
    private static List<String> otlpLines() throws IOException {
        List<String> exports = new ArrayList<>();
        for (String dir : List.of("otel-js", "grpc-otel")) {
            try (var files = Files.list(Path.of("src/test/resources/real/recorded", dir))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".json") || f.toString().endsWith(".jsonl")).sorted().toList()) {
                    Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).forEach(exports::add);
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (int copy = 0; copy < 8; copy++) {
            String digit = Integer.toHexString(copy);
            for (String e : exports) {
                int flip = copy;
                // The first digit of each trace id, XOR the copy's number: another trace in every copy.
                String retraced = TRACE_ID.matcher(e).replaceAll(m -> "\"traceId\":\""
                        + Integer.toHexString(Integer.parseInt(m.group(1), 16) ^ flip));
                out.add(copy == 0 ? e : retraced
                        .replace("idempotency-key\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"",
                                "idempotency-key\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"" + digit + "-"));
            }
        }
        return out;
    }

    private static void broken(String name, List<String> lines, Map<Integer, String> replace) throws IOException {
        List<String> out = new ArrayList<>(lines);
        new TreeMap<>(replace).descendingMap().forEach(out::set);
        Files.writeString(DIR.resolve(name + ".jsonl"), String.join("\n", out) + "\n", StandardCharsets.UTF_8);
    }

    /** The cases: a name and the arguments after {@code audit}. */
    private static Map<String, List<String>> cases() {
        Map<String, List<String>> cases = new TreeMap<>();
        for (String example : List.of("checkout-operations.json", "checkout-spans.jsonl", "checkout-otlp.json",
                "checkout.har", "traces/gaps.jsonl", "traces/retry-wrote-twice.jsonl")) {
            cases.put("example " + example, List.of("examples/" + example));
        }
        for (int seed = 1; seed <= 3; seed++) {
            for (String ext : List.of("jsonl", "json")) {
                String file = DIR.resolve("gen-" + seed + "." + ext).toString();
                cases.put("gen-" + seed + "." + ext + " json", List.of(file));
                cases.put("gen-" + seed + "." + ext + " sarif", List.of("--format", "sarif", file));
                cases.put("gen-" + seed + "." + ext + " text", List.of("--format", "text", "--color", "never", file));
            }
        }
        String spans = DIR.resolve("gen-2.jsonl").toString();
        String ops = DIR.resolve("gen-2.json").toString();
        cases.put("spans twice", List.of(spans, spans));
        cases.put("spans then gen-1 operations", List.of(spans, DIR.resolve("gen-1.json").toString()));
        for (String file : List.of(spans, ops)) {
            String ext = file.substring(file.lastIndexOf('.') + 1);
            cases.put(ext + " limit-operations", List.of("--limit-operations", "1500", file));
            cases.put(ext + " limit-attempts", List.of("--limit-attempts", "3", file));
            cases.put(ext + " limit-bytes", List.of("--limit-bytes", "400000", file));
            cases.put(ext + " limit-string", List.of("--limit-string", "20", file));
            cases.put(ext + " one family", List.of("--disable", "budget", "--disable", "effect-verification",
                    "--disable", "timeout-replay", "--format", "github", file));
        }
        String otlp = DIR.resolve("otlp-lines.jsonl").toString();
        cases.put("otlp lines json", List.of(otlp));
        cases.put("otlp lines text", List.of("--format", "text", "--color", "never", otlp));
        cases.put("otlp lines limit-operations", List.of("--limit-operations", "100", otlp));
        cases.put("otlp lines limit-bytes", List.of("--limit-bytes", "400000", otlp));
        cases.put("otlp lines limit-string", List.of("--limit-string", "40", otlp));
        cases.put("otlp lines twice", List.of(otlp, otlp));
        for (String name : List.of("late-syntax", "duplicate-key", "spread-object", "second-value", "bad-time", "blank-lines")) {
            cases.put("broken otlp " + name, List.of(DIR.resolve("otlp-" + name + ".jsonl").toString()));
        }
        cases.put("example and spans", List.of("examples/checkout-spans.jsonl", spans));
        cases.put("spans as stdin", List.of("-"));
        for (String name : List.of("late-syntax", "two-errors", "syntax-after-rule-error", "second-value",
                "spread-object", "no-group-key", "check-only", "blank-lines")) {
            cases.put("broken " + name, List.of(DIR.resolve(name + ".jsonl").toString()));
        }
        return cases;
    }

    /** Spans and OTLP JSON Lines files are read in chunks on several cores: chunks of a few lines test every edge of that. */
    @ParameterizedTest(name = "chunks of {0} bytes")
    @ValueSource(ints = {1 << 20, 4096, 300})
    void everyCaseGivesTheRecordedOutput(int chunkBytes) throws Exception {
        String before = System.getProperty(CHUNK_BYTES);
        System.setProperty(CHUNK_BYTES, Integer.toString(chunkBytes));
        try {
            check();
        } finally {
            if (before == null) {
                System.clearProperty(CHUNK_BYTES);
            } else {
                System.setProperty(CHUNK_BYTES, before);
            }
        }
    }

    private void check() throws Exception {
        StringBuilder actual = new StringBuilder();
        for (Map.Entry<String, List<String>> c : cases().entrySet()) {
            List<String> args = new ArrayList<>(List.of("audit"));
            args.addAll(c.getValue());
            CliRunner.Result r = c.getValue().equals(List.of("-"))
                    ? CliRunner.run(Files.newInputStream(DIR.resolve("gen-3.jsonl")), args.toArray(String[]::new))
                    : CliRunner.run(args.toArray(String[]::new));
            actual.append(c.getKey()).append(" | exit ").append(r.exit()).append(" | ")
                    .append(r.out().isEmpty() ? "-" : sha256(r.out())).append(" | ")
                    .append(r.err().isEmpty() ? "-" : r.err().strip().replace("\n", "\\n")).append('\n');
        }
        if (UPDATE) {
            Files.createDirectories(EXPECTED.getParent());
            Files.writeString(EXPECTED, actual, StandardCharsets.UTF_8);
        } else if (!Files.exists(EXPECTED)) {
            fail("no " + EXPECTED + "; run with -Dgolden.update=true to write it, then review it");
        }
        assertThat(actual.toString()).isEqualTo(Files.readString(EXPECTED, StandardCharsets.UTF_8));
    }

    private static String sha256(String s) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
