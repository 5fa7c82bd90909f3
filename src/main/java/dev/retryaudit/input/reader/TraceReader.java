package dev.retryaudit.input.reader;

import dev.retryaudit.model.internal.InputException;
import java.io.IOException;

/** Reads one source of one input format into operations, handing each to the context's sink as soon as it is complete. */
public interface TraceReader {
    /**
     * Reads the whole source. Input errors are thrown as {@link InputException}; parse errors and
     * limits raised by the stream come out as IOExceptions that the input set words.
     */
    void read(ReadContext ctx) throws IOException, InputException;
}
