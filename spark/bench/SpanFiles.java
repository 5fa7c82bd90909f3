import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The benchmark's spans data as several files: generates one file with the root benchmark's
 * generator (bench/Bench.java), then writes {@code files} copies whose operation ids, idempotency keys
 * and runs carry the file's number, so the files together are one valid input set.
 * Usage: java SpanFiles ATTEMPTS DIR FILES
 */
public final class SpanFiles {
    public static void main(String[] args) throws Exception {
        int attempts = Integer.parseInt(args[0]);
        Path dir = Path.of(args[1]);
        int files = Integer.parseInt(args[2]);
        Files.createDirectories(dir);
        Path base = dir.resolve("bench-" + attempts + ".jsonl");
        if (!Files.exists(base)) {
            Method generate = Class.forName("Bench").getDeclaredMethod("generate", int.class, Path.class, Path.class);
            generate.setAccessible(true);
            generate.invoke(null, attempts, base, dir.resolve("bench-" + attempts + ".json"));
        }
        for (int f = 0; f < files; f++) {
            Path out = dir.resolve("file-" + f + ".jsonl");
            if (Files.exists(out)) {
                continue;
            }
            String tag = "f" + f + "-";
            try (BufferedReader in = Files.newBufferedReader(base, StandardCharsets.UTF_8);
                    BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    w.write(line.replace("\"operation_id\":\"", "\"operation_id\":\"" + tag)
                            .replace("\"idempotency_key\":\"", "\"idempotency_key\":\"" + tag)
                            .replace("\"parent_run_id\":\"", "\"parent_run_id\":\"" + tag));
                    w.write('\n');
                }
            }
        }
    }
}
