package dev.retryaudit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RulesBesideTest {
    private static List<Operation> operations(int n) {
        List<Operation> ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ops.add(RetryAudit.operation("op-" + i, "charge").at(Location.atRecord("batch", i)).attempt(1, a -> { }).build());
        }
        return ops;
    }

    @Test
    void theRulesSeeEveryOperationInTheOrderHandedOnOnAThreadOfTheirOwn() {
        List<Operation> ops = operations(1_000);
        List<Operation> seen = Collections.synchronizedList(new ArrayList<>());
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        try (RulesBeside rules = new RulesBeside(op -> {
            seen.add(op);
            threads.add(Thread.currentThread().getName());
        })) {
            ops.forEach(rules);
            rules.finish();
        }
        assertThat(seen).containsExactlyElementsOf(ops);
        assertThat(threads).containsOnly("retry-audit-rules");
    }

    @Test
    void whatTheRulesThrowIsThrownAgainToTheReaderAsItWas() {
        IllegalStateException bug = new IllegalStateException("a rule's bug");
        List<Operation> ops = operations(5_000);
        try (RulesBeside rules = new RulesBeside(op -> {
            if (op == ops.get(300)) {
                throw bug;
            }
        })) {
            assertThatThrownBy(() -> {
                ops.forEach(rules);
                rules.finish();
            }).isSameAs(bug);
        }
        OutOfMemoryError full = new OutOfMemoryError("Java heap space");
        try (RulesBeside rules = new RulesBeside(op -> {
            throw full;
        })) {
            rules.accept(ops.get(0));
            assertThatThrownBy(rules::finish).isSameAs(full);
        }
    }

    @Test
    void aFailedReadEndsTheThreadWithoutWaitingForTheQueue() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Operation> seen = Collections.synchronizedList(new ArrayList<>());
        Thread[] thread = new Thread[1];
        RulesBeside rules = new RulesBeside(op -> {
            thread[0] = Thread.currentThread();
            seen.add(op);
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        operations(256 * 4).forEach(rules);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        rules.close();
        assertThat(thread[0].isAlive()).isFalse();
        // Interrupted in the first operation, the thread took no further batch.
        assertThat(seen.size()).isLessThanOrEqualTo(256);
    }
}
