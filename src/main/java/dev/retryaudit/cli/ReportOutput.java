package dev.retryaudit.cli;

import dev.retryaudit.text.Escaping;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where a report goes: stdout, or {@code --output FILE} written to a temporary file beside it and
 * moved into place, so a failed write never leaves half a report. A reader that closes stdout early
 * ({@code | head}) is not an error.
 */
final class ReportOutput {
    /** Writes the report's bytes. */
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private final Path file;
    private final Streams io;

    ReportOutput(Path file, Streams io) {
        this.file = file;
        this.io = io;
    }

    /** Writes the body; returns {@code verdict}, or 74 when the report could not be written. */
    int write(Body body, int verdict) {
        if (file == null) {
            try {
                OutputStream out = new BufferedOutputStream(io.stdout(), 1 << 16);
                body.writeTo(out);
                out.flush();
            } catch (IOException e) {
                if (isClosedPipe(e)) {
                    return verdict;
                }
                return cannotWrite("standard output", e);
            }
            return verdict;
        }
        Path tmp = null;
        try {
            Path dir = file.toAbsolutePath().getParent();
            tmp = Files.createTempFile(dir, ".retry-audit-", ".tmp");
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                body.writeTo(out);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return verdict;
        } catch (IOException e) {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // The write already failed; the message below says why.
                }
            }
            return cannotWrite(file.toString(), e);
        }
    }

    private int cannotWrite(String where, IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof java.nio.file.NoSuchFileException) {
            why = "no such directory";
        } else if (e instanceof java.nio.file.AccessDeniedException) {
            why = "permission denied";
        }
        io.err().println(VersionInfo.NAME + ": error: cannot write the report to " + Escaping.controls(where)
                + ": " + Escaping.controls(why));
        return ExitCode.CANT_WRITE.code();
    }

    private static boolean isClosedPipe(IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return m.contains("broken pipe") || m.contains("stream closed");
    }
}
