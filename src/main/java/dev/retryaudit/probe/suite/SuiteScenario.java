package dev.retryaudit.probe.suite;

import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.Scenario;
import java.util.List;
import java.util.Objects;

/**
 * One scenario of a suite: its id, a title, why it is there and the public bug it reproduces, what
 * the server serves (the fields of a {@link Scenario} but the method, which is the suite's), how long
 * the client is given ({@code timeoutSeconds}), and whether the client may give up instead of
 * retrying ({@code mayGiveUp}: a wait too long to sit through, or a write whose outcome is unknown).
 */
public record SuiteScenario(String id, String title, String why, String bug, Served served, long timeoutSeconds,
        boolean mayGiveUp) {

    /** What the server does: the failing status, how many, the delays and their header, the stall and dedupe. */
    public record Served(int status, int failures, List<Long> delays, HeaderFormat headerFormat, long stallSeconds,
            boolean dedupe) {
        public Served {
            delays = List.copyOf(delays);
        }
    }

    public SuiteScenario {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(bug, "bug");
        Objects.requireNonNull(served, "served");
    }

    /** The probe scenario this serves for requests of {@code method}, keyed by {@code keyHeader}. */
    public Scenario scenario(String method, String keyHeader) {
        return new Scenario(method, served.status(), served.failures(), served.delays(), served.headerFormat(),
                Math.max(32, served.failures() + 1), served.stallSeconds(), served.dedupe(), keyHeader);
    }

    /** What the server does, in words: {@code 3x 429 Retry-After: 3, 1, 4 s, then 200}. */
    public String describe() {
        Served s = served;
        String delays = String.join(", ", s.delays().stream().map(String::valueOf).toList());
        String what;
        if (s.stallSeconds() > 0) {
            what = "held " + s.stallSeconds() + " s after committing" + (s.dedupe() ? ", dedupe by key" : ", no dedupe");
        } else if (s.status() == 422) {
            what = "422 (rejected as invalid)";
        } else {
            what = s.status() + " " + header(s.headerFormat(), delays, s.delays().get(0));
        }
        return s.failures() + "x " + what + ", then 200";
    }

    private static String header(HeaderFormat f, String delays, long first) {
        return switch (f) {
            case SECONDS -> "Retry-After: " + delays + " s";
            case HTTP_DATE -> "Retry-After: HTTP-date +" + delays + " s";
            case HTTP_DATE_PAST -> "Retry-After: HTTP-date " + first + " s past";
            case RETRY_AFTER_MS -> "retry-after-ms: " + delays + " s";
            case RETRY_AFTER_MS_AND_SECONDS -> "retry-after-ms: " + delays + " s beside a longer Retry-After";
            case NONE -> "without Retry-After";
            case NEGATIVE -> "Retry-After: -" + first;
            case FRACTIONAL -> "Retry-After: " + first + ".5";
        };
    }
}
