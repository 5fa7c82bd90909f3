package dev.retryaudit.cli;

import java.io.Console;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the report goes to a terminal, for {@code --color auto}. */
final class Terminal {
    private static final Path STDOUT_LINK = Path.of("/proc/self/fd/1");

    private Terminal() {
    }

    /**
     * True only for the process's own stdout when that is a terminal. Linux tells through
     * /proc (which also works when stdin is a pipe); elsewhere Java's console is the best guess.
     */
    static boolean isTerminal(OutputStream stream) {
        OutputStream out = stream instanceof WatchedOutput w ? w.watched() : stream;
        try {
            if (!(out instanceof FileOutputStream f) || f.getFD() != FileDescriptor.out) {
                return false;
            }
            if (Files.isSymbolicLink(STDOUT_LINK)) {
                String target = Files.readSymbolicLink(STDOUT_LINK).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return false;
        }
        Console console = System.console();
        return console != null;
    }
}
