import dev.retryaudit.json.StrictJson;
import dev.retryaudit.input.operations.SpansReader;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Limits;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Bytes of heap held per attempt by the spans reader, which must hold a whole file's grouped
 * attempts until its last line: the live heap after a full collection once every line is read (when
 * the first operation is handed on), less the live heap before reading, divided by the attempts.
 * Prints {@code held-bytes-per-attempt N (attempts A, held MiB M)}.
 *
 * <pre>
 * javac -d bench-data/classes -cp target/retry-audit.jar bench/HeldBytes.java
 * java -cp target/retry-audit.jar:bench-data/classes HeldBytes bench-data/bench-600000.jsonl
 * </pre>
 */
public final class HeldBytes {
    private HeldBytes() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long before = liveBytes();
        long[] held = {-1};
        long[] attempts = {0};
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            ReadContext ctx = new ReadContext(file.toString(), 0, in, new StrictJson(Limits.DEFAULTS), Limits.DEFAULTS,
                    op -> {
                        if (held[0] < 0) {
                            held[0] = liveBytes() - before;
                        }
                        attempts[0] += op.attempts().size();
                    });
            new SpansReader().read(ctx);
        }
        System.out.printf(Locale.ROOT, "held-bytes-per-attempt %d (attempts %d, held MiB %.1f)%n",
                held[0] / Math.max(1, attempts[0]), attempts[0], held[0] / 1048576.0);
    }

    /** The heap in use after a full collection. */
    private static long liveBytes() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
