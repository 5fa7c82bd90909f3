package dev.retryaudit.input.reader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The id table numbers strings in the order first put, whether put as strings or as characters. */
class IdTableTest {
    @Test
    void numbersEntriesAsAMapWouldThroughGrowth() {
        IdTable table = new IdTable();
        Map<String, Integer> reference = new HashMap<>();
        Random rnd = new Random(11);
        for (int i = 0; i < 100_000; i++) {
            String s = "op-" + rnd.nextInt(60_000) + (rnd.nextInt(40) == 0 ? "\u00e9\u4e2d" : "")
                    + (rnd.nextInt(5_000) == 0 ? "x".repeat(10_000 + rnd.nextInt(40_000)) : "");
            Integer known = reference.putIfAbsent(s, reference.size());
            int put = rnd.nextBoolean() ? table.put(s) : table.put((s + "tail").toCharArray(), s.length(), s.hashCode());
            assertThat(put).as(s).isEqualTo(known == null ? reference.get(s) : -(known + 1));
        }
        assertThat(table.size()).isEqualTo(reference.size());
        reference.forEach((s, entry) -> assertThat(table.get(entry)).isEqualTo(s));
    }

    @Test
    void anEmptyStringMayComeFirst() {
        IdTable table = new IdTable();
        assertThat(table.put("")).isEqualTo(0);
        assertThat(table.put("\u4e2d")).isEqualTo(1);
        assertThat(table.put(new char[] {'\u4e2d'}, 1, "\u4e2d".hashCode())).isEqualTo(-2);
        assertThat(table.get(0)).isEmpty();
        assertThat(table.get(1)).isEqualTo("\u4e2d");
    }

    @Test
    void equalHashCodesAndEmptyStringsStayApart() {
        IdTable table = new IdTable();
        assertThat(table.put("Aa")).isEqualTo(0);
        assertThat(table.put("BB".toCharArray(), 2, "BB".hashCode())).isEqualTo(1);
        assertThat(table.put("")).isEqualTo(2);
        assertThat(table.put(new char[0], 0, 0)).isEqualTo(-3);
        assertThat(table.put("BB")).isEqualTo(-2);
        assertThat(table.get(1)).isEqualTo("BB");
    }
}
