package dev.retryaudit.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A process that starts writing {@code args[0]} through {@link AtomicFile}, says so on stdout and then
 * waits forever, for the test that signals it mid-write.
 */
public final class SlowWrite {
    private SlowWrite() {
    }

    public static void main(String[] args) throws Exception {
        AtomicFile.write(Path.of(args[0]), out -> {
            out.write("half a report".getBytes(StandardCharsets.UTF_8));
            out.flush();
            System.out.println("writing");
            System.out.flush();
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
