package dev.retryaudit.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * A value of a part's results kept as the bytes it is serialized to once: a part's piece to merge (its
 * cross-operation aggregates and notes, about a megabyte for a file of a hundred thousand operations) or its
 * findings. The audit's results are cached serialized and read by several actions, each of which needs only
 * some of them: the others copy the bytes instead of rebuilding the value.
 */
final class Packed<T extends Serializable> implements Serializable {
    private static final long serialVersionUID = 1L;

    private transient T value;
    private byte[] bytes;

    private Packed(T value, byte[] bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    static <T extends Serializable> Packed<T> of(T value) {
        return new Packed<>(value, null);
    }

    /** The value that {@link #bytes} gave. */
    static <T extends Serializable> Packed<T> of(byte[] bytes) {
        return new Packed<>(null, bytes);
    }

    /** The value's serialized form, made on first use. */
    byte[] bytes() {
        if (bytes == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(out)) {
                o.writeObject(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            bytes = out.toByteArray();
        }
        return bytes;
    }

    /** The value, read from its bytes on first use. */
    @SuppressWarnings("unchecked")
    T value() {
        if (value == null) {
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
                value = (T) in.readObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
        return value;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
        bytes();
        out.defaultWriteObject();
    }
}
