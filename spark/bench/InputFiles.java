import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The Spark benchmark's inputs as several files of one input set: one spans file written by the root
 * benchmark's generator ({@code bench/BenchData.java}) and one OTLP JSON Lines file written by the
 * foreign readers' generator ({@code bench/foreign/ForeignGen.java}), then {@code FILES} copies of each
 * whose operation ids, idempotency keys, runs, trace ids and tool call ids carry the file's number, so
 * that no operation spans two files. Files that exist are kept.
 * Usage: java -cp CLASSES InputFiles SPANS_ATTEMPTS OTLP_ATTEMPTS DIR FILES
 */
public final class InputFiles {
    private InputFiles() {
    }

    public static void main(String[] args) throws IOException {
        int spansAttempts = Integer.parseInt(args[0]);
        int otlpAttempts = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        int files = Integer.parseInt(args[3]);
        Files.createDirectories(dir);
        Path spans = dir.resolve("spans-" + spansAttempts + ".jsonl");
        if (!Files.exists(spans)) {
            BenchData.spansAndOperations(spansAttempts, spans, dir.resolve("operations-" + spansAttempts + ".json"));
        }
        Path otlp = dir.resolve("otlp-" + otlpAttempts + ".jsonl");
        if (!Files.exists(otlp)) {
            ForeignGen.otlp(otlpAttempts, otlp);
        }
        for (int f = 0; f < files; f++) {
            String tag = "f" + f + "-";
            copy(spans, dir.resolve("spans-" + spansAttempts + "-" + f + ".jsonl"),
                    line -> line.replace("\"operation_id\":\"", "\"operation_id\":\"" + tag)
                            .replace("\"idempotency_key\":\"", "\"idempotency_key\":\"" + tag)
                            .replace("\"parent_run_id\":\"", "\"parent_run_id\":\"" + tag));
            // The generator's trace ids begin with zeros: a leading hex digit of the file's own keeps them valid.
            String digit = Integer.toHexString(f + 1);
            copy(otlp, dir.resolve("otlp-" + otlpAttempts + "-" + f + ".jsonl"),
                    line -> line.replace("\"traceId\":\"0", "\"traceId\":\"" + digit)
                            .replace("\"stringValue\":\"call_", "\"stringValue\":\"call_" + tag));
        }
    }

    private static void copy(Path from, Path to, UnaryOperator<String> rename) throws IOException {
        if (Files.exists(to)) {
            return;
        }
        Path partial = to.resolveSibling(to.getFileName() + ".partial");
        try (BufferedReader in = Files.newBufferedReader(from, StandardCharsets.UTF_8);
                BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(rename.apply(line));
                out.write('\n');
            }
        }
        Files.move(partial, to);
    }
}
