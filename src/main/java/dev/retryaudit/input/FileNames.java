package dev.retryaudit.input;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a file name from the command line into a path, including names the locale cannot represent.
 * The JVM decodes arguments and directory entries with the locale's character set ({@code LC_ALL=C}
 * is ASCII); bytes it cannot decode become U+FFFD in both, and such a string cannot be turned back
 * into the bytes. Such a name is found instead by reading each directory on the way and taking the
 * one entry that decodes to the same string: the entry keeps the file system's own bytes.
 */
public final class FileNames {
    private static final char LOST = '\uFFFD';

    private FileNames() {
    }

    /** Why a name cannot be used; the message is plain text meant for the user. */
    public static final class UnusableNameException extends Exception {
        private static final long serialVersionUID = 1L;

        UnusableNameException(String message) {
            super(message);
        }
    }

    /**
     * The path {@code name} denotes, found by its directory entries when the locale cannot represent it.
     * A name that is representable but names no file is returned as it is (the reader says "no such
     * file"). Two names that decode alike cannot be told apart: when both exist, neither is chosen.
     */
    public static Path resolve(String name) throws UnusableNameException {
        if (name.isEmpty()) {
            throw new UnusableNameException("the file name is empty");
        }
        if (name.indexOf('\0') >= 0) {
            throw new UnusableNameException("a file name cannot contain a NUL character");
        }
        Path plain = null;
        try {
            plain = Path.of(name);
        } catch (InvalidPathException e) {
            // Not representable in the locale's character set: look for it below.
        }
        boolean lossy = name.indexOf(LOST) >= 0;
        if (plain != null && (!lossy || Files.exists(plain, LinkOption.NOFOLLOW_LINKS))) {
            return plain;
        }
        Path found = find(name);
        if (found != null) {
            return found;
        }
        if (plain != null) {
            return plain;
        }
        throw new UnusableNameException("the name cannot be represented in the locale's character set ("
                + System.getProperty("sun.jnu.encoding") + ") and names no existing file"
                + "; set LC_ALL to a UTF-8 locale (for example LC_ALL=C.UTF-8) or choose another name");
    }

    /** Whether a file of this name can be created under exactly this name in the locale's character set. */
    public static boolean representable(String name) {
        try {
            Path.of(name);
            return name.indexOf(LOST) < 0;
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static Path find(String name) throws UnusableNameException {
        Path at = name.startsWith("/") ? Path.of("/") : Path.of(".");
        for (String part : name.split("/+")) {
            if (part.isEmpty()) {
                continue;
            }
            Path next = plain(at, part);
            if (next == null) {
                next = listed(at, part);
            }
            if (next == null) {
                return null;
            }
            at = next;
        }
        return at;
    }

    private static Path plain(Path dir, String part) {
        if (part.indexOf(LOST) >= 0) {
            return null;
        }
        try {
            Path p = dir.resolve(part);
            return Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private static Path listed(Path dir, String part) throws UnusableNameException {
        List<Path> matches = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                if (e.getFileName().toString().equals(part)) {
                    matches.add(e);
                }
            }
        } catch (IOException | SecurityException e) {
            return null;
        }
        if (matches.size() > 1) {
            throw new UnusableNameException("several files match this name in the locale's character set ("
                    + System.getProperty("sun.jnu.encoding") + "); set LC_ALL to a UTF-8 locale, "
                    + "for example LC_ALL=C.UTF-8");
        }
        return matches.isEmpty() ? null : matches.get(0);
    }
}
