package dev.retryaudit.input.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * What {@code audit --from} asks a trace store for: the store's kind and base URL ({@code zipkin:},
 * {@code jaeger:} or {@code tempo:} before an {@code http} or {@code https} URL), and either one trace by
 * id or the traces of a service (Tempo: of any, when none is named) that started within {@code since}
 * before {@code now}, at most {@code limit} of them.
 */
public record StoreQuery(Kind kind, URI base, String service, Duration since, String traceId, int limit, Instant now) {
    /** The most traces one audit fetches, so that the requests stay bounded. */
    public static final int MAX_LIMIT = 1000;

    /** The query APIs read. */
    public enum Kind {
        ZIPKIN,
        JAEGER,
        TEMPO;

        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The store {@code from} names ({@code zipkin:http://127.0.0.1:9411}), or an {@link IllegalArgumentException}
     * saying what is wrong with it or with the other values, worded for a usage error.
     */
    public static StoreQuery of(String from, String service, Duration since, String traceId, int limit, Instant now) {
        int colon = from.indexOf(':');
        Kind kind = null;
        for (Kind k : Kind.values()) {
            if (colon > 0 && k.id().equals(from.substring(0, colon).toLowerCase(Locale.ROOT))) {
                kind = k;
            }
        }
        if (kind == null) {
            throw new IllegalArgumentException("invalid value for option '--from': expected zipkin:URL, jaeger:URL or "
                    + "tempo:URL (zipkin:http://127.0.0.1:9411), found " + from);
        }
        URI base;
        try {
            base = new URI(from.substring(colon + 1));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("invalid value for option '--from': " + e.getMessage());
        }
        if (!("http".equals(base.getScheme()) || "https".equals(base.getScheme())) || base.getHost() == null
                || base.getRawQuery() != null || base.getRawFragment() != null) {
            throw new IllegalArgumentException("invalid value for option '--from': the store's URL must be http://HOST[:PORT][/PATH] "
                    + "or https://..., without a query, found " + from.substring(colon + 1));
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("invalid value for option '--limit': expected 1 to " + MAX_LIMIT + ", found " + limit);
        }
        if (since.isNegative() || since.isZero()) {
            throw new IllegalArgumentException("invalid value for option '--since': expected a duration above 0");
        }
        if (traceId != null && !traceId.matches("[0-9a-fA-F]{1,32}")) {
            throw new IllegalArgumentException("invalid value for option '--trace-id': expected up to 32 hex digits, found "
                    + traceId);
        }
        if (traceId == null && service == null && kind != Kind.TEMPO) {
            throw new IllegalArgumentException("--from " + kind.id() + ": needs --service or --trace-id");
        }
        String path = base.getRawPath() == null ? "" : base.getRawPath().replaceAll("/+$", "");
        return new StoreQuery(kind, base.resolve(path.isEmpty() ? "/" : path + "/"), service, since,
                traceId == null ? null : traceId.toLowerCase(Locale.ROOT), limit, now);
    }

    /** The name of the store in reports and errors: {@code zipkin:http://127.0.0.1:9411/}. */
    public String name() {
        return kind.id() + ":" + base;
    }
}
