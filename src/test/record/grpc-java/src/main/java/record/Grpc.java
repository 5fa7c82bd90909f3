package record;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ConnectivityState;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.Channel;
import io.grpc.Contexts;
import io.grpc.Context;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A gRPC client and server in one JVM, talking over a real Netty transport on 127.0.0.1, for
 * recording gRPC exports: {@code java [-javaagent:...] -Drecord.mode=agent|a72
 * -Drecord.wire=FILE -cp ... record.Grpc CASE}. Under the OpenTelemetry Java agent
 * ({@code agent}) the agent's gRPC instrumentation writes the spans; with {@code a72} grpc-java's
 * own tracing ({@code grpc-opentelemetry}, gRFC A72, on when GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING
 * is true) writes them through the SDK that {@code otel.*} properties configure. The server writes
 * each call it received and how it answered to the wire log.
 */
public final class Grpc {
  private static final String SERVICE = "orders.v1.Orders";
  private static final Metadata.Key<String> PUSHBACK =
      Metadata.Key.of("grpc-retry-pushback-ms", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> KEY =
      Metadata.Key.of("idempotency-key", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> PREVIOUS =
      Metadata.Key.of("grpc-previous-rpc-attempts", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<Metadata> HEADERS = Context.key("headers");
  private static final MethodDescriptor<String, String> GET = method("GetOrder");
  private static final MethodDescriptor<String, String> CREATE = method("CreateOrder");

  /** The retry policy of the channel: reads are retried on UNAVAILABLE and RESOURCE_EXHAUSTED, writes not at all. */
  private static final Map<String, Object> SERVICE_CONFIG = Map.of("methodConfig", List.of(Map.of(
      "name", List.of(Map.of("service", SERVICE, "method", "GetOrder")),
      "retryPolicy", Map.of(
          "maxAttempts", 3.0,
          "initialBackoff", "0.2s",
          "maxBackoff", "2s",
          "backoffMultiplier", 2.0,
          "retryableStatusCodes", List.of("UNAVAILABLE", "RESOURCE_EXHAUSTED")))));

  private static final boolean A72 = "a72".equals(System.getProperty("record.mode", "agent"));

  private Grpc() {}

  /** What the server does with the n-th call of a method. */
  interface Behaviour {
    void answer(String method, int n, String request, StreamObserver<String> reply) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    String scenario = args[0];
    Path wire = Path.of(System.getProperty("record.wire", "grpc-wire.jsonl"));
    OpenTelemetrySdk sdk = A72 ? AutoConfiguredOpenTelemetrySdk.initialize().getOpenTelemetrySdk() : null;
    OpenTelemetry otel = A72 ? sdk : GlobalOpenTelemetry.get();
    GrpcOpenTelemetry grpcOtel = A72 ? GrpcOpenTelemetry.newBuilder().sdk(sdk).disableAllMetrics().build() : null;
    Behaviour behaviour = behaviour(scenario);
    WireLog log = new WireLog(wire, scenario);
    NettyServerBuilder serverBuilder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(service(behaviour, log), new KeepHeaders()));
    if (grpcOtel != null) {
      grpcOtel.configureServerBuilder(serverBuilder);
    }
    Server server = serverBuilder.build().start();
    NettyChannelBuilder channelBuilder = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
        .usePlaintext().defaultServiceConfig(SERVICE_CONFIG).enableRetry();
    if (grpcOtel != null) {
      grpcOtel.configureChannelBuilder(channelBuilder);
    }
    ManagedChannel channel = channelBuilder.build();
    connect(channel);
    Span parent = otel.getTracer("record").spanBuilder(scenario).startSpan();
    try (Scope ignored = parent.makeCurrent()) {
      run(scenario, channel);
    } finally {
      parent.end();
      log.awaitAnswered();
      channel.shutdown().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdown().awaitTermination(5, TimeUnit.SECONDS);
      if (sdk != null) {
        sdk.close();
      }
    }
  }

  /** Connects before the scenario starts, so that a call's deadline is not spent on connecting. */
  private static void connect(ManagedChannel channel) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (ConnectivityState state = channel.getState(true); state != ConnectivityState.READY;
        state = channel.getState(true)) {
      if (System.nanoTime() > until) {
        throw new IllegalStateException("channel not ready: " + state);
      }
      CountDownLatch changed = new CountDownLatch(1);
      channel.notifyWhenStateChanged(state, changed::countDown);
      changed.await(1, TimeUnit.SECONDS);
    }
  }

  private static Behaviour behaviour(String scenario) {
    return switch (scenario) {
      case "unavailable-retried" -> (method, n, request, reply) -> {
        if (n <= 2) {
          reply.onError(Status.UNAVAILABLE.withDescription("backend warming up").asRuntimeException());
        } else {
          ok(reply, "{\"order\":\"A-1\",\"state\":\"open\"}");
        }
      };
      case "deadline-write-resent", "deadline-write-resent-keyed" -> (method, n, request, reply) -> {
        if (n == 1) {
          // The order is written before the slow part: the client gives up, the write stands.
          Thread.sleep(2500);
        }
        try {
          ok(reply, "{\"order\":\"B-" + n + "\",\"created\":true}");
        } catch (StatusRuntimeException cancelled) {
          // The client's deadline passed while the server was still working.
        }
      };
      case "invalid-argument-resent" -> (method, n, request, reply) -> reply.onError(
          Status.INVALID_ARGUMENT.withDescription("qty must be positive").asRuntimeException());
      case "pushback-honoured" -> (method, n, request, reply) -> {
        if (n == 1) {
          reply.onError(exhausted("1000"));
        } else {
          ok(reply, "{\"order\":\"A-1\",\"state\":\"open\"}");
        }
      };
      case "pushback-negative-resent" -> (method, n, request, reply) -> {
        if (n == 1) {
          reply.onError(exhausted("-1"));
        } else {
          ok(reply, "{\"order\":\"A-1\",\"state\":\"open\"}");
        }
      };
      case "clean-single" -> (method, n, request, reply) -> ok(reply, "{\"order\":\"A-1\",\"state\":\"open\"}");
      default -> throw new IllegalArgumentException("unknown scenario " + scenario);
    };
  }

  /** The client side of each scenario: what the application does around the channel. */
  private static void run(String scenario, ManagedChannel channel) throws Exception {
    switch (scenario) {
      case "unavailable-retried", "pushback-honoured", "clean-single" ->
          report(call(channel, GET, "{\"order\":\"A-1\"}", null, 5000));
      case "deadline-write-resent", "deadline-write-resent-keyed" -> {
        String key = scenario.endsWith("-keyed") ? "order-grpc-0001" : null;
        String request = "{\"sku\":\"A-1\",\"qty\":1}";
        try {
          report(call(channel, CREATE, request, key, 1000));
        } catch (StatusRuntimeException e) {
          report(e.getStatus());
          Thread.sleep(200);
          report(call(channel, CREATE, request, key, 5000));
        }
      }
      case "invalid-argument-resent" -> {
        String request = "{\"sku\":\"A-1\",\"qty\":0}";
        for (int send = 1; send <= 2; send++) {
          try {
            report(call(channel, CREATE, request, null, 5000));
            return;
          } catch (StatusRuntimeException e) {
            report(e.getStatus());
            Thread.sleep(100);
          }
        }
      }
      case "pushback-negative-resent" -> {
        String request = "{\"order\":\"A-1\"}";
        try {
          report(call(channel, GET, request, null, 5000));
        } catch (StatusRuntimeException e) {
          // The channel obeyed the pushback and did not retry; the application re-sends anyway.
          report(e.getStatus());
          Thread.sleep(100);
          report(call(channel, GET, request, null, 5000));
        }
      }
      default -> throw new IllegalArgumentException("unknown scenario " + scenario);
    }
  }

  private static String call(Channel channel, MethodDescriptor<String, String> method, String request,
      String key, long deadlineMs) {
    Channel target = channel;
    if (key != null) {
      target = ClientInterceptors.intercept(channel, new AddKey(key));
    }
    return ClientCalls.blockingUnaryCall(target, method,
        CallOptions.DEFAULT.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS), request);
  }

