package example;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.ReportFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** A program that audits trace files with retry-audit's library API, as a user's would. */
public final class ConsumerAudit {
    private ConsumerAudit() {
    }

    /** Audits {@code files} with the built-in policy and rules. */
    public static AuditResult audit(List<Path> files) throws RetryAuditException {
        return RetryAudit.defaults().audit(AuditInput.files(files));
    }

    /** The result as the text report the command line prints. */
    public static String text(AuditResult result) throws IOException, RetryAuditException {
        RetryAudit text = RetryAudit.of(AuditSettings.builder().reportFormat(ReportFormat.TEXT).build());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        text.writeReport(result, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * Prints each finding's rule, operation and attempt, then the summary line; exits 2 when the audit fails, as
     * the command line does.
     */
    public static void main(String[] args) throws IOException, RetryAuditException {
        AuditResult result = audit(List.of(args).stream().map(Path::of).toList());
        for (Finding f : result.findings()) {
            System.out.println(f.rule() + " " + f.operation() + " attempt " + f.attempt());
        }
        System.out.println(RetryAudit.defaults().summary(result));
        System.exit(RetryAudit.defaults().passed(result) ? 0 : 2);
    }
}
