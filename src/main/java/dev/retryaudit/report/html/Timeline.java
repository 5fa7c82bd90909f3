package dev.retryaudit.report.html;

import dev.retryaudit.http.ResponseClock;
import dev.retryaudit.http.RetryAfterValue;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Operation;
import dev.retryaudit.text.Times;
import dev.retryaudit.text.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import static dev.retryaudit.report.html.Html.escape;
import static dev.retryaudit.report.html.Html.num;

/**
 * The SVG timeline of one operation's attempts: a row per attempt with a bar from its start to its
 * response, coloured by outcome; the Retry-After window after each response that carried one shaded
 * across the rows; attempts that came back early or overlapped a write outlined; the commit state of
 * each attempt on the right, with numbered markers for the findings about it. Times are offsets from
 * the first start. A window that ends far beyond the attempts is cut at the edge (and says so).
 */
public final class Timeline {
    /** The most attempts one timeline draws; the rest are counted below it. */
    public static final int MAX_ATTEMPTS = 200;

    static final String EARLY = "retry-after/early";
    static final String OVERLAP = "trace/overlap";

    private static final int WIDTH = 900;
    private static final int LEFT = 150;
    private static final int RIGHT = 220;
    private static final int TOP = 40;
    private static final int ROW = 24;
    private static final int MARKERS = 3;

    private final Operation op;
    private final List<Finding> findings;
    private final List<Attempt> attempts;
    private final List<Window> windows = new ArrayList<>();
    private long t0 = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;
    private double domain;

    /** A Retry-After window: from the response that carried it to the time it allowed. */
    private record Window(Attempt after, long from, long until, boolean cut) {
    }

    private Timeline(Operation op, List<Finding> findings) {
        this.op = op;
        this.findings = findings;
        this.attempts = op.attempts().subList(0, Math.min(op.attempts().size(), MAX_ATTEMPTS));
    }

    /**
     * The timeline of {@code op}, whose findings are {@code findings} (numbered from 1 in that order), or null
     * when no attempt has a start time to place.
     */
    public static String svg(Operation op, List<Finding> findings) {
        Timeline t = new Timeline(op, findings);
        return t.scale() ? t.draw() : null;
    }

    /** Finds the time range to draw; false when there is nothing to place. */
    private boolean scale() {
        for (Attempt a : attempts) {
            if (a.hasStart()) {
                t0 = Math.min(t0, a.startMillis());
                end = Math.max(end, Math.max(a.startMillis(), a.responseMillis()));
            }
        }
        if (t0 == Long.MAX_VALUE) {
            return false;
        }
        double span = Math.max(1.0, (double) end - t0);
        double limit = end + span / 4;
        double last = end;
        for (Attempt a : attempts) {
            Window w = window(a, limit);
            if (w != null) {
                windows.add(w);
                last = Math.max(last, w.until());
            }
        }
        domain = Math.max(1.0, last - t0);
        return true;
    }

    /** The Retry-After window after {@code a}, cut at {@code limit}; null when it carried none in the future. */
    private static Window window(Attempt a, double limit) {
        if (a.retryAfter() == null || !a.hasResponse()) {
            return null;
        }
        ResponseClock clock = ResponseClock.of(a);
        long from = clock.responseMillis();
        RetryAfterValue value = clock.retryAfter(a.retryAfter());
        if (value == null) {
            return null;
        }
        long until = clock.waitUntil(value);
        if (until <= from) {
            return null;
        }
        boolean cut = until > limit;
        return new Window(a, from, cut ? (long) limit : until, cut);
    }