  /** The scenario's own lines: stderr is the agent's export, stdout the SDK exporter's. */
  private static void report(Object what) {
    (A72 ? System.err : System.out).println("client: " + what);
  }

  private static StatusRuntimeException exhausted(String pushbackMs) {
    Metadata trailers = new Metadata();
    trailers.put(PUSHBACK, pushbackMs);
    return Status.RESOURCE_EXHAUSTED.withDescription("quota exceeded").asRuntimeException(trailers);
  }

  private static void ok(StreamObserver<String> reply, String body) {
    reply.onNext(body);
    reply.onCompleted();
  }

  private static ServerServiceDefinition service(Behaviour behaviour, WireLog log) {
    Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    ServerServiceDefinition.Builder builder = ServerServiceDefinition.builder(SERVICE);
    for (MethodDescriptor<String, String> method : List.of(GET, CREATE)) {
      String name = method.getBareMethodName();
      builder.addMethod(method, ServerCalls.asyncUnaryCall((request, reply) -> {
        int n = counts.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        Metadata headers = HEADERS.get();
        StreamObserver<String> logged = log.observe(name, n, request, headers, reply);
        try {
          behaviour.answer(name, n, request, logged);
        } catch (Exception e) {
          reply.onError(Status.INTERNAL.withCause(e).asRuntimeException());
        }
      }));
    }
    return builder.build();
  }

