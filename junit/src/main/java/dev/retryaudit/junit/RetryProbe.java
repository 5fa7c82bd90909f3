package dev.retryaudit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Grades the HTTP client a test drives: before the test, a probe server on 127.0.0.1 serves the scenario
 * described here and its URL is injected into a {@code String} or {@link java.net.URI} parameter of the test;
 * after it, what the server saw is audited as {@code retry-audit probe} audits it, and a verdict other than
 * {@code honoured} fails the test with the verdict's reason and the deciding finding.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@ExtendWith(RetryProbeExtension.class)
public @interface RetryProbe {
    /** The method the scenario answers; others get 405. */
    String method() default "GET";

    /** The status of the failing responses: 429, 503 (with Retry-After), 422, 500, 502, 504 or 529. */
    int status() default 429;

    /** How many requests fail before the first 200. */
    int failures() default 3;

    /** The Retry-After delays in seconds, used in turn. */
    long[] delays() default {3, 1, 4};

    /** How the wait is asked for, as {@code probe --header-format} names it. */
    String headerFormat() default "seconds";
}
