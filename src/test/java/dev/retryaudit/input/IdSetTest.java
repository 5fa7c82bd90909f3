package dev.retryaudit.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The compact id set agrees with a HashSet, through growth, equal hash codes and empty strings. */
class IdSetTest {
    @Test
    void agreesWithAHashSet() {
        IdSet ids = new IdSet();
        Set<String> reference = new HashSet<>();
        Random rnd = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            String s = "op-" + rnd.nextInt(120_000) + (rnd.nextInt(50) == 0 ? "\u00e9\u4e2d" : "");
            assertThat(ids.add(s)).as(s).isEqualTo(reference.add(s));
        }
        assertThat(ids.size()).isEqualTo(reference.size());
    }

    @Test
    void stringsWithEqualHashCodesStayApart() {
        IdSet ids = new IdSet();
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        assertThat(ids.add("Aa")).isTrue();
        assertThat(ids.add("BB")).isTrue();
        assertThat(ids.add("Aa")).isFalse();
        assertThat(ids.add("BB")).isFalse();
        assertThat(ids.add("")).isTrue();
        assertThat(ids.add("")).isFalse();
        assertThat(ids.add("A")).isTrue();
    }

    @Test
    void longIdsGrowTheArena() {
        IdSet ids = new IdSet();
        String longId = "x".repeat(100_000);
        assertThat(ids.add(longId)).isTrue();
        assertThat(ids.add(longId + "y")).isTrue();
        assertThat(ids.add("x".repeat(100_000))).isFalse();
    }
}