  private static MethodDescriptor<String, String> method(String name) {
    return MethodDescriptor.<String, String>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
        .setRequestMarshaller(Utf8.INSTANCE)
        .setResponseMarshaller(Utf8.INSTANCE)
        .build();
  }

  /** Messages are UTF-8 JSON text: the scenarios need real calls, not protobuf schemas. */
  private enum Utf8 implements MethodDescriptor.Marshaller<String> {
    INSTANCE;

    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw Status.INTERNAL.withCause(e).asRuntimeException();
      }
    }
  }

  /** Sends an Idempotency-Key as call metadata. */
  private static final class AddKey implements ClientInterceptor {
    private final String key;

    AddKey(String key) {
      this.key = key;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          headers.put(KEY, key);
          super.start(listener, headers);
        }
      };
    }
  }

  /** Makes the request headers of a call visible to its handler, for the wire log. */
  private static final class KeepHeaders implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      return Contexts.interceptCall(Context.current().withValue(HEADERS, headers), call, headers, next);
    }
  }

  /**
   * The server's record of each call, one JSON object a line: when it arrived with its metadata
   * ({@code received}), and when and how it was answered ({@code answered}).
   */
  private static final class WireLog {
    private final Path file;
    private final String scenario;
    private final AtomicInteger inFlight = new AtomicInteger();

    WireLog(Path file, String scenario) {
      this.file = file;
      this.scenario = scenario;
    }

    StreamObserver<String> observe(String method, int n, String request, Metadata headers,
        StreamObserver<String> reply) {
      inFlight.incrementAndGet();
      write("received", method, n, line -> {
        field(line, "request", request).append(',');
        field(line, "idempotencyKey", headers == null ? null : headers.get(KEY)).append(',');
        field(line, "previousRpcAttempts", headers == null ? null : headers.get(PREVIOUS));
      });
      return new StreamObserver<>() {
        @Override
        public void onNext(String value) {
          try {
            reply.onNext(value);
          } catch (StatusRuntimeException e) {
            answered("not sent, " + e.getStatus().getCode() + ": " + e.getStatus().getDescription(), null);
            throw e;
          }
        }

        @Override
        public void onError(Throwable t) {
          Status status = Status.fromThrowable(t);
          Metadata trailers = Status.trailersFromThrowable(t);
          answered(status.getCode() + ": " + status.getDescription(),
              trailers == null ? null : trailers.get(PUSHBACK));
          reply.onError(t);
        }

        @Override
        public void onCompleted() {
          answered(Context.current().isCancelled() ? "not sent, call already cancelled" : "OK", null);
          reply.onCompleted();
        }

        private void answered(String status, String pushback) {
          write("answered", method, n, line -> {
            field(line, "status", status).append(',');
            field(line, "pushbackMs", pushback);
          });
          inFlight.decrementAndGet();
        }
      };
    }

    /** Waits until every call received has been answered, so that the log is whole at exit. */
    void awaitAnswered() throws InterruptedException {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inFlight.get() > 0 && System.nanoTime() < until) {
        Thread.sleep(50);
      }
    }

    private synchronized void write(String event, String method, int n,
        Consumer<StringBuilder> rest) {
      StringBuilder line = new StringBuilder("{");
      field(line, "at", Instant.now().toString()).append(',');
      field(line, "event", event).append(',');
      field(line, "scenario", scenario).append(',');
      field(line, "method", SERVICE + "/" + method).append(',');
      line.append("\"n\":").append(n).append(',');
      rest.accept(line);
      line.append("}\n");
      try {
        Files.writeString(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    private static StringBuilder field(StringBuilder line, String name, String value) {
      line.append('"').append(name).append("\":");
      if (value == null) {
        return line.append("null");
      }
      line.append('"');
      for (char c : value.toCharArray()) {
        if (c == '"' || c == '\\') {
          line.append('\\');
        }
        line.append(c);
      }
      return line.append('"');
    }
  }
}
