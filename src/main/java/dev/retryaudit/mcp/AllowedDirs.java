package dev.retryaudit.mcp;

import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * The directories the server may read ({@code --allow-dir}), as real paths. A path is readable when it names a
 * regular file whose real path (symbolic links resolved) lies under one of them; a relative path is taken
 * against each directory in turn. Nothing else on the file system is opened.
 */
final class AllowedDirs {
    private final List<Path> dirs;

    AllowedDirs(List<Path> realDirs) {
        this.dirs = List.copyOf(realDirs);
    }

    /** The real path of the file {@code given} names, or why it may not be read. */
    Path resolve(String given) throws ToolError {
        if (dirs.isEmpty()) {
            throw new ToolError("reading files is off: start the server with --allow-dir DIR to let it read the "
                    + "files under DIR, or give the trace itself as 'trace'");
        }
        String shown = Escaping.shortened(given, 200);
        Path p;
        try {
            p = Path.of(given);
        } catch (InvalidPathException e) {
            throw new ToolError(shown + ": not a valid path");
        }
        for (Path dir : p.isAbsolute() ? List.of(p.getRoot()) : dirs) {
            Path candidate = dir.resolve(p).normalize();
            if (!under(candidate)) {
                continue;
            }
            Path real;
            try {
                real = candidate.toRealPath();
            } catch (IOException e) {
                continue;
            }
            if (!under(real)) {
                throw refused(shown);
            }
            if (!Files.isRegularFile(real)) {
                throw new ToolError(shown + ": not a file");
            }
            return real;
        }
        if (!p.isAbsolute() && dirs.stream().anyMatch(d -> under(d.resolve(p).normalize()))
                || p.isAbsolute() && under(p.normalize())) {
            throw new ToolError(shown + ": no such file");
        }
        throw refused(shown);
    }

    private boolean under(Path p) {
        return dirs.stream().anyMatch(p::startsWith);
    }

    private static ToolError refused(String shown) {
        return new ToolError(shown + ": outside the directories this server may read (--allow-dir)");
    }
}
