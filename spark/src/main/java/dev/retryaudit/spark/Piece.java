package dev.retryaudit.spark;

import dev.retryaudit.api.split.AuditPart;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * A part's piece to merge (its cross-operation aggregates and notes), kept as the bytes it is serialized to
 * once: the audit's results are cached serialized and read by several actions, of which only the merge needs
 * the piece itself, so the others copy its bytes instead of rebuilding it (about a megabyte of aggregates
 * for a file of a hundred thousand operations).
 */
final class Piece implements Serializable {
    private static final long serialVersionUID = 1L;

    private transient AuditPart part;
    private byte[] bytes;

    private Piece(AuditPart part, byte[] bytes) {
        this.part = part;
        this.bytes = bytes;
    }

    static Piece of(AuditPart part) {
        return new Piece(part, null);
    }

    /** The piece that {@link #bytes} gave. */
    static Piece of(byte[] bytes) {
        return new Piece(null, bytes);
    }

    /** The piece's serialized form, made on first use. */
    byte[] bytes() {
        if (bytes == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(out)) {
                o.writeObject(part);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            bytes = out.toByteArray();
        }
        return bytes;
    }

    /** The piece, read from its bytes on first use. */
    AuditPart part() {
        if (part == null) {
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
                part = (AuditPart) in.readObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
        return part;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
        bytes();
        out.defaultWriteObject();
    }
}
