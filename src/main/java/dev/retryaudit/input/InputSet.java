package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Operation;
import dev.retryaudit.text.Escaping;
import java.io.BufferedInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads every source of one audit in order as one input set: opens each file (or stdin), chooses
 * its format, enforces the limits that span sources (bytes, operations, unique operation ids) and
 * hands operations on as they are read. All input errors leave here as {@link InputException}.
 */
public final class InputSet {
    /** The name under which standard input is reported. */
    public static final String STDIN = "<stdin>";

    private static final Pattern FIRST_NUMBER = Pattern.compile("\\((\\d+)\\)");

    private final Limits limits;
    private final InputFormat format;
    private final StrictJson json;
    private final ByteBudget budget;
    private final Set<String> ids = new HashSet<>();
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
                throw InputException.unreadable(s.name(), "cannot be read: " + Escaping.controls(String.valueOf(e.getMessage())));
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
            throw InputException.unreadable(s.name(), "cannot be read: " + Escaping.controls(String.valueOf(e.getMessage())));
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
        try {
            reader.read(ctx);
        } catch (ByteBudget.ExceededException e) {
            throw streamError(ctx, s, null, bytesExceeded());
        } catch (StreamConstraintsException e) {
            throw streamError(ctx, s, e.getLocation(), limitMessage(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            throw streamError(ctx, s, e.getLocation(), "malformed JSON: " + jacksonMessage(e.getOriginalMessage()));
        } catch (CharConversionException e) {
            throw streamError(ctx, s, null, "not valid UTF-8: " + jacksonMessage(e.getMessage()));
        }
        return new InputSummary(s.name(), chosen.id(), counts[0], counts[1]);
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
            throw InputException.rejected(s.name(), 1, 1, null, bytesExceeded());
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

    private String bytesExceeded() {
        return "input exceeds the byte limit: more than " + budget.limit() + " bytes read (raise it with --limit-bytes)";
    }

    private static InputException at(Operation op, String detail) {
        var l = op.location();
        return InputException.rejected(l.source(), l.line(), l.column(), Drafts.pathOf(l), detail);
    }

    private static InputException streamError(ReadContext ctx, Source s, JsonLocation where, String detail) {
        JsonCursor c = ctx.cursor();
        long line = 1;
        long column = 1;
        String path = null;
        if (c != null) {
            JsonLocation l = where != null ? where : c.parser().currentLocation();
            line = Math.max(1, l.getLineNr());
            column = Math.max(1, l.getColumnNr());
            path = JsonCursor.path(c.parser().getParsingContext());
        }
        return InputException.rejected(s.name(), line, column, path, detail);
    }

    static String limitMessage(String jackson) {
        Matcher m = FIRST_NUMBER.matcher(jackson == null ? "" : jackson);
        String reached = m.find() ? m.group(1) : "?";
        if (jackson != null && jackson.contains("nesting depth")) {
            return "input nests deeper than the depth limit (depth " + reached
                    + " reached; raise it with --limit-depth)";
        }
        return "a string of at least " + reached + " characters exceeds the string limit (raise it with --limit-string)";
    }

    static String jacksonMessage(String m) {
        String first = m == null ? "" : m.lines().findFirst().orElse("");
        first = first.replaceAll("\\s*\\(start marker at \\[Source:[^\\]]*\\]\\)", "");
        return Escaping.shortened(first, 200);
    }
}