    private String draw() {
        int rows = attempts.size();
        boolean more = op.attempts().size() > rows;
        int height = TOP + rows * ROW + (more ? 44 : 26);
        StringBuilder b = new StringBuilder(1024 + rows * 400);
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"").append(escape("attempts of " + op.id())).append("\">\n");
        b.append("<title>").append(escape("attempts of " + op.id() + " over time")).append("</title>\n");
        axis(b, rows);
        for (int i = 0; i < rows; i += 2) {
            b.append("<rect class=\"row\" x=\"0\" y=\"").append(TOP + i * ROW).append("\" width=\"").append(WIDTH)
                    .append("\" height=\"").append(ROW).append("\"/>\n");
        }
        for (Window w : windows) {
            window(b, w, rows);
        }
        for (int i = 0; i < rows; i++) {
            row(b, i);
        }
        if (more) {
            b.append("<text x=\"4\" y=\"").append(TOP + rows * ROW + 38).append("\">")
                    .append(op.attempts().size() - rows).append(" more attempts not drawn (at most ")
                    .append(MAX_ATTEMPTS).append(" are)</text>\n");
        }
        return b.append("</svg>").toString();
    }

    private void axis(StringBuilder b, int rows) {
        int bottom = TOP + rows * ROW;
        b.append("<text x=\"4\" y=\"14\" class=\"tick\">t0 ").append(escape(Times.format(t0))).append("</text>\n");
        for (int k = 0; k <= 4; k++) {
            double x = LEFT + plotWidth() * k / 4.0;
            b.append("<line class=\"grid\" x1=\"").append(num(x)).append("\" y1=\"").append(TOP - 4)
                    .append("\" x2=\"").append(num(x)).append("\" y2=\"").append(bottom).append("\"/>\n");
            b.append("<text class=\"tick\" x=\"").append(num(x)).append("\" y=\"").append(bottom + 16)
                    .append("\" text-anchor=\"").append(k == 0 ? "start" : k == 4 ? "end" : "middle").append("\">+")
                    .append(escape(duration(domain * k / 4.0))).append("</text>\n");
        }
        b.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(bottom).append("\" x2=\"")
                .append(LEFT + plotWidth()).append("\" y2=\"").append(bottom).append("\"/>\n");
    }

    private void window(StringBuilder b, Window w, int rows) {
        double x1 = x(w.from());
        double width = Math.max(1.0, x(w.until()) - x1);
        b.append("<rect class=\"ra\" x=\"").append(num(x1)).append("\" y=\"").append(TOP - 6).append("\" width=\"")
                .append(num(width)).append("\" height=\"").append(rows * ROW + 6).append("\"><title>")
                .append(escape("Retry-After: " + w.after().retryAfter() + " on attempt " + w.after().attemptId()
                        + (w.cut() ? ": the wait goes on beyond the edge" : ": no retry before "
                                + Times.format(w.until()))))
                .append("</title></rect>\n");
        b.append("<text class=\"ra-label\" x=\"").append(num(x1 + 2)).append("\" y=\"").append(TOP - 10)
                .append("\">wait #").append(w.after().attemptId()).append(w.cut() ? " \u2192" : "").append("</text>\n");
    }

    private void row(StringBuilder b, int i) {
        Attempt a = attempts.get(i);
        int y = TOP + i * ROW;
        b.append("<text x=\"4\" y=\"").append(y + 16).append("\">").append(escape(label(a))).append("</text>\n");
        List<Integer> marks = new ArrayList<>();
        boolean early = false;
        boolean overlap = false;
        for (int k = 0; k < findings.size(); k++) {
            Finding f = findings.get(k);
            if (f.attempt() != null && f.attempt() == a.attemptId()) {
                marks.add(k + 1);
                early |= f.rule().equals(EARLY);
                overlap |= f.rule().equals(OVERLAP);
            }
        }
        double barStart = LEFT;
        double barEnd = LEFT;
        if (a.hasStart()) {
            double x1 = x(a.startMillis());
            double width = Math.max(2.0, x(Math.max(a.startMillis(), a.responseMillis())) - x1);
            barStart = x1;
            barEnd = x1 + width;
            b.append("<rect class=\"o-").append(outcome(a)).append(early ? " early" : "")
                    .append(overlap ? " overlap" : "").append("\" x=\"").append(num(x1)).append("\" y=\"")
                    .append(y + 5).append("\" width=\"").append(num(width)).append("\" height=\"").append(ROW - 10)
                    .append("\" rx=\"2\"><title>").append(escape(describe(a))).append("</title></rect>\n");
        } else {
            b.append("<text class=\"tick\" x=\"").append(LEFT + 4).append("\" y=\"").append(y + 16)
                    .append("\">no start time</text>\n");
        }
        String flag = early && overlap ? "early, overlap" : early ? "early" : overlap ? "overlap" : null;
        if (flag != null) {
            double wide = 8 + flag.length() * 7.5;
            boolean right = barEnd + wide < LEFT + plotWidth();
            double at = right ? barEnd + 4 : barStart - wide > LEFT ? barStart - 4 : LEFT + plotWidth() - 2;
            b.append("<text class=\"flag\" x=\"").append(num(at)).append("\" y=\"").append(y + 16)
                    .append(right ? "\">" : "\" text-anchor=\"end\">").append(flag).append("</text>\n");
        }
        commit(b, a, y);
        markers(b, marks, y);
    }

    private void commit(StringBuilder b, Attempt a, int y) {
        int x = WIDTH - RIGHT + 8;
        if (a.commitState() == null) {
            b.append("<text class=\"tick\" x=\"").append(x).append("\" y=\"").append(y + 16).append("\">no commit state</text>\n");
            return;
        }
        String state = Wire.name(a.commitState(), '_');
        String source = a.commitStateSource() == null ? "" : " \u00b7 " + Wire.name(a.commitStateSource(), '_');
        b.append("<text class=\"c-").append(Wire.name(a.commitState(), '-')).append("\" x=\"").append(x)
                .append("\" y=\"").append(y + 16).append("\">").append(escape(state + source)).append("</text>\n");
    }

    private void markers(StringBuilder b, List<Integer> marks, int y) {
        for (int k = 0; k < marks.size() && k <= MARKERS; k++) {
            double cx = WIDTH - 56 + k * 18.0;
            if (k == MARKERS) {
                b.append("<text class=\"flag\" x=\"").append(num(cx - 6)).append("\" y=\"").append(y + 16).append("\">+")
                        .append(marks.size() - MARKERS).append("</text>\n");
                break;
            }
            b.append("<circle class=\"mark\" cx=\"").append(num(cx)).append("\" cy=\"").append(y + 12)
                    .append("\" r=\"7.5\"/><text class=\"mark-n\" x=\"").append(num(cx)).append("\" y=\"").append(y + 16)
                    .append("\" text-anchor=\"middle\">").append(marks.get(k)).append("</text>\n");
        }
    }

    private double plotWidth() {
        return WIDTH - LEFT - RIGHT;
    }

    private double x(long t) {
        double f = ((double) t - t0) / domain;
        return LEFT + Math.max(0.0, Math.min(1.0, f)) * plotWidth();
    }

    /** {@code #2 503 error}: the attempt id, its status, its outcome. */
    private static String label(Attempt a) {
        StringBuilder s = new StringBuilder("#").append(a.attemptId());
        if (a.status() != null) {
            s.append(' ').append(a.status());
        }
        if (a.outcome() != null) {
            s.append(' ').append(Wire.name(a.outcome(), '_'));
        }
        return s.length() > 19 ? s.substring(0, 18) + "\u2026" : s.toString();
    }

    /** The CSS class suffix of the attempt's outcome. */
    static String outcome(Attempt a) {
        return a.outcome() == null ? "unknown" : Wire.name(a.outcome(), '-');
    }

    /** The bar's tooltip: every time and state the attempt carried. */
    private static String describe(Attempt a) {
        StringBuilder s = new StringBuilder("attempt ").append(a.attemptId()).append(": started ")
                .append(Times.format(a.startMillis()));
        if (a.responseMillis() != a.startMillis()) {
            s.append(", response ").append(Times.format(a.responseMillis())).append(" (")
                    .append(duration((double) a.responseMillis() - a.startMillis())).append(')');
        }
        if (a.outcome() != null) {
            s.append(", ").append(Wire.name(a.outcome(), '_'));
        }
        if (a.status() != null) {
            s.append(", status ").append(a.status());
        }
        if (a.grpcStatus() != null) {
            s.append(", gRPC ").append(a.grpcStatus());
        }
        if (a.retryAfter() != null) {
            s.append(", Retry-After: ").append(a.retryAfter());
        }
        if (a.retryPushback() != null) {
            s.append(", grpc-retry-pushback-ms: ").append(a.retryPushback());
        }
        if (a.commitState() != null) {
            s.append(", commit state ").append(Wire.name(a.commitState(), '_'));
        }
        return s.toString();
    }

    /** {@code 480 ms}, {@code 9.4 s}, {@code 2.5 min}, {@code 3.0 h}. */
    static String duration(double ms) {
        if (ms < 1000) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000);
        }
        if (ms < 3_600_000) {
            return String.format(Locale.ROOT, "%.1f min", ms / 60_000);
        }
        return String.format(Locale.ROOT, "%.1f h", ms / 3_600_000);
    }
}
