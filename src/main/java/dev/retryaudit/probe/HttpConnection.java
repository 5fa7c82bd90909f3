package dev.retryaudit.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One client connection of the probe server, spoken as HTTP/1.x: it reads each request whole (the
 * request line, the headers up to their blank line, and a body of its Content-Length or in chunks,
 * hashed as it arrives) within a time limit, and writes the answers. A request is returned only
 * once its last byte has arrived, so a request cut off anywhere is never mistaken for one.
 */
final class HttpConnection implements AutoCloseable {
    /** The most bytes of a request's line and headers (and of a chunked body's trailers). */
    static final int MAX_HEAD_BYTES = 64 * 1024;

    private static final int MAX_CHUNK_LINE = 1024;
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * A request read whole: its method, raw path (without the query), headers by lower-case name (each
     * with its values in order), when its headers were complete, whether the connection stays open
     * after the answer, and its body's SHA-256 ({@code sha256:HEX}) and length.
     */
    record Request(String method, String path, Map<String, List<String>> headers, long receivedMillis,
            boolean keepAlive, String bodyHash, long bodyLength) {
        /** The first value of header {@code name} (any case), or null. */
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }
    }

    /** A request that is not HTTP/1.x: the connection is answered 400 and closed. */
    static final class MalformedException extends IOException {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    /** The line and headers of a request whose body is still to be read. */
    private record Head(String method, String path, String version, Map<String, List<String>> headers,
            long receivedMillis) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final long requestMillis;
    private final long idleMillis;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int lim;
    /** Whether some bytes of a request have arrived and not yet all of it; read by the server's other threads. */
    private volatile boolean started;
    /** When the first byte of the request partway through arrived. */
    private volatile long startedMillis;
    private long deadline;
    private int headBytes;

    /**
     * Speaks HTTP over {@code socket}: a request must arrive whole within {@code requestMillis} of its
     * first byte, and the next one begin within {@code idleMillis} of the previous answer (or of the
     * connection's opening).
     */
    HttpConnection(Socket socket, long requestMillis, long idleMillis) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.requestMillis = requestMillis;
        this.idleMillis = idleMillis;
        this.deadline = System.currentTimeMillis() + idleMillis;
    }

    /** Whether part of a request has arrived but not the whole of it. */
    boolean started() {
        return started;
    }

    /** When the first byte of the request partway through arrived (meaningful while {@link #started}). */
    long startedMillis() {
        return startedMillis;
    }

    /**
     * The next request, read whole, or null when the connection ended (or stayed idle too long) before
     * its first byte. Throws {@link MalformedException} for bytes that are not an HTTP/1.x request, and
     * an IOException when the connection ends, or its time runs out, partway through one.
     */
    Request next() throws IOException {
        headBytes = 0;
        if (pos < lim) {
            // the client sent this request behind the previous one (pipelining)
            begin();
        }
        String line;
        do {
            // a client may send an empty line or two between requests (RFC 9112, section 2.2)
            if (pos == lim && !fill()) {
                return null;
            }
            line = line(MAX_HEAD_BYTES);
        } while (line.isEmpty());
        Head head = head(line);
        boolean keepAlive = keepAlive(head);
        MessageDigest sha = sha256();
        long length;
        List<String> coding = head.headers().get("transfer-encoding");
        if (coding != null) {
            String codings = String.join(",", coding);
            String last = codings.substring(codings.lastIndexOf(',') + 1).trim();
            if (!last.equalsIgnoreCase("chunked") || head.version().equals("HTTP/1.0")) {
                throw new MalformedException("a Transfer-Encoding other than chunked: " + codings);
            }
            expectContinue(head);
            length = chunked(sha);
            // a request framed by both Transfer-Encoding and Content-Length must not be followed by another
            keepAlive &= !head.headers().containsKey("content-length");
        } else {
            long declared = contentLength(head);
            if (declared > 0) {
                expectContinue(head);
            }
            body(declared, sha);
            length = declared;
        }
        started = false;
        deadline = Long.MAX_VALUE;
        return new Request(head.method(), head.path(), head.headers(), head.receivedMillis(), keepAlive,
                "sha256:" + HexFormat.of().formatHex(sha.digest()), length);
    }

    /**
     * Answers the request read last with {@code status}, {@code headers} (name, value pairs), a Date and
     * the Content-Length of {@code body}, which is left out for a HEAD; {@code close} says that the
     * connection ends after it. The next request may take up to the idle time to begin.
     */
    void respond(int status, List<String[]> headers, byte[] body, boolean head, boolean close) throws IOException {
        StringBuilder b = new StringBuilder(256).append("HTTP/1.1 ").append(status).append(' ').append(reason(status))
                .append("\r\nDate: ").append(HeaderFormat.httpDate(System.currentTimeMillis()));
        for (String[] h : headers) {
            b.append("\r\n").append(h[0]).append(": ").append(h[1]);
        }
        b.append("\r\nContent-Length: ").append(body.length);
        if (close) {
            b.append("\r\nConnection: close");
        }
        b.append("\r\n\r\n");
        out.write(b.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!head) {
            out.write(body);
        }
        out.flush();
        deadline = System.currentTimeMillis() + idleMillis;
    }

    /** Answers a malformed request 400 and says why, best effort: the connection closes after it. */
    void reject(String why) {
        try {
            respond(400, List.<String[]>of(new String[] {"Content-Type", "text/plain"}),
                    ("not an HTTP/1.x request: " + why + "\n").getBytes(StandardCharsets.UTF_8), false, true);
        } catch (IOException e) {
            // the client went away first; it sees the connection close
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing is left to say to a client whose connection cannot even close
        }
    }

    private Head head(String requestLine) throws IOException {
        long received = System.currentTimeMillis();
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3 || !token(parts[0]) || parts[1].isEmpty() || !visible(parts[1])) {
            throw new MalformedException("the request line is not METHOD TARGET HTTP/1.x");
        }
        if (!parts[2].equals("HTTP/1.1") && !parts[2].equals("HTTP/1.0")) {
            throw new MalformedException("the version is not HTTP/1.0 or HTTP/1.1");
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        List<String> previous = null;
        for (String line; !(line = line(MAX_HEAD_BYTES)).isEmpty();) {
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                if (previous == null) {
                    throw new MalformedException("the headers begin with a continuation line");
                }
                // an obsolete line folding: its line break stands for a space (RFC 9112, section 5.2)
                int last = previous.size() - 1;
                previous.set(last, (previous.get(last) + " " + line.strip()).strip());
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || !token(line.substring(0, colon))) {
                throw new MalformedException("a header line is not NAME: VALUE");
            }
            previous = headers.computeIfAbsent(line.substring(0, colon).toLowerCase(Locale.ROOT), k -> new ArrayList<>());
            previous.add(line.substring(colon + 1).strip());
        }
        return new Head(parts[0], path(parts[1]), parts[2], headers, received);
    }

    /** The raw path of a request target: the path of an absolute URL, without the query. */
    private static String path(String target) {
        String p = target;
        int scheme = p.indexOf("://");
        if (scheme > 0 && p.charAt(0) != '/') {
            int slash = p.indexOf('/', scheme + 3);
            p = slash < 0 ? "/" : p.substring(slash);
        }
        int query = p.indexOf('?');
        return query < 0 ? p : p.substring(0, query);
    }

    private static boolean keepAlive(Head h) {
        List<String> connection = h.headers().getOrDefault("connection", List.of());
        boolean close = false;
        boolean keep = false;
        for (String value : connection) {
            for (String option : value.split(",")) {
                close |= option.strip().equalsIgnoreCase("close");
                keep |= option.strip().equalsIgnoreCase("keep-alive");
            }
        }
        return !close && (h.version().equals("HTTP/1.1") || keep);
    }

    private static long contentLength(Head h) throws MalformedException {
        List<String> values = h.headers().get("content-length");
        if (values == null) {
            return 0;
        }
        String only = null;
        for (String value : values) {
            for (String v : value.split(",", -1)) {
                String s = v.strip();
                if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')
                        || only != null && !only.equals(s)) {
                    throw new MalformedException("the Content-Length is not one decimal number");
                }
                only = s;
            }
        }
        return Long.parseLong(only);
    }

    /** Tells a client that waits for leave to send its body (curl does, past 1 KiB) to go ahead. */
    private void expectContinue(Head h) throws IOException {
        String expect = h.headers().containsKey("expect") ? h.headers().get("expect").get(0) : null;
        if (h.version().equals("HTTP/1.1") && "100-continue".equalsIgnoreCase(expect)) {
            out.write(CONTINUE);
            out.flush();
        }
    }

    private long chunked(MessageDigest sha) throws IOException {
        long total = 0;
        while (true) {
            String line = line(MAX_CHUNK_LINE);
            int ext = line.indexOf(';');
            String size = (ext < 0 ? line : line.substring(0, ext)).strip();
            if (size.isEmpty() || size.length() > 15 || !size.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                throw new MalformedException("a chunk size is not a hexadecimal number");
            }
            long n = Long.parseLong(size, 16);
            if (n == 0) {
                while (!line(MAX_HEAD_BYTES).isEmpty()) {
                    // trailer fields say nothing the journal keeps
                }
                return total;
            }
            body(n, sha);
            total += n;
            if (!line(2).isEmpty()) {
                throw new MalformedException("a chunk does not end with a line break");
            }
        }
    }

    private void body(long length, MessageDigest sha) throws IOException {
        for (long left = length; left > 0;) {
            if (pos == lim && !fill()) {
                throw new IOException("the connection closed inside a body");
            }
            int n = (int) Math.min(left, lim - pos);
            sha.update(buf, pos, n);
            pos += n;
            left -= n;
        }
    }

    /** One line without its line break (CRLF, or a bare LF), its bytes read as ISO-8859-1, at most {@code max} of them. */
    private String line(int max) throws IOException {
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos == lim && !fill()) {
                throw new IOException("the connection closed inside a line");
            }
            int c = buf[pos++] & 0xFF;
            if (++headBytes > MAX_HEAD_BYTES || b.length() > max) {
                throw new MalformedException("a line or the headers are too long");
            }
            if (c == '\n') {
                int end = b.length();
                return end > 0 && b.charAt(end - 1) == '\r' ? b.substring(0, end - 1) : b.toString();
            }
            b.append((char) c);
        }
    }

    /** Reads more bytes before the deadline; false at the end of the stream, or when idle too long before a request. */
    private boolean fill() throws IOException {
        long left = deadline == Long.MAX_VALUE ? 0 : deadline - System.currentTimeMillis();
        if (deadline != Long.MAX_VALUE && left <= 0) {
            return timedOut();
        }
        socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
        int n;
        try {
            n = in.read(buf, 0, buf.length);
        } catch (SocketTimeoutException e) {
            return timedOut();
        }
        if (n < 0) {
            if (started) {
                throw new IOException("the connection closed partway through a request");
            }
            return false;
        }
        pos = 0;
        lim = n;
        if (!started) {
            begin();
        }
        return true;
    }

    private void begin() {
        startedMillis = System.currentTimeMillis();
        started = true;
        deadline = startedMillis + requestMillis;
    }

    private boolean timedOut() throws SocketTimeoutException {
        if (started) {
            throw new SocketTimeoutException("the request did not arrive whole within " + requestMillis + " ms");
        }
        return false;
    }

    private static boolean token(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    private static boolean visible(String s) {
        return s.chars().allMatch(c -> c > ' ' && c < 0x7F || c >= 0x80);
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 405 -> "Method Not Allowed";
            case 410 -> "Gone";
            case 422 -> "Unprocessable Content";
            case 429 -> "Too Many Requests";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
