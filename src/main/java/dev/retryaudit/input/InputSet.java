package dev.retryaudit.input;

import dev.retryaudit.json.ByteBudget;
import dev.retryaudit.model.internal.LimitChecks;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.OperationSink;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
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
    public static final String STDIN = InputSummary.STDIN;

    /** The most white space detection looks past at the start of an input, held in memory while it does. */
    static final int MAX_BLANK = 16 << 20;

    /** Memory set aside to report running out of it; see {@link #outOfMemory}. */
    private static byte[] reserve = new byte[1 << 21];

    private final Limits limits;
    private final InputFormat format;
    private final StrictJson json;
    private final ByteBudget budget;
    private IdSet ids = new IdSet();
    private long operations;

    public InputSet(InputFormat format, Limits limits) {
        this.format = format;
        this.limits = limits;
        this.json = new StrictJson(limits);
        this.budget = new ByteBudget(limits.bytes());
    }

    /**
     * A source: a file as the user named it and its path, or "-" for standard input (no path);
     * {@code unusable} says why a name could not be turned into a path (null when it could).
     */
    public record Source(String name, Path path, String unusable) {
        public Source(String name, Path path) {
            this(name, path, null);
        }

        public static Source of(String arg) {
            if (arg.equals("-")) {
                return new Source(STDIN, null);
            }
            try {
                return new Source(arg, FileNames.resolve(arg));
            } catch (FileNames.UnusableNameException e) {
                return new Source(arg, null, e.getMessage());
            }
        }

        boolean isStdin() {
            return path == null && unusable == null;
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
            } catch (OutOfMemoryError e) {
                throw outOfMemory(s.name());
            }
        }
        return summaries;
    }

    /**
     * Opens a named file, or says why it cannot be read (exit 66). Pipes, FIFOs and devices
     * ({@code <(...)}, {@code /dev/stdin}) are read as streams: nothing asks them for a size or position.
     */
    public static InputStream open(Source s) throws InputException {
        if (s.unusable() != null) {
            throw InputException.unreadable(s.name(), s.unusable());
        }
        Path p = s.path();
        if (Files.isDirectory(p)) {
            throw InputException.unreadable(s.name(), "is a directory, not a file");
        }
        try {
            return new Unsized(Files.newInputStream(p));
        } catch (NoSuchFileException e) {
            throw InputException.unreadable(s.name(), "no such file");
        } catch (AccessDeniedException e) {
            throw InputException.unreadable(s.name(), "cannot be read: permission denied");
        } catch (IOException e) {
            throw ParseFailures.unreadable(s.name(), e);
        }
    }

    /**
     * A file's stream that never reports how much is left: the file channel's {@code available()} asks
     * for the size and position, which a pipe does not have ("Illegal seek").
     */
    private static final class Unsized extends FilterInputStream {
        Unsized(InputStream in) {
            super(in);
        }

        @Override
        public int available() {
            return 0;
        }
    }

    private InputSummary readOne(Source s, int index, InputStream raw, Consumer<Operation> out)
            throws InputException, IOException {
        BufferedInputStream sniffed = new BufferedInputStream(raw, 1 << 16);
        Compression compression = Compression.of(sniffed);
        InputStream text;
        try {
            text = compression == null ? sniffed : compression.decompress(sniffed);
        } catch (Compression.UnavailableException e) {
            throw InputException.unreadable(s.name(), e.getMessage());
        }
        ByteBudget.Counted counted = budget.wrap(text, compression != null);
        BufferedInputStream in = new BufferedInputStream(counted, 1 << 16);
        String name = compression == null ? s.name() : compression.inner(s.name());
        try (InputStream closing = text) {
            try {
                InputFormat chosen = format == InputFormat.AUTO ? detect(s.name(), name, in) : format;
                return read(s, index, in, chosen, out);
            } catch (InputException e) {
                if (compression != null && e.limit() == null) {
                    checkToTheEnd(in);
                }
                throw e;
            }
        } catch (Compression.CorruptException e) {
            throw InputException.rejected(s.name(), counted.line(), counted.column(), null, e.getMessage());
        }
    }

    /**
     * Decompresses the rest of a rejected compressed source, up to the byte limit, so that corrupt data,
     * which a decoder may turn into text that is not JSON before its checksum shows the damage, is
     * reported as what it is: throws the {@link Compression.CorruptException} if there is one.
     */
    private static void checkToTheEnd(InputStream in) throws Compression.CorruptException {
        byte[] scratch = new byte[1 << 16];
        try {
            while (in.read(scratch) >= 0) {
                // Only the decoder's checks matter here.
            }
        } catch (Compression.CorruptException e) {
            throw e;
        } catch (IOException e) {
            // Over the byte limit, or unreadable: the first error stands.
        }
    }

    private InputSummary read(Source s, int index, BufferedInputStream in, InputFormat chosen, Consumer<Operation> out)
            throws InputException, IOException {
        TraceReader reader = Readers.forFormat(chosen);
        if (reader == null) {
            throw InputException.rejected(s.name(), 1, 1, null, "the " + chosen.id() + " format is not supported by this build");
        }
        long[] counts = new long[2];
        OperationSink sink = op -> {
            if (!ids.add(op.id())) {
                throw duplicateId(op.location());
            }
            LimitChecks.operations(limits, ++operations, detail -> at(op, detail));
            counts[0]++;
            counts[1] += op.attempts().size();
            out.accept(op);
        };
        ReadContext ctx = new ReadContext(s.name(), index, in, json, limits, sink);
        ParseFailures.reading(s.name(), () -> ctx.cursor() == null ? null : ctx.cursor().parser(), limits,
                () -> {
                    reader.read(ctx);
                    return null;
                });
        if (counts[0] == 0) {
            String found = ctx.withoutAttempt().found();
            if (found == null && !(ctx.made().isEmpty() && ctx.leftOut() == 0)) {
                found = "no attempt the audit reads (the other notes on it say what was left out)";
            }
            ctx.note(0, 0, (found == null ? InputNote.nothingToAudit(s.name())
                    : InputNote.nothingToAudit(s.name(), found)).message());
        }
        return new InputSummary(s.name(), chosen.id(), counts[0], counts[1], ctx.notes());
    }

    /**
     * The format of the source reported as {@code source}, from the first bytes of its text and
     * {@code name} (the file name without a compression's extension).
     */
    private InputFormat detect(String source, String name, BufferedInputStream in)
            throws InputException, IOException {
        byte[] head = new byte[FormatDetector.HEAD_BYTES];
        in.mark(MAX_BLANK + head.length + 1);
        int n = 0;
        long blank = 0;
        IOException stopped = null;
        try {
            // A head of white space alone shows nothing: look past it, up to MAX_BLANK bytes of it.
            while (true) {
                n = 0;
                int r;
                while (n < head.length && (r = in.read(head, n, head.length - n)) > 0) {
                    n += r;
                }
                if (n < head.length || !blank(head, n) || blank >= MAX_BLANK) {
                    break;
                }
                blank += n;
            }
        } catch (ByteBudget.ExceededException | Compression.CorruptException e) {
            // Detect on what was read; the reader meets the same failure again and reports where.
            stopped = e;
        }
        in.reset();
        if (n == head.length && blank(head, n)) {
            throw InputException.rejected(source, 1, 1, null, "the input starts with more than "
                    + (MAX_BLANK >> 20) + " MiB of white space and nothing else; remove it, or name the format "
                    + "with --input-format");
        }
        if (blank == 0 && zeros(head, n)) {
            throw InputException.rejected(source, 1, 1, null, "the input holds only NUL bytes (" + n
                    + (n == head.length ? " or more" : "") + "), as a file that was allocated but never "
                    + "written does: it is no trace export");
        }
        FormatDetector.Guess g = FormatDetector.detect(name, head, n, json);
        if (g.format() == null && stopped instanceof ByteBudget.ExceededException exceeded) {
            throw ParseFailures.bytesExceeded(source, exceeded.line(), exceeded.column(), null, budget.limit(),
                    exceeded.decompressed());
        }
        if (g.format() == null && stopped != null) {
            throw stopped;
        }
        if (g.empty()) {
            throw InputException.rejected(source, 1, 1, null, "empty input: expected a JSON document or JSON Lines");
        }
        if (g.format() == null) {
            throw InputException.rejected(source, 1, 1, null,
                    "cannot tell the input format from the content; name it with --input-format (one of "
                            + String.join(", ", InputFormat.ids().subList(1, InputFormat.ids().size())) + ")");
        }
        return g.format();
    }

    /** Whether the first {@code n} bytes are JSON white space alone. */
    private static boolean blank(byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }

    /** Whether the first {@code n} bytes, at least one, are all NUL. */
    private static boolean zeros(byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return n > 0;
    }

    /**
     * The heap ran out while reading {@code source}: the reserve is given back so that the message can
     * be built, and the operations read so far are dropped with this input set once it is thrown.
     */
    private InputException outOfMemory(String source) {
        reserve = null;
        ids = null;
        return InputException.rejected(source, 0, 0, null,
                "out of memory while reading this input: the Java heap is too small for it").over(Limit.MEMORY);
    }

    /** The rejection of an operation at {@code l} whose id an operation earlier in the input set has. */
    public static InputException duplicateId(Location l) {
        return at(l, "duplicate operation id: operation ids must be unique in the input set");
    }

    /** The rejection of the operation at {@code l} that takes the input set over the operations limit. */
    public static InputException overOperations(Limits limits, Location l) {
        try {
            LimitChecks.operations(limits, limits.operations() + 1, detail -> at(l, detail));
        } catch (InputException e) {
            return e;
        }
        throw new IllegalStateException("the operations limit did not reject one operation over it");
    }

    private static InputException at(Operation op, String detail) {
        return at(op.location(), detail);
    }

    private static InputException at(Location l, String detail) {
        return InputException.rejected(l.source(), l.line(), l.column(), Drafts.pathOf(l), detail);
    }
}
