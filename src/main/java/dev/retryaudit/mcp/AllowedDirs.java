package dev.retryaudit.mcp;

import dev.retryaudit.text.Escaping;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The directories the server may read ({@code --allow-dir}), as real paths, and the one way a tool opens a file
 * under them. A path is readable when it names a regular file whose real path (symbolic links resolved) lies under
 * one of them; a relative path is taken against each directory in turn.
 *
 * <p>Links are followed here, as the kernel would, but only entries inside the directories are ever looked at: a
 * path that leads outside is refused before anything outside is asked whether it exists, so every outside path gets
 * the same message. The file found is then opened from a descriptor of its allowed directory, held since the
 * server started, one component at a time without following links ({@link SecureDirectoryStream}, openat with
 * O_NOFOLLOW): whatever is renamed or linked meanwhile, what is opened is an entry inside the directory, never a
 * link's target. Opening runs on a thread of its own, and a call waits for it a bounded time, because an entry
 * swapped for a FIFO after it was checked would block an open until something writes to the FIFO.
 */
final class AllowedDirs implements Closeable {
    /** How many opens that did not finish in time may still be waiting before opening is refused. */
    static final int MAX_WAITING = 64;
    private static final int MAX_LINKS = 40;

    private final List<Path> dirs;
    /** A descriptor of each directory, in the same order; null where the platform has no secure directory stream. */
    private final List<SecureDirectoryStream<Path>> held = new ArrayList<>();
    private final Duration openWait;
    private final Semaphore opening = new Semaphore(MAX_WAITING);
    private final ExecutorService opener = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mcp-file-opener");
        t.setDaemon(true);
        return t;
    });

    /** A file opened for a tool, and the real path it was opened at. */
    record Opened(Path path, SeekableByteChannel channel) {
    }

    /** Which of a path's outcomes the resolution reached. */
    private enum Outcome { FOUND, MISSING, OUTSIDE, LOOP }

    /** Where a path led: its outcome, the real path reached, and that entry's attributes (null when not read). */
    private record Found(Outcome outcome, Path path, BasicFileAttributes attrs) {
    }

    /** Holds a descriptor of each of {@code realDirs}; {@code openWait} bounds how long a call waits for an open. */
    AllowedDirs(List<Path> realDirs, Duration openWait) throws IOException {
        this.dirs = List.copyOf(realDirs);
        this.openWait = openWait;
        try {
            for (Path d : dirs) {
                DirectoryStream<Path> s = Files.newDirectoryStream(d);
                if (s instanceof SecureDirectoryStream<Path> secure) {
                    held.add(secure);
                } else {
                    s.close();
                    held.add(null);
                }
            }
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    /** The real path of the regular file {@code given} names, or why it may not be read. */
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
        boolean missing = false;
        for (Path start : p.isAbsolute() ? List.of(p.getRoot()) : dirs) {
            Found f;
            try {
                f = follow(start, p);
            } catch (AccessDeniedException e) {
                throw new ToolError(shown + ": cannot be read: permission denied");
            } catch (IOException e) {
                // An entry that changed between two looks at it (a link that is a file by the time it is read).
                throw changed(shown);
            }
            if (f.outcome() == Outcome.FOUND) {
                if (f.attrs() == null || !f.attrs().isRegularFile()) {
                    throw new ToolError(shown + ": not a file");
                }
                return f.path();
            }
            if (f.outcome() == Outcome.LOOP) {
                throw new ToolError(shown + ": too many levels of symbolic links");
            }
            missing |= f.outcome() == Outcome.MISSING;
        }
        throw missing ? new ToolError(shown + ": no such file") : refused(shown);
    }

    /**
     * Opens the regular file {@code given} names, checked as {@link #resolve} checks it, without following a link
     * and without blocking the caller for longer than the open wait.
     */
    Opened open(String given) throws ToolError {
        Path real = resolve(given);
        String shown = Escaping.shortened(given, 200);
        if (!opening.tryAcquire()) {
            throw new ToolError(shown + ": cannot be opened now: " + MAX_WAITING + " earlier opens of files under "
                    + "--allow-dir are still waiting (an entry that was a FIFO when it was opened); try again later");
        }
        CompletableFuture<SeekableByteChannel> done = new CompletableFuture<>();
        opener.execute(() -> {
            try {
                SeekableByteChannel ch = openChecked(real, shown);
                if (!done.complete(ch)) {
                    closeQuietly(ch);
                }
            } catch (Throwable t) {
                done.completeExceptionally(t);
            } finally {
                opening.release();
            }
        });
        try {
            return new Opened(real, done.get(openWait.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            if (done.completeExceptionally(e)) {
                throw new ToolError(shown + ": not a file: it did not open within " + openWait.toMillis()
                        + " ms, as a FIFO does until something writes to it");
            }
            return new Opened(real, done.join());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ToolError t) {
                throw t;
            }
            throw new ToolError(shown + ": cannot be read: " + Escaping.controls(String.valueOf(e.getCause().getMessage())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.completeExceptionally(e);
            throw new ToolError(shown + ": interrupted while it was opened");
        }
    }

    @Override
    public void close() {
        opener.shutdownNow();
        for (SecureDirectoryStream<Path> s : held) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException e) {
                    // Nothing is read through it any more.
                }
            }
        }
    }

    /**
     * Follows {@code path} from {@code start} component by component, resolving links as the kernel does, and
     * looks at an entry only when it lies inside a directory: a step to anything else that is not on the way to
     * one (an ancestor of an allowed directory, which is a real directory) ends in {@code OUTSIDE} unlooked.
     */
    private Found follow(Path start, Path path) throws IOException {
        // A loop is told only of links inside: every step outside ended the walk before.
        Deque<String> todo = new ArrayDeque<>();
        path.forEach(name -> todo.addLast(name.toString()));
        Path cur = start;
        BasicFileAttributes attrs = null;
        int links = 0;
        while (!todo.isEmpty()) {
            String name = todo.removeFirst();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            Path next = name.equals("..") ? (cur.getParent() == null ? cur : cur.getParent()) : cur.resolve(name);
            if (!inside(next)) {
                if (dirs.stream().noneMatch(d -> d.startsWith(next))) {
                    return new Found(Outcome.OUTSIDE, next, null);
                }
                cur = next;
                attrs = null;
                continue;
            }
            try {
                attrs = Files.readAttributes(next, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException | NotDirectoryException e) {
                return new Found(Outcome.MISSING, next, null);
            }
            if (attrs.isSymbolicLink()) {
                if (++links > MAX_LINKS) {
                    return new Found(Outcome.LOOP, next, null);
                }
                Path target = Files.readSymbolicLink(next);
                List<String> names = new ArrayList<>();
                target.forEach(n -> names.add(n.toString()));
                for (int i = names.size() - 1; i >= 0; i--) {
                    todo.addFirst(names.get(i));
                }
                if (target.isAbsolute()) {
                    cur = target.getRoot();
                    attrs = null;
                }
                continue;
            }
            if (!todo.isEmpty() && !attrs.isDirectory()) {
                return new Found(Outcome.MISSING, next, null);
            }
            cur = next;
        }
        return inside(cur) ? new Found(Outcome.FOUND, cur, attrs) : new Found(Outcome.OUTSIDE, cur, null);
    }

    /**
     * Opens {@code real} from the held descriptor of its directory, each component without following links, and
     * checks that what was opened is the regular file that was checked. Runs on the opener thread.
     */
    private SeekableByteChannel openChecked(Path real, String shown) throws ToolError, IOException {
        // The real path lies under at least one directory (resolve saw to it); take the deepest.
        int at = -1;
        for (int i = 0; i < dirs.size(); i++) {
            if (real.startsWith(dirs.get(i)) && (at < 0 || dirs.get(i).getNameCount() > dirs.get(at).getNameCount())) {
                at = i;
            }
        }
        SecureDirectoryStream<Path> dir = held.get(at);
        Set<java.nio.file.OpenOption> read = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        if (dir == null) {
            // Without openat the components are not pinned: a directory on the way swapped for a link between the
            // check and this open is the one race left, on platforms without a secure directory stream.
            return checked(Files.newByteChannel(real, read), () -> Files.readAttributes(real, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS), null, shown);
        }
        Path rel = dirs.get(at).relativize(real);
        List<SecureDirectoryStream<Path>> walked = new ArrayList<>();
        try {
            // A descriptor of this call's own: an open blocked in a FIFO holds its stream's lock, which would keep the
            // held stream from ever closing.
            SecureDirectoryStream<Path> cur = dir.newDirectoryStream(Path.of("."), LinkOption.NOFOLLOW_LINKS);
            walked.add(cur);
            for (int k = 0; k < rel.getNameCount() - 1; k++) {
                Path name = rel.getName(k);
                if (!attributes(cur, name).isDirectory()) {
                    throw changed(shown);
                }
                cur = cur.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                walked.add(cur);
            }
            SecureDirectoryStream<Path> parent = cur;
            Path name = rel.getFileName();
            BasicFileAttributes before = attributes(parent, name);
            if (!before.isRegularFile()) {
                throw changed(shown);
            }
            return checked(parent.newByteChannel(name, read), () -> attributes(parent, name), before, shown);
        } catch (AccessDeniedException e) {
            throw new ToolError(shown + ": cannot be read: permission denied");
        } catch (IOException e) {
            // Gone, or O_NOFOLLOW met a link where the check saw none (ELOOP): the entry was swapped meanwhile.
            throw changed(shown);
        } finally {
            for (SecureDirectoryStream<Path> s : walked) {
                closeQuietly(s);
            }
        }
    }

    /** What an open entry's attributes are read by, after it was opened. */
    @FunctionalInterface
    private interface Attributes {
        BasicFileAttributes read() throws IOException;
    }

    /**
     * {@code ch}, when the entry it was opened from is still the regular file {@code before} was (same file key)
     * and the channel has a position, which a FIFO or a socket has not; otherwise {@code ch} is closed.
     */
    private static SeekableByteChannel checked(SeekableByteChannel ch, Attributes now, BasicFileAttributes before,
            String shown) throws ToolError, IOException {
        try {
            BasicFileAttributes after = now.read();
            ch.position();
            if (!after.isRegularFile() || before != null && !Objects.equals(before.fileKey(), after.fileKey())) {
                throw changed(shown);
            }
            return ch;
        } catch (IOException e) {
            closeQuietly(ch);
            throw changed(shown);
        } catch (ToolError | RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, Path name) throws IOException {
        return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    }

    private boolean inside(Path p) {
        return dirs.stream().anyMatch(p::startsWith);
    }

    private static ToolError refused(String shown) {
        return new ToolError(shown + ": outside the directories this server may read (--allow-dir)");
    }

    private static ToolError changed(String shown) {
        return new ToolError(shown + ": not a file, or it changed while it was opened (a link or a FIFO put in its "
                + "place); nothing was read");
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // It was opened for reading only.
        }
    }
}
