package dev.retryaudit.input;

import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Operation;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads every source of one audit in order as one input set: opens each file (or stdin), chooses
 * its format, enforces the limits that span sources (bytes, operations, unique operation ids) and
 * hands operations on as they are read. All input errors leave here as {@link InputException}.
 */
public final class InputSet {
    /** The name under which standard input is reported. */
    public static final String STDIN = "<stdin>";

    private final Limits limits;
    private final InputFormat format;
    private final StrictJson json;
    private final ByteBudget budget;
    private final IdSet ids = new IdSet();
    private long operations;

    public InputSet(InputFormat format, Limits limits) {
        this.format = format;
        this.limits = limits;
        this.json = new StrictJson(limits);
        this.budget = new ByteBudget(limits.bytes());
    }

    /** A source: a file path as the user gave it, or "-" for standard input. */
    public record Source(String name, Path path) {
        public static Source of(String arg) {
            return arg.equals("-") ? new Source(STDIN, null) : new Source(arg, Path.of(arg));
        }

        boolean isStdin() {
            return path == null;
        }
    }

    /** Reads all sources, handing every operation to {@code out}; returns what each source held. */
    public List<InputSummary> readAll(List<Source> sources, InputStream stdin, Consumer<Operation> out)
            throws InputException {
        List<InputSummary> summaries = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            Source s = sources.get(i);
            try (InputStream raw = s.isStdin() ? stdin : open(s)) {
                summaries.add(readOne(s, i, raw, out));
            } catch (IOException e) {
                throw ParseFailures.unreadable(s.name(), e);
            }
        }
        return summaries;
    }

    /** Opens a named file, or says why it cannot be read (exit 66). */
    static InputStream open(Source s) throws InputException {
        Path p = s.path();
        if (Files.isDirectory(p)) {
            throw InputException.unreadable(s.name(), "is a directory, not a file");
        }
        try {
            return Files.newInputStream(p);
        } catch (NoSuchFileException e) {
            throw InputException.unreadable(s.name(), "no such file");
        } catch (AccessDeniedException e) {
            throw InputException.unreadable(s.name(), "cannot be read: permission denied");
        } catch (IOException e) {
            throw ParseFailures.unreadable(s.name(), e);
        }
    }

    private InputSummary readOne(Source s, int index, InputStream raw, Consumer<Operation> out)
            throws InputException, IOException {
        BufferedInputStream in = new BufferedInputStream(budget.wrap(raw), 1 << 16);
        InputFormat chosen = format == InputFormat.AUTO ? detect(s, in) : format;
        TraceReader reader = Readers.forFormat(chosen);
        if (reader == null) {
            throw InputException.rejected(s.name(), 1, 1, null, "the " + chosen.id() + " format is not supported by this build");
        }
        long[] counts = new long[2];
        OperationSink sink = op -> {
            if (!ids.add(op.id())) {
                throw at(op, "duplicate operation id: operation ids must be unique in the input set");
            }
            if (++operations > limits.operations()) {
                throw at(op, "more than " + limits.operations()
                        + " operations, the operations limit (raise it with --limit-operations)");
            }
            counts[0]++;
            counts[1] += op.attempts().size();
            out.accept(op);
        };
        ReadContext ctx = new ReadContext(s.name(), index, in, json, limits, sink);
        ParseFailures.reading(s.name(), () -> ctx.cursor() == null ? null : ctx.cursor().parser(), budget.limit(),
                () -> {
                    reader.read(ctx);
                    return null;
                });
        return new InputSummary(s.name(), chosen.id(), counts[0], counts[1], ctx.notes());
    }

    private InputFormat detect(Source s, BufferedInputStream in) throws InputException, IOException {
        byte[] head = new byte[FormatDetector.HEAD_BYTES];
        in.mark(head.length + 1);
        int n = 0;
        try {
            int r;
            while (n < head.length && (r = in.read(head, n, head.length - n)) > 0) {
                n += r;
            }
        } catch (ByteBudget.ExceededException e) {
            // Detect on what was read; the reader meets the limit again and reports where.
        }
        in.reset();
        FormatDetector.Guess g = FormatDetector.detect(s.name(), head, n, json);
        if (g.format() == null && budget.exceeded()) {
            throw InputException.rejected(s.name(), 1, 1, null, ParseFailures.bytesExceeded(budget.limit()));
        }
        if (g.empty()) {
            throw InputException.rejected(s.name(), 1, 1, null, "empty input: expected a JSON document or JSON Lines");
        }
        if (g.format() == null) {
            throw InputException.rejected(s.name(), 1, 1, null,
                    "cannot tell the input format from the content; name it with --input-format (one of "
                            + String.join(", ", InputFormat.ids().subList(1, InputFormat.ids().size())) + ")");
        }
        return g.format();
    }

    private static InputException at(Operation op, String detail) {
        var l = op.location();
        return InputException.rejected(l.source(), l.line(), l.column(), Drafts.pathOf(l), detail);
    }
}
