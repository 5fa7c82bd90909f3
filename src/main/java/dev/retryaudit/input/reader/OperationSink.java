package dev.retryaudit.input.reader;

import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Operation;

/** Where readers hand each complete operation; it may refuse one (a duplicate id, too many operations). */
public interface OperationSink {
    void accept(Operation op) throws InputException;
}
