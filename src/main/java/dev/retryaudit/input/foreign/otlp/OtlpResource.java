package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ProtoNames;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an OTLP resource and scope say about who sent a request: the client (service name and
 * instance, host and process), which links root-span resends across traces, and the instrumentation
 * scope, some of which record one span over all sends of a request. Both are hints: values of an
 * unexpected type are passed over.
 */
final class OtlpResource {
    /** The resource attributes that together name one client. */
    private static final String[] CLIENT_KEYS = {"service.name", "service.namespace", "service.instance.id",
        "host.name", "process.pid"};

    /**
     * A producer that records one span over every send of a request, and what shows the sends (null when
     * nothing does); {@code anySpan} when its spans are no HTTP requests (an LLM span), so that a scope
     * holding any span of it hides sends.
     */
    record Blind(String producer, String shows, boolean anySpan) {
    }

    /** Instrumentation scopes known to record one span over every send of a request. */
    private static final Map<String, Blind> ONE_SPAN_PER_REQUEST = Map.of(
            "io.opentelemetry.apache-httpclient-5.0",
            new Blind("the OpenTelemetry Java agent's Apache HttpClient 5 instrumentation", null, false),
            "opentelemetry.instrumentation.requests", new Blind("OpenTelemetry Python's requests instrumentation", null, false),
            "opentelemetry.instrumentation.urllib3", new Blind("OpenTelemetry Python's urllib3 instrumentation", null, false),
            "io.opentelemetry.aws-sdk-2.2", new Blind("the OpenTelemetry Java agent's AWS SDK for Java v2 instrumentation",
                    "-Dotel.instrumentation.aws-sdk.enabled=false, which leaves the HTTP client's span of each send", false),
            "openinference.instrumentation.openai", new Blind("OpenInference's OpenAI instrumentation",
                    "an HTTP client instrumentation beside it (httpx), which records each send the SDK retries", true),
            "@arizeai/openinference-instrumentation-openai", new Blind("OpenInference's OpenAI instrumentation",
                    "an HTTP client instrumentation beside it (undici), which records each send the SDK retries", true));

    private OtlpResource() {
    }

    /** The client a {@code Resource} object at the cursor names, or null when it names none. */
    static String client(JsonCursor c, ReadContext ctx) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        Client client = new Client();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (name.equals("attributes") && c.token() == JsonToken.START_ARRAY) {
                while (c.next() != JsonToken.END_ARRAY) {
                    KeyValue kv = KeyValue.read(c);
                    if (kv != null) {
                        client.attribute(kv.key(), kv.value());
                    }
                }
            } else {
                c.skip();
            }
        }
        return client.name();
    }

    /** The resource attributes that name a client, taken one by one in either encoding, and the client they name. */
    static final class Client {
        private final Map<String, String> found = new TreeMap<>();

        /** Whether the value of attribute {@code key} would be taken: only the keys that name a client are. */
        static boolean names(String key) {
            for (String k : CLIENT_KEYS) {
                if (k.equals(key)) {
                    return true;
                }
            }
            return false;
        }

        /** Takes one resource attribute; either part may be null (absent). */
        void attribute(String key, AnyValue value) {
            if (key == null || value == null || !names(key)) {
                return;
            }
            try {
                String text = value.text(key, () -> "");
                if (text != null) {
                    found.put(key, text);
                }
            } catch (InputException e) {
                // A hint of an unexpected type names no client.
            }
        }

        /** The client the attributes taken name, or null when they name none. */
        String name() {
            if (found.isEmpty()) {
                return null;
            }
            StringBuilder b = new StringBuilder();
            for (String key : CLIENT_KEYS) {
                String v = found.get(key);
                if (v != null) {
                    b.append(key).append('=').append(v).append('\0');
                }
            }
            return b.toString();
        }
    }

    /** The name of an {@code InstrumentationScope} at the cursor, or null. */
    static String scopeName(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        String scope = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (name.equals("name") && c.token() == JsonToken.VALUE_STRING) {
                scope = c.optString();
            } else {
                c.skip();
            }
        }
        return scope;
    }

    /** The producer of a scope that records one span over all sends of a request, or null. */
    static Blind oneSpanPerRequest(String scope) {
        return scope == null ? null : ONE_SPAN_PER_REQUEST.get(scope);
    }
}
