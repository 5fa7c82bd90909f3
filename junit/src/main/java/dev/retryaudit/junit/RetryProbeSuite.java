package dev.retryaudit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Grades the HTTP client a test method drives against a probe suite ({@code retry-audit probe --suite}), one
 * scenario at a time: the method is a test template called once per scenario, each call its own test named
 * {@code ID: TITLE}, with a fresh probe server on 127.0.0.1 whose URL is injected into a {@code String} or
 * {@link java.net.URI} parameter (and the scenario into a {@link dev.retryaudit.probe.suite.SuiteScenario} one).
 * The method is the client: it returns (exit 0), throws (exit 1) or is interrupted at the scenario's timeout
 * (killed); the call is then graded as the command's scorecard grades the scenario's row, and fails with that row
 * in one line ({@code ID: VERDICT: RULE: FINDING (server: ...; client: ...)}) unless it is honoured. A scenario
 * that lets the client give up (a wait over a minute, a write whose outcome is unknown) is honoured when the
 * method throws after one request; otherwise a call whose client did right but whose method threw fails with
 * what it threw.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@TestTemplate
@ExtendWith(RetryProbeSuiteExtension.class)
public @interface RetryProbeSuite {
    /** The built-in suite: {@code http}, {@code writes} or {@code otlp}. */
    String value();

    /** The ids of the suite's scenarios to run, in the suite's order; empty for all of them. */
    String[] scenarios() default {};

    /** The method the scenarios answer (others get 405); empty for the suite's own ({@code GET} or {@code POST}). */
    String method() default "";

    /** The header whose value identifies a write, for the scenarios whose server deduplicates. */
    String keyHeader() default "Idempotency-Key";

    /** How long each call may run, in seconds, before it is interrupted as a killed client; 0 for each scenario's own. */
    long timeoutSeconds() default 0;

    /** Whether a scenario that tested nothing is skipped (aborted) rather than failed. */
    boolean allowNotTested() default false;
}
