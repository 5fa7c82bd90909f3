package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** A part's facts in columns: counts per source, the ids' hashes by bucket, and the hashes two parts share. */
class OperationFactsTest {
    private static Operation op(String id, int source, long line) {
        return RetryAudit.operation(id, "charge").at(new Location("s" + source, source, line, 1, null))
                .attempt(1, a -> { }).build();
    }

    private static OperationFacts part(int source, String... ids) {
        OperationFacts f = new OperationFacts();
        for (int i = 0; i < ids.length; i++) {
            f.built(source, op(ids[i], source, i + 1), i + 1);
        }
        return f;
    }

    /** The hashes of {@code parts} brought together by bucket, as the job's shuffle brings them. */
    private static Map<Integer, List<long[]>> byBucket(int buckets, OperationFacts... parts) {
        Map<Integer, List<long[]>> out = new TreeMap<>();
        for (OperationFacts p : parts) {
            p.hashesByBucket(buckets).forEachRemaining((Tuple2<Integer, long[]> t) -> {
                assertThat(t._2()).isSorted();
                for (long h : t._2()) {
                    assertThat(OperationFacts.bucket(h, buckets)).isEqualTo(t._1());
                }
                out.computeIfAbsent(t._1(), b -> new ArrayList<>()).add(t._2());
            });
        }
        return out;
    }

    @Test
    void theHashesOfIdsThatTwoPartsHaveRepeatInOneBucket() {
        OperationFacts a = part(0, "op-1", "op-2", "op-3");
        OperationFacts b = part(1, "op-4", "op-2", "op-5", "op-1");
        List<Long> repeated = new ArrayList<>();
        byBucket(3, a, b).values().forEach(sorted -> repeated.addAll(OperationFacts.repeated(sorted)));
        assertThat(repeated).containsExactlyInAnyOrder(OperationFacts.hash("op-1"), OperationFacts.hash("op-2"));
        Set<Long> hashes = Set.copyOf(repeated);
        List<String> found = new ArrayList<>();
        b.rows(k -> b.hashedIn(k, hashes)).forEachRemaining(r -> found.add(r.id() + "@" + r.order()));
        assertThat(found).containsExactly("op-2@2", "op-1@4");
    }

    @Test
    void distinctIdsRepeatNoHash() {
        byBucket(4, part(0, "a", "b"), part(1, "c", "d"))
                .values().forEach(sorted -> assertThat(OperationFacts.repeated(sorted)).isEmpty());
        assertThat(OperationFacts.repeated(List.of(new long[] {1, 1, 1, 2}, new long[] {2, 3}))).containsExactly(1L, 2L);
    }

    @Test
    void groupsThatDidNotBuildCountButHaveNoId() {
        OperationFacts f = part(1, "x");
        f.failed(0, 7);
        assertThat(f.counts(2)).isDeepEqualTo(new long[][] {{1, 0, 0}, {1, 1, 1}});
        assertThat(f.hashesByBucket(1).next()._2()).containsExactly(OperationFacts.hash("x"));
        assertThat(f.row(1).built()).isFalse();
        assertThat(OperationFacts.hash("x")).isNotEqualTo(OperationFacts.hash("y"));
    }
}
