package dev.retryaudit.json;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.text.Suggestions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A gRPC status code as our formats write it (the native formats' {@code grpc_status}, the policy's gRPC lists). */
public final class GrpcStatusValue {
    private GrpcStatusValue() {
    }

    /**
     * A gRPC status code at the cursor, by its upper-case name or its number (0..16); null for JSON null.
     */
    public static GrpcStatus read(JsonCursor c) throws IOException, InputException {
        if (c.token() == JsonToken.VALUE_NUMBER_INT) {
            return GrpcStatus.ofCode(c.optInt(0, GrpcStatus.values().length - 1));
        }
        String name = c.token() == JsonToken.VALUE_STRING ? c.optString() : null;
        if (c.isNull()) {
            return null;
        }
        GrpcStatus s = null;
        if (name != null) {
            try {
                s = GrpcStatus.valueOf(name);
            } catch (IllegalArgumentException e) {
                s = null;
            }
        }
        if (s == null) {
            List<String> names = new ArrayList<>();
            for (GrpcStatus g : GrpcStatus.values()) {
                names.add(g.name());
            }
            List<String> close = name == null ? List.of() : Suggestions.closestAll(name, names, 2);
            throw c.error("expected a gRPC status code: its name (OK, CANCELLED, ..., UNAUTHENTICATED) or its number "
                    + "0 to 16" + (close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)"));
        }
        return s;
    }
}
