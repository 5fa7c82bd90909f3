package dev.retryaudit.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The finding order's bytes compare, unsigned, exactly as the comparator orders the findings. */
class FindingOrderTest {
    @Test
    void theKeyComparesAsTheComparatorDoes() {
        Random rnd = new Random(35);
        String[] texts = {"", "a", "ab", "b", "a\u0000", "\u00e9", "\uffff", "\ud83d\ude00", "z"};
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Finding.Builder b = Finding.builder()
                    .rule("r/" + texts[rnd.nextInt(texts.length)])
                    .severity(Severity.WARNING)
                    .message("m" + texts[rnd.nextInt(texts.length)])
                    .evidence(Evidence.of())
                    .at(new Location("s", rnd.nextInt(3) == 0 ? Integer.MAX_VALUE : rnd.nextInt(3),
                            rnd.nextInt(4) == 0 ? Long.MAX_VALUE : 1 + rnd.nextInt(3), 1 + rnd.nextInt(2), null));
            if (rnd.nextBoolean()) {
                b.attempt(rnd.nextInt(3) == 0 ? Integer.MIN_VALUE : rnd.nextInt(3));
            }
            if (rnd.nextBoolean()) {
                b.operation(texts[rnd.nextInt(texts.length)]);
            }
            findings.add(b.build());
        }
        for (Finding a : findings) {
            for (Finding b : findings) {
                assertThat(Integer.signum(Arrays.compareUnsigned(FindingOrder.key(a), FindingOrder.key(b))))
                        .as("%s against %s", a, b).isEqualTo(Integer.signum(FindingOrder.ORDER.compare(a, b)));
            }
        }
    }
}
