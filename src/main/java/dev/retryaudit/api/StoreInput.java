package dev.retryaudit.api;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.store.StoreException;
import dev.retryaudit.input.store.StoreQuery;
import dev.retryaudit.input.store.TraceStores;
import dev.retryaudit.model.internal.InputException;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Objects;

/** The traces a trace store answers {@code query} with ({@link AuditInput#store}), fetched when they are audited. */
record StoreInput(StoreQuery query) implements AuditInput {
    StoreInput {
        Objects.requireNonNull(query, "query");
    }

    /**
     * The store's answer, each at most {@code maxBytes} long, as the input set it makes, in the format it is in;
     * a store that cannot be reached is an unreadable input, a wrong answer a rejected one.
     */
    ReadInput fetch(long maxBytes) throws RetryAuditException {
        TraceStores.Fetched f;
        try {
            f = TraceStores.fetch(query, maxBytes);
        } catch (StoreException e) {
            throw RetryAuditException.of(e.unreachable() ? InputException.unreadable(e.source(), e.getMessage())
                    : InputException.rejected(e.source(), 0, 0, null, e.getMessage()));
        }
        return new ReadInput(List.of(new InputSet.Source(f.name(), null)), new ByteArrayInputStream(f.body()), f.format());
    }
}
