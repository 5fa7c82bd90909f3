package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.reflect.ClassTag$;

/**
 * The job's values travel through Kryo with registration required: a class it ships unregistered makes the
 * parity cases below throw, and each of its own rows comes back as it went.
 */
class KryoClassesTest {
    @TempDir
    Path dir;

    private static SerializerInstance kryo() {
        return new KryoSerializer(SharedSpark.get().sparkContext().conf()).newInstance();
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) {
        SerializerInstance k = kryo();
        ByteBuffer bytes = k.serialize(value, ClassTag$.MODULE$.apply(Object.class));
        return (T) k.deserialize(bytes, ClassTag$.MODULE$.apply(Object.class));
    }

    @Test
    void theSessionSerializesWithKryoAndRequiresRegistration() {
        SparkConf conf = SharedSpark.get().sparkContext().conf();
        assertThat(conf.get("spark.serializer")).isEqualTo(KryoSerializer.class.getName());
        assertThat(conf.get("spark.kryo.registrationRequired")).isEqualTo("true");
        assertThat(conf.get("spark.kryo.registrator")).isEqualTo(KryoClasses.class.getName());
        // What the parity cases rely on: a class nobody registered is refused, not written by name.
        assertThatThrownBy(() -> kryo().serialize(new StringBuilder("x"), ClassTag$.MODULE$.apply(Object.class)))
                .hasMessageContaining("Class is not registered");
    }

    @Test
    void aUsersOwnSettingsWin() {
        SparkConf conf = KryoClasses.defaults(new SparkConf(false)
                .set("spark.serializer", "org.apache.spark.serializer.JavaSerializer")
                .set("spark.kryo.registrationRequired", "false"));
        assertThat(conf.get("spark.serializer")).isEqualTo("org.apache.spark.serializer.JavaSerializer");
        assertThat(conf.get("spark.kryo.registrationRequired")).isEqualTo("false");
        assertThat(conf.get("spark.kryo.registrator")).isEqualTo(KryoClasses.class.getName());
    }

    @Test
    void spansAndOtlpAsTheCommandLineUnderRegistrationRequired() throws Exception {
        List<Path> accepted = new ArrayList<>();
        for (Path[] f : Parity.fixtures()) {
            if (f[1] == null && Parity.cli(List.of(), List.of(f[0])).report() != null) {
                accepted.add(f[0]);
            }
        }
        List<Path> spans = SpanCorpus.write(dir, 2, 2_000, accepted);
        assertThat(Parity.assertSame(null, Limits.DEFAULTS, spans).exit()).isEqualTo(2);
        List<Path> otlp = new ArrayList<>();
        List<String> contents = OtlpCorpus.files(2, 20);
        for (int i = 0; i < contents.size(); i++) {
            otlp.add(Files.writeString(dir.resolve("otlp-" + i + ".jsonl"), contents.get(i)));
        }
        assertThat(Parity.assertSame(SparkAudit.OTLP, null, Limits.DEFAULTS, otlp).exit()).isEqualTo(2);
    }

    @Test
    void theJobsRowsComeBackAsTheyWent() {
        Location at = new Location("a.jsonl", 1, 7, 3, "/resourceSpans/0");
        OperationFacts facts = new OperationFacts();
        facts.built(1, dev.retryaudit.api.RetryAudit.operation("op-1", "charge").at(at)
                .attempt(1, a -> { }).attempt(2, a -> { }).build(), 42);
        facts.failed(0, 9);
        for (int k = 0; k < 20; k++) {
            facts.failed(1, 100 + k);
        }
        OperationFacts back = roundTrip(Item.of(facts)).facts();
        assertThat(back.size()).isEqualTo(22);
        for (int k = 0; k < 22; k++) {
            assertThat(back.row(k)).isEqualTo(facts.row(k));
        }
        assertThat(back.row(0)).isEqualTo(new OperationFacts.Row(1, 7, 3, 42, "op-1", "/resourceSpans/0"));
        assertThat(back.row(0).at(List.of("b.jsonl", "a.jsonl"))).isEqualTo(at);
        assertThat(back.row(1)).isEqualTo(new OperationFacts.Row(0, 9, 1, 9, null, null));
        assertThat(back.counts(2)).isDeepEqualTo(new long[][] {{1, 0, 0}, {21, 1, 2}});
        assertThat(roundTrip(back.row(1))).isEqualTo(back.row(1));
        assertThat(roundTrip(new OperationFacts()).size()).isZero();
        Packed<java.util.ArrayList<String>> packed = roundTrip(Packed.of(new java.util.ArrayList<>(List.of("a", "b"))));
        assertThat(packed.value()).containsExactly("a", "b");
        assertThat(roundTrip(Item.of(List.of())).findings().value()).isEmpty();
        OtlpJob.Told told = new OtlpJob.Told("t/s", new OtlpJob.Offer("op-2", 3, 11), null);
        assertThat(roundTrip(told)).isEqualTo(told);
        assertThat(roundTrip(new InputChecks.Place(2, 1L << 40))).isEqualTo(new InputChecks.Place(2, 1L << 40));
        assertThat(roundTrip(new NumberedLines.SplitCount("f", 3, 4))).isEqualTo(new NumberedLines.SplitCount("f", 3, 4));
        OtlpSources kinds = new OtlpSources(Set.of(0, 3), Set.of());
        assertThat(roundTrip(kinds)).isEqualTo(kinds);
        SpanLine line = new SpanLine(1, 12, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        OtlpJob.Routed routed = roundTrip(new OtlpJob.Routed(line, List.of("0\u0000c1", "0\u0000c2"), null, null));
        assertThat(routed.line().sourceIndex()).isEqualTo(1);
        assertThat(routed.line().line()).isEqualTo(12);
        assertThat(routed.line().bytes()).isEqualTo(line.bytes());
        assertThat(routed.contexts()).containsExactly("0\u0000c1", "0\u0000c2");
        assertThat(routed.fact()).isNull();
        OtlpJob.Routed fact = roundTrip(new OtlpJob.Routed(null, null, new String[] {"k", "v"}, null));
        assertThat(fact.line()).isNull();
        assertThat(fact.contexts()).isNull();
        assertThat(fact.fact()).containsExactly("k", "v");
        Operation op = RetryAudit.operation("op-3", "charge").method("POST").at(at)
                .attempt(1, a -> a.startedAt(Instant.parse("2026-01-01T00:00:00Z"))).build();
        Map<String, Integer> offers = new LinkedHashMap<>();
        offers.put("t/s2", 1);
        offers.put("t/s1", 1);
        OtlpJob.Linked linked = roundTrip(new OtlpJob.Linked("0\u0000c1",
                List.of(new OtlpJob.Op(op, "t/p", offers, 1L << 33), new OtlpJob.Op(op, null, Map.of(), 0)), null, null));
        assertThat(linked.context()).isEqualTo("0\u0000c1");
        assertThat(linked.operations()).hasSize(2);
        assertThat(linked.operations().get(0).operation()).isEqualTo(op);
        assertThat(linked.operations().get(0).parentKey()).isEqualTo("t/p");
        assertThat(linked.operations().get(0).offers()).containsExactly(Map.entry("t/s2", 1), Map.entry("t/s1", 1));
        assertThat(linked.operations().get(0).firstOrder()).isEqualTo(1L << 33);
        assertThat(linked.operations().get(1).parentKey()).isNull();
        assertThat(linked.error()).isNull();
        assertThat(linked.notes()).isNull();
        OtlpJob.Linked none = roundTrip(new OtlpJob.Linked("!0:3", null, null, null));
        assertThat(none.operations()).isNull();
    }
}
