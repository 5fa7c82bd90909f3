package dev.retryaudit.input.foreign;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Outcome;
import java.io.IOException;

/**
 * Reads an array of a span's failure hints (Zipkin annotations, Jaeger logs) to the outcome the first
 * of them names; a value that is not an array is passed over, as hints are.
 */
public final class FailureHints {
    /** Reads one element of the array, the cursor on its first token, to the outcome it names or null. */
    @FunctionalInterface
    public interface Hint {
        Outcome read(JsonCursor c) throws IOException, InputException;
    }

    private FailureHints() {
    }

    /** The outcome the first element that names one names, or null; every element is read. */
    public static Outcome first(JsonCursor c, Hint hint) throws IOException, InputException {
        if (c.token() != JsonToken.START_ARRAY) {
            c.skip();
            return null;
        }
        Outcome found = null;
        while (c.next() != JsonToken.END_ARRAY) {
            Outcome o = hint.read(c);
            found = found != null ? found : o;
        }
        return found;
    }
}
