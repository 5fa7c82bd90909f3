package dev.retryaudit.spark;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import scala.Tuple2;

/**
 * What the input-wide checks need of the groups of lines one part of the input read, in columns, one row a
 * group: its source, where its operation is (line, column and JSON Pointer of its location, or of its first
 * line when it did not build), its place in the order the reader hands operations on, and, when it built,
 * the operation's id and attempts. A part's facts travel as one value, not as an object per operation, and
 * as the bytes they were packed into once: the cached results are read by several actions, of which only
 * the input-wide checks unpack the facts.
 */
final class OperationFacts implements Serializable {
    private static final long serialVersionUID = 1L;

    private int size;
    private int[] source;
    private long[] line;
    private long[] column;
    private long[] order;
    private long[] attempts;
    private String[] id;
    private String[] pointer;
    /** The columns packed ({@link #write}), or null; while {@link #unpacked} is false, the columns are not read yet. */
    private byte[] packed;
    private boolean unpacked = true;

    OperationFacts() {
        this(16);
    }

    private OperationFacts(int capacity) {
        source = new int[capacity];
        line = new long[capacity];
        column = new long[capacity];
        order = new long[capacity];
        attempts = new long[capacity];
        id = new String[capacity];
        pointer = new String[capacity];
    }

    /** One group as its columns give it: a row of {@link #rows}, for the rare checks that sort them. */
    record Row(int source, long line, long column, long order, String id, String pointer) implements Serializable {
        boolean built() {
            return id != null;
        }

        InputChecks.Place place() {
            return new InputChecks.Place(source, order);
        }

        /** Where its operation is, in source {@code names}' terms. */
        Location at(List<String> names) {
            return new Location(names.get(source), source, line, column, pointer);
        }
    }

    /** Operation {@code op} of source {@code source}, the reader's {@code order}-th to be handed on in its source. */
    void built(int source, Operation op, long order) {
        Location at = op.location();
        add(source, at.line(), at.column(), order, op.id(), at.pointer(), op.attempts().size());
    }

    /** A group of source {@code source} whose first line is {@code first} that did not build into an operation. */
    void failed(int source, long first) {
        add(source, first, 1, first, null, null, 0);
    }

    private void add(int s, long l, long c, long o, String i, String p, long a) {
        unpack();
        packed = null;
        if (size == source.length) {
            int n = Math.max(16, 2 * size);
            source = Arrays.copyOf(source, n);
            line = Arrays.copyOf(line, n);
            column = Arrays.copyOf(column, n);
            order = Arrays.copyOf(order, n);
            attempts = Arrays.copyOf(attempts, n);
            id = Arrays.copyOf(id, n);
            pointer = Arrays.copyOf(pointer, n);
        }
        source[size] = s;
        line[size] = l;
        column[size] = c;
        order[size] = o;
        id[size] = i;
        pointer[size] = p;
        attempts[size] = a;
        size++;
    }

    int size() {
        unpack();
        return size;
    }

    /** Per source of {@code sources}: groups of lines, operations, attempts. */
    long[][] counts(int sources) {
        long[][] out = new long[sources][3];
        add(out);
        return out;
    }

    /** Adds this part's groups, operations and attempts to {@code counts}, per source; gives {@code counts}. */
    long[][] add(long[][] counts) {
        unpack();
        for (int k = 0; k < size; k++) {
            long[] c = counts[source[k]];
            c[0]++;
            if (id[k] != null) {
                c[1]++;
                c[2] += attempts[k];
            }
        }
        return counts;
    }

    /** The rows of the groups {@code which} takes (by row number), in the order they were added. */
    Iterator<Row> rows(IntPredicate which) {
        unpack();
        List<Row> out = new ArrayList<>();
        for (int k = 0; k < size; k++) {
            if (which.test(k)) {
                out.add(row(k));
            }
        }
        return out.iterator();
    }

    Row row(int k) {
        unpack();
        return new Row(source[k], line[k], column[k], order[k], id[k], pointer[k]);
    }

    /** Whether row {@code k} is of source {@code s}. */
    boolean of(int k, int s) {
        unpack();
        return source[k] == s;
    }

    /** Whether row {@code k} built into an operation. */
    boolean built(int k) {
        unpack();
        return id[k] != null;
    }

