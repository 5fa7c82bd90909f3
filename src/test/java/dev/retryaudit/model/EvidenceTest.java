package dev.retryaudit.model;

import dev.retryaudit.text.Times;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Evidence keeps its facts in the order they were added and compares as the map of them. */
class EvidenceTest {
    @Test
    void factsKeepTheirOrderAndReadAsAMap() {
        Evidence e = Evidence.of().put("z", 1).put("a", "two").put("m", null).put("l", List.of(1L, 2L));
        assertThat(e.size()).isEqualTo(4);
        assertThat(List.of(e.key(0), e.key(1), e.key(2), e.key(3))).containsExactly("z", "a", "m", "l");
        assertThat(e.value(1)).isEqualTo("two");
        assertThat(e.asMap().keySet()).containsExactly("z", "a", "m", "l");
        Map<String, Object> same = new LinkedHashMap<>();
        same.put("z", 1);
        same.put("a", "two");
        same.put("m", null);
        same.put("l", List.of(1L, 2L));
        assertThat(e.asMap()).isEqualTo(same);
        assertThat(e.asMap().hashCode()).isEqualTo(same.hashCode());
        assertThat(e.has("m")).isTrue();
        assertThat(e.has("q")).isFalse();
        assertThatThrownBy(() -> e.key(4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aTimeReadsAsItsFormattedStringAndEqualsIt() {
        long at = 1_788_793_036_164L;
        Evidence e = Evidence.of().put("n", 1).putTime("at", at);
        assertThat(e.value(1)).isEqualTo("2026-09-07T14:57:16.164Z").isEqualTo(Times.format(at));
        assertThat(e.frozen().value(1)).isEqualTo(Times.format(at));
        assertThat(e.asMap()).containsEntry("at", Times.format(at));
        assertThat(e).isEqualTo(Evidence.of().put("n", 1).put("at", Times.format(at)));
        assertThatThrownBy(() -> e.putTime("at", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> e.frozen().putTime("t", 0)).isInstanceOf(UnsupportedOperationException.class);
        Evidence many = Evidence.of();
        for (int i = 0; i < 70; i++) {
            many.putTime("t" + i, at + i);
        }
        assertThat(many.value(69)).isEqualTo(Times.format(at + 69));
        assertThat(many.value(3)).isEqualTo(Times.format(at + 3));
    }

    @Test
    void equalWhenTheFactsAreEqualInAnyOrder() {
        Evidence a = Evidence.of().put("x", 1).put("y", true);
        Evidence b = Evidence.of().put("y", true).put("x", 1);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isEqualTo(b.frozen());
        assertThat(a).isNotEqualTo(Evidence.of().put("x", 1));
    }

    @Test
    void aKeyTwiceIsRefusedUnlessItsFirstValueWasNull() {
        Evidence e = Evidence.of().put("x", 1);
        assertThatThrownBy(() -> e.put("x", 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("evidence key repeated or empty: x");
        assertThatThrownBy(() -> e.put("", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> e.put("o", new Object())).isInstanceOf(IllegalArgumentException.class);
        Evidence late = Evidence.of().put("n", null).put("k", 1).put("n", "set");
        assertThat(late.asMap().keySet()).containsExactly("n", "k");
        assertThat(late.value(0)).isEqualTo("set");
    }

    @Test
    void growsPastItsFirstCapacityAndFreezesACopy() {
        Evidence e = Evidence.of();
        for (int i = 0; i < 20; i++) {
            e.put("k" + i, i);
        }
        Evidence frozen = e.frozen();
        e.put("later", 1);
        assertThat(frozen.size()).isEqualTo(20);
        assertThat(frozen.value(19)).isEqualTo(19);
        assertThat(frozen.frozen()).isSameAs(frozen);
        assertThatThrownBy(() -> frozen.put("more", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.asMap().put("more", 1)).isInstanceOf(UnsupportedOperationException.class);
    }
}
