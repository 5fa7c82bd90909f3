package dev.retryaudit.input.foreign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.values.ParentRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The parent offers held as numbers: the same answers as a map of the latest keys offered, whatever the keys. */
class OfferTableTest {
    private record Held(ParentRef attempt, long order) {
    }

    @Test
    void answersAsAnInsertionOrderedMapThatLetsItsFirstKeyGo() {
        Random random = new Random(7);
        for (int most : new int[] {1, 3, 64, 1_000, Integer.MAX_VALUE}) {
            OfferTable table = new OfferTable(most);
            Map<String, Held> model = new LinkedHashMap<>(16, 0.75f, false) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Held> eldest) {
                    return size() > most;
                }
            };
            for (int i = 0; i < 20_000; i++) {
                String key = key(random, 3_000);
                if (random.nextInt(3) == 0) {
                    ParentRef got = table.get(key);
                    Held want = model.get(key);
                    assertThat(got).as("%s at %d of %d", key, i, most).isEqualTo(want == null ? null : want.attempt());
                    continue;
                }
                ParentRef attempt = new ParentRef(random.nextBoolean() ? key(random, 50) : "op-" + random.nextInt(50),
                        1 + random.nextInt(4));
                long order = random.nextInt(5_000);
                table.offer(key, attempt, order);
                Held held = model.get(key);
                if (held == null || ParentOffers.wins(order, held.order())) {
                    model.put(key, new Held(attempt, order));
                }
                assertThat(table.size()).isEqualTo(model.size());
            }
            for (String key : model.keySet()) {
                assertThat(table.get(key)).isEqualTo(model.get(key).attempt());
            }
        }
    }

    /** A span key: mostly of OTLP's form, held as numbers, sometimes another string (upper-case hex, a name). */
    private static String key(Random random, int distinct) {
        int n = random.nextInt(distinct);
        return switch (n % 7) {
            case 0 -> "span-" + n;
            case 1 -> String.format("%032X/%016X", n, n);
            default -> String.format("%032x/%016x", n * 0x9E3779B97F4A7C15L, (long) n << 40 | n);
        };
    }
}