    /** Whether row {@code k} built into an operation whose id's {@link #hash} is in {@code hashes}. */
    boolean hashedIn(int k, Set<Long> hashes) {
        unpack();
        return id[k] != null && hashes.contains(hash(id[k]));
    }

    /**
     * The hashes of the operations' ids, sorted, by bucket ({@code buckets} of them, a hash's bucket its
     * {@link #bucket}): one array a bucket that has any.
     */
    Iterator<Tuple2<Integer, long[]>> hashesByBucket(int buckets) {
        unpack();
        int[] sizes = new int[buckets];
        long[] hashes = new long[size];
        int n = 0;
        for (int k = 0; k < size; k++) {
            if (id[k] != null) {
                hashes[n] = hash(id[k]);
                sizes[bucket(hashes[n], buckets)]++;
                n++;
            }
        }
        long[][] out = new long[buckets][];
        for (int b = 0; b < buckets; b++) {
            out[b] = new long[sizes[b]];
        }
        int[] filled = new int[buckets];
        for (int k = 0; k < n; k++) {
            int b = bucket(hashes[k], buckets);
            out[b][filled[b]++] = hashes[k];
        }
        List<Tuple2<Integer, long[]>> pairs = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            if (out[b].length > 0) {
                Arrays.sort(out[b]);
                pairs.add(new Tuple2<>(b, out[b]));
            }
        }
        return pairs.iterator();
    }

    /** The bucket of {@code hash} among {@code buckets}. */
    static int bucket(long hash, int buckets) {
        return (int) Long.remainderUnsigned(hash, buckets);
    }

    /** The hashes that occur more than once in {@code sorted} arrays of hashes, each once, sorted. */
    static List<Long> repeated(List<long[]> sorted) {
        int n = 0;
        for (long[] a : sorted) {
            n += a.length;
        }
        long[] all = new long[n];
        int at = 0;
        for (long[] a : sorted) {
            System.arraycopy(a, 0, all, at, a.length);
            at += a.length;
        }
        Arrays.sort(all);
        List<Long> out = new ArrayList<>();
        for (int k = 1; k < n; k++) {
            if (all[k] == all[k - 1] && (out.isEmpty() || out.get(out.size() - 1) != all[k])) {
                out.add(all[k]);
            }
        }
        return out;
    }

    /** A 64-bit hash of an operation id (FNV-1a over its characters, then mixed): equal ids, equal hashes. */
    static long hash(String id) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < id.length(); i++) {
            h ^= id.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /** Writes the facts, for Kryo: the columns, packed on first use. */
    void write(Output o) {
        if (packed == null) {
            unpack();
            Output out = new Output(1 << 12, -1);
            out.writeInt(size, true);
            out.writeInts(Arrays.copyOf(source, size), true);
            out.writeLongs(Arrays.copyOf(line, size), true);
            out.writeLongs(Arrays.copyOf(column, size), true);
            out.writeLongs(Arrays.copyOf(order, size), true);
            out.writeLongs(Arrays.copyOf(attempts, size), true);
            for (int k = 0; k < size; k++) {
                out.writeString(id[k]);
            }
            for (int k = 0; k < size; k++) {
                out.writeString(pointer[k]);
            }
            packed = out.toBytes();
        }
        o.writeInt(packed.length, true);
        o.writeBytes(packed);
    }

    /** The facts {@link #write} wrote, unpacked when first used. */
    static OperationFacts read(Input in) {
        OperationFacts f = new OperationFacts(0);
        f.packed = in.readBytes(in.readInt(true));
        f.unpacked = false;
        return f;
    }

    private void unpack() {
        if (unpacked) {
            return;
        }
        Input in = new Input(packed);
        int n = in.readInt(true);
        size = n;
        source = in.readInts(n, true);
        line = in.readLongs(n, true);
        column = in.readLongs(n, true);
        order = in.readLongs(n, true);
        attempts = in.readLongs(n, true);
        id = new String[n];
        pointer = new String[n];
        for (int k = 0; k < n; k++) {
            id[k] = in.readString();
        }
        for (int k = 0; k < n; k++) {
            pointer[k] = in.readString();
        }
        unpacked = true;
    }
}
