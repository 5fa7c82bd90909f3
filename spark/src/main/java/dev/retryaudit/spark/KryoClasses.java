package dev.retryaudit.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * The Kryo registrations of every value the job shuffles, caches, broadcasts or collects: the job's own
 * rows written field by field, the library's values whose fields are its own through Java serialization.
 */
public final class KryoClasses implements KryoRegistrator {
    /** {@code conf} with Kryo, registration required and these registrations, where it does not say otherwise. */
    static SparkConf defaults(SparkConf conf) {
        return conf.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .setIfMissing("spark.kryo.registrationRequired", "true")
                .setIfMissing("spark.kryo.registrator", KryoClasses.class.getName());
    }

    @Override
    public void registerClasses(Kryo kryo) {
        // The JDK's containers the job's values and the driver's broadcasts and results are made of.
        for (Class<?> c : List.of(ArrayList.class, HashMap.class, LinkedHashMap.class, HashSet.class,
                LinkedHashSet.class, String[].class, long[][].class, long[].class, Object[].class, int[].class)) {
            kryo.register(c);
        }
        // The immutable ones cannot be filled element by element; Java serializes them as what they stand for.
        for (Object c : List.of(List.of(), List.of(0), Set.of(), Set.of(0), Map.of(), Map.of(0, 0))) {
            kryo.register(c.getClass(), new JavaSerializer());
        }
        fields(kryo, SpanLine.class, (k, o, v) -> {
            o.writeInt(v.sourceIndex(), true);
            o.writeLong(v.line(), true);
            o.writeInt(v.bytes().length, true);
            o.writeBytes(v.bytes());
        }, (k, i) -> new SpanLine(i.readInt(true), i.readLong(true), i.readBytes(i.readInt(true))));
        fields(kryo, Location.class, (k, o, v) -> {
            o.writeString(v.source());
            o.writeInt(v.sourceIndex(), true);
            o.writeLong(v.line(), true);
            o.writeLong(v.column(), true);
            o.writeString(v.pointer());
        }, (k, i) -> new Location(i.readString(), i.readInt(true), i.readLong(true), i.readLong(true), i.readString()));
        fields(kryo, InputNote.class, (k, o, v) -> {
            o.writeString(v.source());
            o.writeLong(v.line(), true);
            o.writeLong(v.column(), true);
            o.writeString(v.message());
        }, (k, i) -> new InputNote(i.readString(), i.readLong(true), i.readLong(true), i.readString()));
        fields(kryo, CrossingKeys.Counts.class, (k, o, v) -> {
            o.writeInt(v.hashes().length, true);
            o.writeLongs(v.hashes());
            o.writeInts(v.lines(), true);
        }, (k, i) -> {
            int n = i.readInt(true);
            return new CrossingKeys.Counts(i.readLongs(n), i.readInts(n, true));
        });
        fields(kryo, Item.Crossing.class, (k, o, v) -> {
            o.writeString(v.key());
            k.writeObject(o, v.line());
        }, (k, i) -> new Item.Crossing(i.readString(), k.readObject(i, SpanLine.class)));
        fields(kryo, Packed.class, (k, o, v) -> {
            byte[] b = v.bytes();
            o.writeInt(b.length, true);
            o.writeBytes(b);
        }, (k, i) -> Packed.of(i.readBytes(i.readInt(true))));
        fields(kryo, OperationFacts.class, (k, o, v) -> v.write(o), (k, i) -> OperationFacts.read(i));
        fields(kryo, OperationFacts.Row.class, (k, o, v) -> {
            o.writeInt(v.source(), true);
            o.writeLong(v.line(), true);
            o.writeLong(v.column(), true);
            o.writeLong(v.order(), true);
            o.writeString(v.id());
            o.writeString(v.pointer());
        }, (k, i) -> new OperationFacts.Row(i.readInt(true), i.readLong(true), i.readLong(true), i.readLong(true),
                i.readString(), i.readString()));
        // The library's values keep their fields to themselves: they travel as Java serializes them.
        for (Class<?> c : List.of(Finding.class, Operation.class, AuditPart.class, InputRejection.class,
                AuditResult.class, AuditSettings.class)) {
            kryo.register(c, new JavaSerializer());
        }
        fields(kryo, Item.class, (k, o, v) -> {
            k.writeObjectOrNull(o, v.findings(), Packed.class);
            k.writeObjectOrNull(o, v.piece(), Packed.class);
            k.writeObjectOrNull(o, v.rejection(), InputRejection.class);
            k.writeObjectOrNull(o, v.facts(), OperationFacts.class);
            k.writeObjectOrNull(o, v.crossing(), Item.Crossing.class);
        }, (k, i) -> new Item(packed(k, i), packed(k, i),
                k.readObjectOrNull(i, InputRejection.class), k.readObjectOrNull(i, OperationFacts.class),
                k.readObjectOrNull(i, Item.Crossing.class)));
        fields(kryo, OtlpJob.Op.class, (k, o, v) -> {
            k.writeObject(o, v.operation());
            o.writeString(v.parentKey());
            o.writeInt(v.offers().size(), true);
            v.offers().forEach((span, attempt) -> {
                o.writeString(span);
                o.writeInt(attempt, true);
            });
            o.writeLong(v.firstOrder(), true);
        }, (k, i) -> {
            Operation operation = k.readObject(i, Operation.class);
            String parentKey = i.readString();
            int n = i.readInt(true);
            Map<String, Integer> offers = new LinkedHashMap<>();
            for (int j = 0; j < n; j++) {
                offers.put(i.readString(), i.readInt(true));
            }
            return new OtlpJob.Op(operation, parentKey, offers, i.readLong(true));
        });
        fields(kryo, OtlpJob.Linked.class, (k, o, v) -> {
            o.writeString(v.context());
            o.writeInt(v.operations() == null ? 0 : v.operations().size() + 1, true);
            if (v.operations() != null) {
                v.operations().forEach(op -> k.writeObject(o, op));
            }
            k.writeObjectOrNull(o, v.error(), InputRejection.class);
            k.writeObjectOrNull(o, v.notes(), AuditPart.class);
        }, (k, i) -> {
            String context = i.readString();
            int n = i.readInt(true) - 1;
            List<OtlpJob.Op> ops = n < 0 ? null : new ArrayList<>(n);
            for (int j = 0; j < n; j++) {
                ops.add(k.readObject(i, OtlpJob.Op.class));
            }
            return new OtlpJob.Linked(context, ops, k.readObjectOrNull(i, InputRejection.class),
                    k.readObjectOrNull(i, AuditPart.class));
        });
        fields(kryo, OtlpJob.Offer.class, (k, o, v) -> {
            o.writeString(v.operation());
            o.writeInt(v.attempt(), true);
            o.writeLong(v.order(), true);
        }, (k, i) -> new OtlpJob.Offer(i.readString(), i.readInt(true), i.readLong(true)));
        fields(kryo, OtlpJob.Told.class, (k, o, v) -> {
            o.writeString(v.parentKey());
            k.writeObjectOrNull(o, v.offer(), OtlpJob.Offer.class);
            o.writeString(v.call());
        }, (k, i) -> new OtlpJob.Told(i.readString(), k.readObjectOrNull(i, OtlpJob.Offer.class), i.readString()));
        fields(kryo, OtlpJob.Routed.class, (k, o, v) -> {
            k.writeObjectOrNull(o, v.line(), SpanLine.class);
            writeStrings(o, v.contexts() == null ? null : v.contexts().toArray(String[]::new));
            writeStrings(o, v.fact());
            k.writeObjectOrNull(o, v.notes(), AuditPart.class);
        }, (k, i) -> {
            SpanLine line = k.readObjectOrNull(i, SpanLine.class);
            String[] contexts = readStrings(i);
            return new OtlpJob.Routed(line, contexts == null ? null : List.of(contexts), readStrings(i),
                    k.readObjectOrNull(i, AuditPart.class));
        });
        fields(kryo, InputChecks.Place.class, (k, o, v) -> {
            o.writeInt(v.source(), true);
            o.writeLong(v.order(), true);
        }, (k, i) -> new InputChecks.Place(i.readInt(true), i.readLong(true)));
        fields(kryo, NumberedLines.SplitCount.class, (k, o, v) -> {
            o.writeString(v.file());
            o.writeLong(v.start(), true);
            o.writeLong(v.lines(), true);
        }, (k, i) -> new NumberedLines.SplitCount(i.readString(), i.readLong(true), i.readLong(true)));
        fields(kryo, OtlpSources.class, (k, o, v) -> {
            writeInts(o, v.single());
            writeInts(o, v.logs());
        }, (k, i) -> new OtlpSources(readInts(i), readInts(i)));
    }

