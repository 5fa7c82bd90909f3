package dev.retryaudit.api;

import dev.retryaudit.input.FileNames;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Readers;
import dev.retryaudit.input.store.StoreQuery;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Operation;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one audit reads ({@link RetryAudit#audit}): files and a stream in any supported format, read in order
 * as one input set, or operations built in code or read elsewhere. Made by its factories; an audit reads it
 * once, and a stream is read to its end.
 */
public sealed interface AuditInput permits ReadInput, OperationsInput, StoreInput {
    /** Files, each named in locations and the report by its path. */
    static AuditInput files(List<Path> files) {
        return new ReadInput(files.stream().map(p -> new InputSet.Source(p.toString(), p)).toList(), null);
    }

    /** One file named in locations and the report as {@code name} (for example as a user typed it). */
    static AuditInput file(Path file, String name) {
        return new ReadInput(List.of(new InputSet.Source(Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(file, "file"))), null);
    }

    /**
     * What a command line's operand {@code name} reads: {@code -} is {@code stdin} (named {@code <stdin>}, read to
     * its end), any other name the file it denotes ({@link #path}); a name that cannot denote a file is an input
     * that cannot be read.
     */
    static AuditInput named(String name, InputStream stdin) throws RetryAuditException {
        InputSet.Source s = InputSet.Source.of(name);
        if (s.unusable() != null) {
            throw RetryAuditException.of(InputException.unreadable(name, s.unusable()));
        }
        return s.path() == null ? stream(stdin, s.name()) : file(s.path(), s.name());
    }

    /**
     * The path a file name typed on a command line denotes, found by the directory entries when the locale cannot
     * represent it; an {@link IllegalArgumentException} says, for people, why {@code name} cannot be one.
     */
    static Path path(String name) {
        try {
            return FileNames.resolve(name);
        } catch (FileNames.UnusableNameException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Whether a file can be created under exactly {@code name} in the locale's character set. */
    static boolean representable(String name) {
        return FileNames.representable(name);
    }

    /**
     * The traces a trace store holds, as {@code audit --from} asks for them: {@code from} names the store
     * ({@code zipkin:URL}, {@code jaeger:URL} or {@code tempo:URL}); one trace by {@code traceId}, or those of
     * {@code service} (null: of any, where the store allows it) that started within {@code since}, at most
     * {@code limit}. They are fetched when the input is audited, in bounded requests, and read in the format the
     * store answers, whatever the settings' input format; a store that cannot be reached is an unreadable input,
     * a wrong answer a rejected one. A query that cannot be asked is an {@link IllegalArgumentException} saying why.
     */
    static AuditInput store(String from, String service, Duration since, String traceId, int limit) {
        return new StoreInput(StoreQuery.of(from, service, since, traceId, limit, Instant.now()));
    }

    /** The ids of the input formats an audit reads, {@code auto} first. */
    static List<String> formats() {
        return Readers.supportedIds();
    }

    /** One stream named {@code name} in locations, fingerprints and the report. */
    static AuditInput stream(InputStream in, String name) {
        return new ReadInput(List.of(new InputSet.Source(Objects.requireNonNull(name, "name"), null)),
                Objects.requireNonNull(in, "in"));
    }

    /**
     * Files and a stream read in the order given as one input set (the checks across files, such as an
     * operation id given twice, span them all); at most one of them may be a stream, and none operations.
     */
    static AuditInput all(List<AuditInput> inputs) {
        List<InputSet.Source> sources = new ArrayList<>();
        InputStream stream = null;
        for (AuditInput i : inputs) {
            if (!(i instanceof ReadInput r)) {
                throw new IllegalArgumentException("operations cannot be read with files in one input set");
            }
            if (r.stream() != null) {
                if (stream != null) {
                    throw new IllegalArgumentException("an input set reads at most one stream");
                }
                stream = r.stream();
            }
            sources.addAll(r.sources());
        }
        return new ReadInput(sources, stream);
    }

    /** Operations built in code ({@link RetryAudit#operation}); the report names their source {@code <operations>}. */
    static AuditInput operations(Iterable<Operation> operations) {
        return new OperationsInput(operations, OperationsInput.SOURCE, OperationsInput.FORMAT);
    }

    /** Operations read elsewhere from {@code source} in {@code format}, as the report's input summary names them. */
    static AuditInput operations(Iterable<Operation> operations, String source, InputFormat format) {
        return new OperationsInput(operations, source, format.id());
    }
}

/**
 * Files and at most one stream ({@code stream}, for the sources that name no file), read as one input set, in
 * {@code format} (null: the settings' input format).
 */
record ReadInput(List<InputSet.Source> sources, InputStream stream, InputFormat format) implements AuditInput {
    ReadInput {
        sources = List.copyOf(sources);
    }

    ReadInput(List<InputSet.Source> sources, InputStream stream) {
        this(sources, stream, null);
    }

    /** The stream, or an empty one when every source is a file. */
    InputStream in() {
        return stream == null ? InputStream.nullInputStream() : stream;
    }
}

/** Operations, which may be lazy and are read once, as from {@code source} in {@code format}. */
record OperationsInput(Iterable<Operation> operations, String source, String format) implements AuditInput {
    /** The source name of operations audited from code. */
    static final String SOURCE = "<operations>";

    /** The format name of operations audited from code. */
    static final String FORMAT = "api";

    OperationsInput {
        Objects.requireNonNull(operations, "operations");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(format, "format");
    }
}
