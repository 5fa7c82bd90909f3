import com.sun.management.OperatingSystemMXBean;
import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Operation;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The reading alone, warmed: reads one file with the library's {@code read} ROUNDS times in one JVM
 * and prints each round's wall time and the process's CPU time (every thread, the JIT's included),
 * so that the steady cost of the reading path shows apart from start-up and compiling, and a
 * machine's load moves it less than it moves a whole audit.
 * Usage: java -cp retry-audit.jar:CLASSES ReadRounds FILE [ROUNDS]
 */
public final class ReadRounds {
    private ReadRounds() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        RetryAudit audit = RetryAudit.defaults();
        for (int r = 1; r <= rounds; r++) {
            long cpu = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            List<Operation> ops = audit.read(AuditInput.files(List.of(file)));
            double wall = (System.nanoTime() - t0) / 1e9;
            double used = (os.getProcessCpuTime() - cpu) / 1e9;
            System.out.printf(Locale.ROOT, "round %d: %.3f s wall, %.3f CPU s, %d operations%n", r, wall, used, ops.size());
        }
    }
}