    /** A packed value of the type the reader expects. */
    @SuppressWarnings("unchecked")
    private static <T extends java.io.Serializable> Packed<T> packed(Kryo k, Input i) {
        return k.readObjectOrNull(i, Packed.class);
    }

    private static void writeStrings(Output o, String[] s) {
        o.writeInt(s == null ? 0 : s.length + 1, true);
        if (s != null) {
            for (String x : s) {
                o.writeString(x);
            }
        }
    }

    private static String[] readStrings(Input i) {
        int n = i.readInt(true) - 1;
        if (n < 0) {
            return null;
        }
        String[] out = new String[n];
        for (int j = 0; j < n; j++) {
            out[j] = i.readString();
        }
        return out;
    }

    private static void writeInts(Output o, Set<Integer> s) {
        o.writeInt(s.size(), true);
        for (int x : s) {
            o.writeInt(x, true);
        }
    }

    private static Set<Integer> readInts(Input i) {
        int n = i.readInt(true);
        Set<Integer> out = new HashSet<>();
        for (int j = 0; j < n; j++) {
            out.add(i.readInt(true));
        }
        return out;
    }

    /** Writes the fields of a value. */
    private interface Writer<T> {
        void write(Kryo kryo, Output out, T value);
    }

    /** Reads a value back from its fields. */
    private interface Reader<T> {
        T read(Kryo kryo, Input in);
    }

    private static <T> void fields(Kryo kryo, Class<T> type, Writer<T> writer, Reader<T> reader) {
        kryo.register(type, new Serializer<T>() {
            @Override
            public void write(Kryo k, Output out, T value) {
                writer.write(k, out, value);
            }

            @Override
            public T read(Kryo k, Input in, Class<T> t) {
                return reader.read(k, in);
            }
        });
    }
}
