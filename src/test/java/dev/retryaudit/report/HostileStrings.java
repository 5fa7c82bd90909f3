package dev.retryaudit.report;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import java.util.List;

/** Strings an attacker could put in a trace, to prove the text and github formats never pass them through raw. */
final class HostileStrings {
    static final String SOURCE = "evil\u001b]0;owned\u0007,dir:/a%b.json";
    static final String MESSAGE = "done\u001b[2J\u001b[31m\rfaked line\n::error file=x::pwned, 100% %0A ::set-env name=A::B"
            + "\u009b31m\u0000\u007f\ttab \u202egnp.exe\u202c zero\u200bwidth line\u2028sep para\u2029sep"
            + " tag\udb40\udc01 bom\ufeff é 😀";
    static final String LONG = "x%,:\u001b".repeat(25_000);

    private HostileStrings() {
    }

    /** A report whose source names and messages hold every hostile string. */
    static Report report() {
        List<Finding> findings = List.of(
                finding(MESSAGE, new Location(SOURCE, 0, 3, 4, null)),
                finding("tool \u001b[1mboss\u001b[0m of op\r\nX::Y", new Location("plain.json", 1, 1, 1, null)),
                finding(LONG, new Location("plain.json", 1, 2, 1, null)));
        return new Report("retry-audit", "0.1.0",
                List.of(new InputSummary(SOURCE, "spans", 1, 2), new InputSummary("plain.json", "spans", 1, 1)),
                findings, FailOn.ERROR, ReportContractTest.RULES, "base\u001b[0m%,:.json", 1);
    }

    private static Finding finding(String message, Location at) {
        return Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR).operation("op\u001b")
                .attempt(1).tool("t").message(message).evidence(Evidence.of()).at(at).build();
    }

    /**
     * Whether a string holds any C0 or C1 control character or DEL, other than the line feeds that end lines,
     * or a format or separator character (Unicode Cf, Zl, Zp).
     */
    static boolean hasRawControl(String s) {
        return s.codePoints().anyMatch(c -> c != '\n' && (c < 0x20 || (c >= 0x7f && c <= 0x9f)
                || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.LINE_SEPARATOR
                || Character.getType(c) == Character.PARAGRAPH_SEPARATOR));
    }
}
