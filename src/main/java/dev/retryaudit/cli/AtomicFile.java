package dev.retryaudit.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one way a file is written ({@code --output}, {@code --trace-out}): whole or not at all.
 * <ul>
 * <li>A regular file (or a new one) is written to a temporary file beside it and renamed over it, so a
 * failed write leaves the old file as it was. A new file gets the mode a plain write gives it (0666
 * less the umask); a replaced one keeps its mode (and its owner and group, where the process may set them).</li>
 * <li>A symbolic link is followed; its target is replaced, the link kept.</li>
 * <li>Anything else that exists (a device, a FIFO, a terminal) is written directly, never replaced.</li>
 * <li>A temporary file still there when the process ends (SIGTERM, SIGINT) is removed.</li>
 * </ul>
 */
final class AtomicFile {
    /** Writes the file's bytes. */
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private static final int MAX_LINKS = 40;
    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static volatile boolean hooked;

    private AtomicFile() {
    }

    /** Writes {@code body} to {@code target} as described above. */
    static void write(Path target, Body body) throws IOException {
        if (!Files.exists(target)) {
            replace(followLinks(target), body);
        } else if (Files.isRegularFile(target)) {
            replace(target.toRealPath(), body);
        } else if (Files.isDirectory(target)) {
            throw new FileSystemException(target.toString(), null, "is a directory");
        } else {
            // A device, FIFO or terminal, also behind a link such as /dev/stdout: opened, never created.
            try (OutputStream out = new BufferedOutputStream(
                    Files.newOutputStream(target, StandardOpenOption.WRITE), 1 << 16)) {
                body.writeTo(out);
            }
        }
    }

    /** Where a new file goes: the end of a chain of links that leads nowhere yet, or the path itself. */
    private static Path followLinks(Path target) throws IOException {
        Path p = target;
        for (int i = 0; Files.isSymbolicLink(p); i++) {
            if (i == MAX_LINKS) {
                throw new FileSystemException(target.toString(), null, "too many levels of symbolic links");
            }
            Path link = Files.readSymbolicLink(p);
            Path dir = p.toAbsolutePath().getParent();
            p = dir == null ? link : dir.resolve(link);
        }
        return p;
    }

    private static void replace(Path file, Body body) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(file.toString(), null, "no such directory");
        }
        PosixFileAttributes old = oldAttributes(file);
        Path tmp = create(dir);
        try {
            try (OutputStream out = new BufferedOutputStream(
                    Files.newOutputStream(tmp, StandardOpenOption.WRITE), 1 << 16)) {
                body.writeTo(out);
            }
            if (old != null) {
                keep(tmp, old);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
            PENDING.remove(tmp);
        }
    }

    /** Gives the new file the old one's mode, and its owner and group where the process may (as root). */
    private static void keep(Path tmp, PosixFileAttributes old) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        try {
            view.setGroup(old.group());
            view.setOwner(old.owner());
        } catch (IOException e) {
            // Not permitted for this user: the file belongs to whoever wrote it, as with any new file.
        }
        view.setPermissions(old.permissions());
    }

    private static PosixFileAttributes oldAttributes(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        return view == null ? null : view.readAttributes();
    }

    /**
     * A new empty temporary file in {@code dir}, created without explicit permissions so that the umask
     * decides its mode, and removed when the process ends before it is renamed.
     */
    private static Path create(Path dir) throws IOException {
        hook();
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve(".retry-audit-" + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
            PENDING.add(tmp);
            try {
                Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
                return tmp;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                PENDING.remove(tmp);
                if (attempt == 100) {
                    throw e;
                }
            } catch (IOException e) {
                PENDING.remove(tmp);
                throw e;
            }
        }
    }

    private static synchronized void hook() {
        if (hooked) {
            return;
        }
        hooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Path p : PENDING) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // The process is ending; nothing else can be done about it.
                }
            }
        }, "retry-audit-temporary-files"));
    }
}
