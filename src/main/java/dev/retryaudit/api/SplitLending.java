package dev.retryaudit.api;

import dev.retryaudit.api.access.SplitAccess;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.rules.engine.Engine;
import java.util.List;

/** What an auditor lends the split protocol: its engine, limits and judged result, and the library error of an input error. */
final class SplitLending implements SplitAccess.Lender<RetryAudit, AuditResult, RetryAuditException> {
    @Override
    public Engine engine(RetryAudit auditor) {
        return auditor.partEngine();
    }

    @Override
    public Limits limits(RetryAudit auditor) {
        return auditor.settings().limits();
    }

    @Override
    public InputSummary feed(Engine engine, Iterable<Operation> operations) {
        return RetryAudit.feed(engine, operations, OperationsInput.SOURCE, OperationsInput.FORMAT);
    }

    @Override
    public AuditResult result(RetryAudit auditor, InputSummary counted, List<InputNote> notes, Engine engine) {
        return auditor.result(List.of(new InputSummary(OperationsInput.SOURCE, OperationsInput.FORMAT,
                counted.operations(), counted.attempts(), notes)), engine);
    }

    @Override
    public RetryAuditException error(InputException e) {
        return RetryAuditException.of(e);
    }
}
