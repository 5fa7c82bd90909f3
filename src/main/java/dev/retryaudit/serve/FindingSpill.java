package dev.retryaudit.serve;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Blocks of bytes kept on disk, not on the heap, to be read back once, in the order they were added: a temporary
 * file in a directory ({@code serve --temp-dir}), made at the first block, each block written as its length and
 * its bytes through a buffer, and deleted when the blocks are read back or
 * {@link #close closed} (and at the JVM's exit, should neither come). So what a receiver keeps of its findings
 * for the report at the end takes disk, not heap, for as long as it runs. The first write that fails is kept
 * ({@link #failure}), the run is told at once ({@link #onFailure}), and nothing more is written. Not thread-safe.
 */
final class FindingSpill implements AutoCloseable {
    private static final int BUFFER = 1 << 16;

    private final Path directory;
    private Path file;
    private DataOutputStream out;
    private long bytes;
    private IOException failure;
    private boolean closed;
    private Runnable onFailure = () -> { };

    /** Blocks to be kept in a file of {@code directory}. */
    FindingSpill(Path directory) {
        this.directory = directory;
    }

    /** Keeps {@code block}; nothing, once a write has failed. */
    void add(byte[] block) {
        if (failure != null) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("the blocks were read back or closed");
        }
        try {
            if (out == null) {
                file = Files.createTempFile(directory, "retry-audit-findings-", ".bin");
                file.toFile().deleteOnExit();
                out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), BUFFER));
            }
            out.writeInt(block.length);
            out.write(block);
            bytes += 4 + block.length;
        } catch (IOException e) {
            fail(e);
        }
    }

    /**
     * Hands {@code each} the blocks added, one at a time, in their order; then the file is deleted. None when none
     * was added.
     *
     * @throws IOException when a write failed ({@link #failure}) or the file cannot be read back; its message
     *     says where and why
     */
    void read(Consumer<byte[]> each) throws IOException {
        if (failure != null) {
            throw new IOException(where() + ": " + reason(failure), failure);
        }
        if (out == null) {
            close();
            return;
        }
        try {
            out.close();
            out = null;
            try (InputStream raw = Files.newInputStream(file);
                    DataInputStream in = new DataInputStream(new BufferedInputStream(raw, BUFFER))) {
                for (long read = 0; read < bytes; ) {
                    byte[] block = new byte[in.readInt()];
                    in.readFully(block);
                    each.accept(block);
                    read += 4 + block.length;
                }
            }
        } catch (EOFException e) {
            throw new IOException(file + ": ends before the " + bytes + " bytes written to it", e);
        } catch (IOException e) {
            throw new IOException(file + ": " + reason(e), e);
        } finally {
            close();
        }
    }

    /** The bytes written to the file so far. */
    long bytes() {
        return bytes;
    }

    /** Where the blocks are kept: their file, or the directory until it is made. */
    Path where() {
        return file != null ? file : directory;
    }

    /** The first write that failed, or null. */
    IOException failure() {
        return failure;
    }

    /** What to do the moment a write fails (end the run); runs at once if one already has. */
    void onFailure(Runnable action) {
        onFailure = action;
        if (failure != null) {
            action.run();
        }
    }

    /** Deletes the file; what it held is gone. */
    @Override
    public void close() {
        closed = true;
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            // The file is deleted below; its bytes are not wanted.
        }
        out = null;
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // Left for deleteOnExit.
        }
    }

    /** What went wrong, in words that do not repeat the path. */
    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return String.valueOf(e.getMessage());
    }

    private void fail(IOException e) {
        failure = e;
        close();
        onFailure.run();
    }
}
