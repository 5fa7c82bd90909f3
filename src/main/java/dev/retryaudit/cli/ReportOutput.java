package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.text.Escaping;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Where a report goes: stdout, or {@code --output FILE} written by {@link AtomicFile}, so a failed
 * write never leaves half a report. A reader that closes stdout early ({@code | head}) is not an error.
 */
final class ReportOutput {
    private final Path file;
    private final Streams io;

    ReportOutput(Path file, Streams io) {
        this.file = file;
        this.io = io;
    }

    /** Writes the body; returns {@code verdict}, or 74 when the report could not be written. */
    int write(AtomicFile.Body body, int verdict) {
        if (file == null) {
            try {
                OutputStream out = new BufferedOutputStream(io.stdout(), 1 << 16);
                body.writeTo(out);
                out.flush();
            } catch (IOException e) {
                if (WatchedOutput.isClosedPipe(e)) {
                    return verdict;
                }
                return cannotWrite("standard output", e);
            }
            return verdict;
        }
        try {
            AtomicFile.write(file, body);
            return verdict;
        } catch (IOException e) {
            return cannotWrite(file.toString(), e);
        }
    }

    private int cannotWrite(String where, IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof java.nio.file.NoSuchFileException) {
            why = "no such directory";
        } else if (e instanceof java.nio.file.AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            why = f.getReason();
        }
        io.err().println(VersionInfo.NAME + ": error: cannot write the report to " + Escaping.controls(where)
                + ": " + Escaping.controls(why));
        return ExitCode.CANT_WRITE.code();
    }
}
