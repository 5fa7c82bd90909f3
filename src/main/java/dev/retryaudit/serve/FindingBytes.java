package dev.retryaudit.serve;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.values.RawJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Findings as one block of bytes and back, equal as they were: each field as it is read (the message as its text,
 * strings in Java's modified UTF-8, which keeps every char,
 * a timestamp in the evidence as the text it reads as; the fingerprint is computed again from the fields), the
 * names that repeat (rules, tools, sources, evidence keys) written once a block. What a receiver keeps of the
 * findings it handed on, for the report at the end.
 */
final class FindingBytes {
    private static final Severity[] SEVERITIES = Severity.values();
    private static final int NULL = 0;
    private static final int STRING = 1;
    private static final int LONG = 2;
    private static final int INTEGER = 3;
    private static final int DOUBLE = 4;
    private static final int TRUE = 5;
    private static final int FALSE = 6;
    private static final int RAW_JSON = 7;
    private static final int LIST = 8;
    private static final int NO_TEXT = 0;
    private static final int UTF = 1;
    private static final int CHARS = 2;
    /** The longest string sure to fit the 65,535 bytes of {@link DataOutputStream#writeUTF}: 3 bytes a char at most. */
    private static final int UTF_CHARS = 65_535 / 3;

    private FindingBytes() {
    }

    /** {@code findings} as one block. */
    static byte[] write(List<Finding> findings) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 * findings.size());
        Writer w = new Writer(new DataOutputStream(bytes));
        try {
            w.out.writeInt(findings.size());
            for (Finding f : findings) {
                w.finding(f);
            }
            w.out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("bytes in memory are always written", e);
        }
        return bytes.toByteArray();
    }

    /** The findings of {@code block}, in their order. */
    static List<Finding> read(byte[] block) {
        Reader r = new Reader(new DataInputStream(new ByteArrayInputStream(block)));
        try {
            int n = r.in.readInt();
            List<Finding> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(r.finding());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("a block written in this process reads back", e);
        }
    }

    private static final class Writer {
        final DataOutputStream out;
        final Map<String, Integer> names = new HashMap<>();

        Writer(DataOutputStream out) {
            this.out = out;
        }

        void finding(Finding f) throws IOException {
            name(f.rule());
            out.writeByte(f.severity().ordinal());
            text(f.operation());
            out.writeInt(f.attempt() == null ? Integer.MIN_VALUE : f.attempt());
            name(f.tool());
            text(f.run());
            text(f.message());
            Evidence e = f.evidence();
            out.writeInt(e.size());
            for (int i = 0; i < e.size(); i++) {
                name(e.key(i));
                value(e.value(i));
            }
            Location at = f.location();
            name(at.source());
            out.writeInt(at.sourceIndex());
            out.writeLong(at.line());
            out.writeLong(at.column());
            name(at.pointer());
        }

        void value(Object v) throws IOException {
            if (v == null) {
                out.writeByte(NULL);
            } else if (v instanceof String s) {
                out.writeByte(STRING);
                text(s);
            } else if (v instanceof Long l) {
                out.writeByte(LONG);
                out.writeLong(l);
            } else if (v instanceof Integer i) {
                out.writeByte(INTEGER);
                out.writeInt(i);
            } else if (v instanceof Double d) {
                out.writeByte(DOUBLE);
                out.writeDouble(d);
            } else if (v instanceof Boolean b) {
                out.writeByte(b ? TRUE : FALSE);
            } else if (v instanceof RawJson j) {
                out.writeByte(RAW_JSON);
                text(j.json());
            } else if (v instanceof List<?> list) {
                out.writeByte(LIST);
                out.writeInt(list.size());
                for (Object item : list) {
                    value(item);
                }
            } else {
                throw new IllegalArgumentException("evidence holds no " + v.getClass());
            }
        }

        /** A string that repeats across findings: its number once it was written. */
        void name(String s) throws IOException {
            if (s == null) {
                out.writeInt(-1);
                return;
            }
            Integer known = names.get(s);
            if (known != null) {
                out.writeInt(known);
                return;
            }
            out.writeInt(-2);
            text(s);
            names.put(s, names.size());
        }

        /** A string as Java's modified UTF-8, which keeps every char (an unpaired surrogate too), or as its chars when long. */
        void text(String s) throws IOException {
            if (s == null) {
                out.writeByte(NO_TEXT);
            } else if (s.length() <= UTF_CHARS) {
                out.writeByte(UTF);
                out.writeUTF(s);
            } else {
                out.writeByte(CHARS);
                out.writeInt(s.length());
                out.writeChars(s);
            }
        }
    }

    private static final class Reader {
        final DataInputStream in;
        final List<String> names = new ArrayList<>();

        Reader(DataInputStream in) {
            this.in = in;
        }

        Finding finding() throws IOException {
            Finding.Builder b = Finding.builder().rule(name()).severity(SEVERITIES[in.readByte()]).operation(text());
            int attempt = in.readInt();
            b.attempt(attempt == Integer.MIN_VALUE ? null : attempt).tool(name()).run(text()).message(text());
            Evidence e = Evidence.of();
            int facts = in.readInt();
            for (int i = 0; i < facts; i++) {
                e.put(name(), value());
            }
            return b.evidence(e).at(new Location(name(), in.readInt(), in.readLong(), in.readLong(), name())).build();
        }

        Object value() throws IOException {
            int tag = in.readByte();
            return switch (tag) {
                case NULL -> null;
                case STRING -> text();
                case LONG -> in.readLong();
                case INTEGER -> in.readInt();
                case DOUBLE -> in.readDouble();
                case TRUE -> Boolean.TRUE;
                case FALSE -> Boolean.FALSE;
                case RAW_JSON -> new RawJson(text());
                case LIST -> {
                    int n = in.readInt();
                    List<Object> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(value());
                    }
                    yield list;
                }
                default -> throw new IOException("no evidence value is tagged " + tag);
            };
        }

        String name() throws IOException {
            int n = in.readInt();
            if (n == -1) {
                return null;
            }
            if (n >= 0) {
                return names.get(n);
            }
            String s = text();
            names.add(s);
            return s;
        }

        String text() throws IOException {
            int form = in.readByte();
            if (form == NO_TEXT) {
                return null;
            }
            if (form == UTF) {
                return in.readUTF();
            }
            char[] chars = new char[in.readInt()];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = in.readChar();
            }
            return new String(chars);
        }
    }
}
