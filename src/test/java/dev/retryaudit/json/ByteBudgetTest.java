package dev.retryaudit.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The budget places the first byte past its limit at the line and column a byte-by-byte count gives. */
class ByteBudgetTest {
    @Test
    void placesTheFirstByteOverTheLimitAsAByteByByteCountDoes() throws IOException {
        Random random = new Random(13);
        for (int round = 0; round < 500; round++) {
            byte[] input = new byte[1 + random.nextInt(300)];
            for (int i = 0; i < input.length; i++) {
                // newlines dense or sparse, beside bytes that differ from '\n' in one bit
                int pick = random.nextInt(round % 2 == 0 ? 4 : 40);
                input[i] = (byte) (pick == 0 ? '\n' : pick == 1 ? 0x0B : pick == 2 ? 0x8A : 'a' + pick % 26);
            }
            long limit = 1 + random.nextInt(input.length);
            InputStream in = new ByteBudget(limit).wrap(new ByteArrayInputStream(input));
            byte[] buf = new byte[64];
            long total = 0;
            ByteBudget.ExceededException over = null;
            try {
                for (int n; (n = in.read(buf, random.nextInt(8), 1 + random.nextInt(56))) > 0; ) {
                    total += n;
                }
            } catch (ByteBudget.ExceededException e) {
                over = e;
            }
            if (limit >= input.length) {
                assertThat(over).isNull();
                assertThat(total).isEqualTo(input.length);
                continue;
            }
            assertThat(over).as("round %d", round).isNotNull();
            assertThat(total).isEqualTo(limit);
            long line = 1;
            long column = 1;
            for (int i = 0; i < limit; i++) {
                line += input[i] == '\n' ? 1 : 0;
                column = input[i] == '\n' ? 1 : column + 1;
            }
            assertThat(over.line()).as("round %d", round).isEqualTo(line);
            assertThat(over.column()).as("round %d", round).isEqualTo(column);
        }
    }

    @Test
    void countsAllSourcesAgainstOneLimit() throws IOException {
        ByteBudget budget = new ByteBudget(10);
        assertThat(budget.wrap(new ByteArrayInputStream(new byte[6])).readAllBytes()).hasSize(6);
        InputStream second = budget.wrap(new ByteArrayInputStream("ab\ncdef".getBytes()));
        assertThatThrownBy(second::readAllBytes).isInstanceOfSatisfying(ByteBudget.ExceededException.class,
                e -> assertThat(new long[] {e.line(), e.column()}).containsExactly(2, 2));
    }
}
